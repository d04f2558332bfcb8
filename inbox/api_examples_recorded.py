"""Answers of `inbox.api_examples`, recorded from the app by
tests/config/test_api_examples.py (RECORD_API_EXAMPLES=1); do not edit."""

# ruff: noqa: E501 - keys and secrets as the app gave them

RESPONSES = {
    "GET /api/v1/inbox/items #unread": {
        "next": "http://testserver/api/v1/inbox/items?cursor=1.1&limit=1&state=unread",
        "previous": None,
        "results": [
            {
                "id": 1,
                "run_id": 1,
                "subscription_id": 1,
                "subscription_name": "AI Daily",
                "title": "Agents that ask before acting: a "
                "tool-permission pattern for LLM "
                "workflows",
                "url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                "summary": "Letting an LLM agent call tools "
                "freely is fast to prototype and "
                "risky to ship. We describe a "
                "three-tier permission model, "
                "read, draft and commit, that "
                "kept our internal agents useful "
                "while requiring human "
                "confirmation only for actions "
                "that change shared state.",
                "source_name": "Model Notes",
                "reason": "matches LLM, agents in the "
                "title; source: Model Notes; "
                "stands out for: has headings, "
                "lists; published 19 Nov 2026, "
                "11:00 UTC",
                "overall": 81,
                "published_at": "2026-11-19T11:00:00Z",
                "delivered_at": "2026-11-20T09:00:00Z",
                "read": False,
                "saved": False,
                "not_interested": False,
            }
        ],
    },
    "GET /api/v1/inbox/items #one-subscription": {
        "next": "http://testserver/api/v1/inbox/items?cursor=1.2&limit=2&subscription=1&updated_since=2026-11-19T00%3A00%3A00Z",
        "previous": None,
        "results": [
            {
                "id": 1,
                "run_id": 1,
                "subscription_id": 1,
                "subscription_name": "AI Daily",
                "title": "Agents that ask before "
                "acting: a "
                "tool-permission pattern "
                "for LLM workflows",
                "url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                "summary": "Letting an LLM agent "
                "call tools freely is "
                "fast to prototype and "
                "risky to ship. We "
                "describe a three-tier "
                "permission model, "
                "read, draft and "
                "commit, that kept our "
                "internal agents "
                "useful while "
                "requiring human "
                "confirmation only for "
                "actions that change "
                "shared state.",
                "source_name": "Model Notes",
                "reason": "matches LLM, agents in "
                "the title; source: "
                "Model Notes; stands "
                "out for: has headings, "
                "lists; published 19 "
                "Nov 2026, 11:00 UTC",
                "overall": 81,
                "published_at": "2026-11-19T11:00:00Z",
                "delivered_at": "2026-11-20T09:00:00Z",
                "read": False,
                "saved": False,
                "not_interested": False,
            },
            {
                "id": 2,
                "run_id": 1,
                "subscription_id": 1,
                "subscription_name": "AI Daily",
                "title": "What it actually costs "
                "to serve a 70B language "
                "model at 40 requests "
                "per second",
                "url": "https://ai-notes.example/2026/cost-of-serving-70b-model",
                "summary": "We priced out serving "
                "a "
                "70-billion-parameter "
                "open-weight language "
                "model for an internal "
                "assistant that peaks "
                "at about 40 requests "
                "per second. GPU hours "
                "dominate, but "
                "batching, context "
                "length and idle "
                "capacity moved the "
                "monthly inference "
                "bill more than the "
                "choice of hardware "
                "did.",
                "source_name": "Model Notes",
                "reason": "matches language "
                "model, inference in "
                "the title; shares "
                "weights with your best "
                "matches; source: Model "
                "Notes; stands out for: "
                "has headings, lists; "
                "published 20 Nov 2026, "
                "04:00 UTC",
                "overall": 68,
                "published_at": "2026-11-20T04:00:00Z",
                "delivered_at": "2026-11-20T09:00:00Z",
                "read": False,
                "saved": False,
                "not_interested": False,
            },
        ],
    },
    "POST /api/v1/inbox/items/{run_item_id}/actions #save": {
        "id": 1,
        "run_id": 1,
        "subscription_id": 1,
        "subscription_name": "AI Daily",
        "title": "Agents that ask before acting: a tool-permission pattern for LLM workflows",
        "url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
        "summary": "Letting an LLM agent "
        "call tools freely is "
        "fast to prototype and "
        "risky to ship. We "
        "describe a three-tier "
        "permission model, read, "
        "draft and commit, that "
        "kept our internal "
        "agents useful while "
        "requiring human "
        "confirmation only for "
        "actions that change "
        "shared state.",
        "source_name": "Model Notes",
        "reason": "matches LLM, agents in "
        "the title; source: Model "
        "Notes; stands out for: "
        "has headings, lists; "
        "published 19 Nov 2026, "
        "11:00 UTC",
        "overall": 81,
        "published_at": "2026-11-19T11:00:00Z",
        "delivered_at": "2026-11-20T09:00:00Z",
        "read": False,
        "saved": True,
        "not_interested": False,
    },
    "POST /api/v1/inbox/items/bulk #read": {"action": "read", "count": 2, "ids": [1, 2]},
    "GET /api/v1/inbox/stats #counts": {
        "delivered": 18,
        "unread": 16,
        "saved": 1,
        "not_interested": 0,
        "by_subscription": [
            {
                "subscription_id": 1,
                "name": "AI Daily",
                "delivered": 4,
                "unread": 2,
                "saved": 1,
                "not_interested": 0,
            },
            {
                "subscription_id": 4,
                "name": "Climate & energy",
                "delivered": 4,
                "unread": 4,
                "saved": 0,
                "not_interested": 0,
            },
        ],
    },
    "GET /api/v1/me #me": {
        "id": 1,
        "email": "demo@tidings.local",
        "token_scope": "write",
        "language": "auto",
        "timezone": "UTC",
    },
    "PATCH /api/v1/me #berlin": {
        "id": 1,
        "email": "demo@tidings.local",
        "token_scope": "write",
        "language": "en",
        "timezone": "Europe/Berlin",
    },
    "POST /api/v1/tokens #read-only": {
        "id": 2,
        "name": "Reading app",
        "scope": "read",
        "prefix": "6161a6d2d562",
        "created_at": "2026-11-20T09:00:00Z",
        "last_used_at": None,
        "current": False,
        "token": "tid_6161a6d2d562_i_CHt-AKNxPkrUGZOVyQTdDdQv7saD9ENbS1dQqJgXw",
    },
    "GET /api/v1/tokens #tokens": {
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 1,
                "name": "tests",
                "scope": "write",
                "prefix": "391257bd6d06",
                "created_at": "2026-11-29T07:42:05.102786Z",
                "last_used_at": "2026-11-20T09:00:00Z",
                "current": True,
            },
            {
                "id": 2,
                "name": "Reading app",
                "scope": "read",
                "prefix": "6161a6d2d562",
                "created_at": "2026-11-20T09:00:00Z",
                "last_used_at": None,
                "current": False,
            },
        ],
    },
    "DELETE /api/v1/tokens/{token_id} #revoke": None,
    "GET /api/v1/push/config #config": {
        "enabled": True,
        "public_key": "BPaRmuTBinFL0LY5A6FjViTpVItUouIvouDYdfWfj7Am8rkqlsyVUFL3Jgb5pcBHrJjk2WP6upoYfXL47ZXk0Cc",
        "service_worker": "/push-sw.js",
    },
    "POST /api/v1/push/devices #browser": {
        "id": 1,
        "label": "Laptop",
        "endpoint": "https://push.example/send/abc123",
        "created_at": "2026-11-20T09:00:00Z",
        "last_sent_at": None,
    },
    "GET /api/v1/push/devices #devices": {
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 1,
                "label": "Laptop",
                "endpoint": "https://push.example/send/abc123",
                "created_at": "2026-11-20T09:00:00Z",
                "last_sent_at": None,
            }
        ],
    },
    "DELETE /api/v1/push/devices/{device_id} #remove": None,
    "GET /api/v1/export #saved": {
        "format": "tidings-export@1",
        "exported_at": "2026-11-20T09:00:00+00:00",
        "instance": {"url": "http://127.0.0.1:8000", "software": "tidings"},
        "scope": "saved",
        "account": {"id": 1, "email": "demo@tidings.local"},
        "preferences": {"ui_locale": "en", "timezone": "Europe/Berlin", "locale_mode": "manual"},
        "folders": [],
        "sources": [
            {
                "id": 1,
                "type": "feed",
                "config": {"local_file": True},
                "url": "",
                "title": "Model Notes",
                "in_library": True,
                "label": "Model Notes",
                "folder": "",
            },
            {
                "id": 2,
                "type": "feed",
                "config": {"local_file": True},
                "url": "",
                "title": "Engineering Weekly",
                "in_library": True,
                "label": "Engineering Weekly",
                "folder": "",
            },
        ],
        "subscriptions": [
            {
                "name": "AI Daily",
                "topic": "Artificial intelligence and machine learning",
                "interests": ["AI", "LLM"],
                "negative_keywords": [],
                "min_score": 60,
                "max_items": 20,
                "content_window_hours": 168,
                "redelivery": "cooldown",
                "cooldown_days": 7,
                "cron": "0 8 * * *",
                "timezone": "UTC",
                "run_at": None,
                "language_mode": "follow_ui",
                "output_locale": "",
                "summaries_enabled": True,
                "narrative_enabled": True,
                "tone": "neutral",
                "reading_levels": [],
                "sections": [],
                "email_enabled": False,
                "email_to": "",
                "email_subject": "",
                "status": "active",
                "paused_reason": "",
                "created_at": "2026-11-20T09:00:00+00:00",
                "deleted_at": None,
                "id": 1,
                "webhook_url": "",
                "sources": [
                    {"source": 1, "enabled": True, "weight": 1.0},
                    {"source": 2, "enabled": True, "weight": 1.0},
                ],
            }
        ],
        "runs": [
            {
                "id": 1,
                "subscription": 1,
                "status": "succeeded",
                "trigger": "manual",
                "scheduled_at": "2026-11-20T09:00:00+00:00",
                "started_at": "2026-11-20T09:00:00+00:00",
                "finished_at": "2026-11-20T09:00:00.054000+00:00",
                "output_locale": "en",
                "narrative_md": "**Agents that ask before acting: a "
                "tool-permission pattern for LLM "
                "workflows** leads this issue of AI "
                "Daily, from Model Notes.\n"
                "\n"
                "Letting an LLM agent call tools "
                "freely is fast to prototype and "
                "risky to ship. We describe a "
                "three-tier permission model, read, "
                "draft and commit, that kept our "
                "internal agents useful while "
                "requiring human confirmation only "
                "for actions that change shared "
                "state.\n"
                "\n"
                "Also in this issue:\n"
                "- What it actually costs to serve a "
                "70B language model at 40 requests "
                "per second\n"
                "- Open-weight LLM releases now ship "
                "with eval cards: what to read "
                "first\n"
                "- Quantizing a small language model "
                "to 4 bits for laptop inference\n"
                "\n"
                "Sources:\n"
                "1. [Agents that ask before acting: "
                "a tool-permission pattern for LLM "
                "workflows](https://ai-notes.example/2026/agent-tool-permission-tiers)\n"
                "2. [What it actually costs to serve "
                "a 70B language model at 40 requests "
                "per "
                "second](https://ai-notes.example/2026/cost-of-serving-70b-model)\n"
                "3. [Open-weight LLM releases now "
                "ship with eval cards: what to read "
                "first](https://ai-notes.example/2026/open-weight-llm-eval-cards)\n"
                "4. [Quantizing a small language "
                "model to 4 bits for laptop "
                "inference](https://ai-notes.example/2026/4-bit-quantization-laptop)",
                "narrative_generator": "template",
                "candidates_count": 40,
                "selected_count": 4,
                "delivered_count": 4,
                "dedup_skipped_count": 0,
                "redelivered_count": 0,
                "empty_reason": "",
                "error": "",
                "error_code": "",
                "items": [
                    {
                        "title": "Agents that ask before acting: "
                        "a tool-permission pattern for "
                        "LLM workflows",
                        "url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                        "summary": "Letting an LLM agent call "
                        "tools freely is fast to "
                        "prototype and risky to ship. "
                        "We describe a three-tier "
                        "permission model, read, draft "
                        "and commit, that kept our "
                        "internal agents useful while "
                        "requiring human confirmation "
                        "only for actions that change "
                        "shared state.",
                        "summary_generator": "extractive",
                        "reason": "matches LLM, agents in the "
                        "title; source: Model Notes; "
                        "stands out for: has headings, "
                        "lists; published 19 Nov 2026, "
                        "11:00 UTC",
                        "relevance": 100,
                        "overall": 81,
                        "rank": 1,
                        "source_name": "Model Notes",
                        "published_at": "2026-11-19T11:00:00+00:00",
                        "redelivered": False,
                        "delivered_at": "2026-11-20T09:00:00+00:00",
                        "canonical_url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                    }
                ],
            }
        ],
        "content_states": [
            {
                "first_delivered_at": "2026-11-20T09:00:00+00:00",
                "last_delivered_at": "2026-11-20T09:00:00+00:00",
                "delivered_count": 1,
                "opened_at": "2026-11-20T09:00:00+00:00",
                "read_at": "2026-11-20T09:00:00+00:00",
                "saved_at": "2026-11-20T09:00:00+00:00",
                "not_interested_at": None,
                "canonical_url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                "title": "Agents that ask before acting: a "
                "tool-permission pattern for LLM "
                "workflows",
                "last_run": 1,
            }
        ],
    },
    "POST /api/v1/import #export": {
        "id": 1,
        "status": "done",
        "progress_percent": 100,
        "size_bytes": 337,
        "created_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-20T09:00:00Z",
        "finished_at": "2026-11-20T09:00:00Z",
        "summary": {
            "already_imported": False,
            "sources_added": 0,
            "sources_matched": 0,
            "sources_refused": [],
            "subscriptions_created": 0,
            "subscriptions_matched": 0,
            "subscriptions_paused_by_plan": 0,
            "runs_created": 0,
            "runs_matched": 0,
            "runs_skipped_unfinished": 0,
            "run_items_created": 0,
            "content_states_created": 0,
            "content_states_updated": 0,
            "checksum": "26bf0ec82fcfcc60b1f99d7199a40ce3338968c9e1dd0b4711297df88cadeadd",
        },
        "error": None,
    },
    "GET /api/v1/import/jobs/{job_id} #job": {
        "id": 1,
        "status": "done",
        "progress_percent": 100,
        "size_bytes": 337,
        "created_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-20T09:00:00Z",
        "finished_at": "2026-11-20T09:00:00Z",
        "summary": {
            "already_imported": False,
            "sources_added": 0,
            "sources_matched": 0,
            "sources_refused": [],
            "subscriptions_created": 0,
            "subscriptions_matched": 0,
            "subscriptions_paused_by_plan": 0,
            "runs_created": 0,
            "runs_matched": 0,
            "runs_skipped_unfinished": 0,
            "run_items_created": 0,
            "content_states_created": 0,
            "content_states_updated": 0,
            "checksum": "26bf0ec82fcfcc60b1f99d7199a40ce3338968c9e1dd0b4711297df88cadeadd",
        },
        "error": None,
    },
    "POST /api/v1/transfer/codes #saved": {
        "id": 1,
        "code": "tx_23d028eae013_boJf2A1Ai1One_02Py9a_adO9GQXVmplefdiNayZZzU",
        "scope": "saved",
        "expires_at": "2026-11-20T09:15:00Z",
    },
    "POST /api/v1/transfer/redeem #redeem": {
        "format": "tidings-export@1",
        "exported_at": "2026-11-20T09:00:00+00:00",
        "instance": {"url": "http://127.0.0.1:8000", "software": "tidings"},
        "scope": "saved",
        "account": {"id": 1, "email": "demo@tidings.local"},
        "preferences": {"ui_locale": "en", "timezone": "Europe/Berlin", "locale_mode": "manual"},
        "folders": [],
        "sources": [
            {
                "id": 1,
                "type": "feed",
                "config": {"local_file": True},
                "url": "",
                "title": "Model Notes",
                "in_library": True,
                "label": "Model Notes",
                "folder": "",
            },
            {
                "id": 2,
                "type": "feed",
                "config": {"local_file": True},
                "url": "",
                "title": "Engineering Weekly",
                "in_library": True,
                "label": "Engineering Weekly",
                "folder": "",
            },
        ],
        "subscriptions": [
            {
                "name": "AI Daily",
                "topic": "Artificial intelligence and machine learning",
                "interests": ["AI", "LLM"],
                "negative_keywords": [],
                "min_score": 60,
                "max_items": 20,
                "content_window_hours": 168,
                "redelivery": "cooldown",
                "cooldown_days": 7,
                "cron": "0 8 * * *",
                "timezone": "UTC",
                "run_at": None,
                "language_mode": "follow_ui",
                "output_locale": "",
                "summaries_enabled": True,
                "narrative_enabled": True,
                "tone": "neutral",
                "reading_levels": [],
                "sections": [],
                "email_enabled": False,
                "email_to": "",
                "email_subject": "",
                "status": "active",
                "paused_reason": "",
                "created_at": "2026-11-20T09:00:00+00:00",
                "deleted_at": None,
                "id": 1,
                "webhook_url": "",
                "sources": [
                    {"source": 1, "enabled": True, "weight": 1.0},
                    {"source": 2, "enabled": True, "weight": 1.0},
                ],
            }
        ],
        "runs": [
            {
                "id": 1,
                "subscription": 1,
                "status": "succeeded",
                "trigger": "manual",
                "scheduled_at": "2026-11-20T09:00:00+00:00",
                "started_at": "2026-11-20T09:00:00+00:00",
                "finished_at": "2026-11-20T09:00:00.054000+00:00",
                "output_locale": "en",
                "narrative_md": "**Agents that ask before "
                "acting: a "
                "tool-permission pattern "
                "for LLM workflows** "
                "leads this issue of AI "
                "Daily, from Model "
                "Notes.\n"
                "\n"
                "Letting an LLM agent "
                "call tools freely is "
                "fast to prototype and "
                "risky to ship. We "
                "describe a three-tier "
                "permission model, read, "
                "draft and commit, that "
                "kept our internal agents "
                "useful while requiring "
                "human confirmation only "
                "for actions that change "
                "shared state.\n"
                "\n"
                "Also in this issue:\n"
                "- What it actually costs "
                "to serve a 70B language "
                "model at 40 requests per "
                "second\n"
                "- Open-weight LLM "
                "releases now ship with "
                "eval cards: what to read "
                "first\n"
                "- Quantizing a small "
                "language model to 4 bits "
                "for laptop inference\n"
                "\n"
                "Sources:\n"
                "1. [Agents that ask "
                "before acting: a "
                "tool-permission pattern "
                "for LLM "
                "workflows](https://ai-notes.example/2026/agent-tool-permission-tiers)\n"
                "2. [What it actually "
                "costs to serve a 70B "
                "language model at 40 "
                "requests per "
                "second](https://ai-notes.example/2026/cost-of-serving-70b-model)\n"
                "3. [Open-weight LLM "
                "releases now ship with "
                "eval cards: what to read "
                "first](https://ai-notes.example/2026/open-weight-llm-eval-cards)\n"
                "4. [Quantizing a small "
                "language model to 4 bits "
                "for laptop "
                "inference](https://ai-notes.example/2026/4-bit-quantization-laptop)",
                "narrative_generator": "template",
                "candidates_count": 40,
                "selected_count": 4,
                "delivered_count": 4,
                "dedup_skipped_count": 0,
                "redelivered_count": 0,
                "empty_reason": "",
                "error": "",
                "error_code": "",
                "items": [
                    {
                        "title": "Agents that ask "
                        "before acting: a "
                        "tool-permission "
                        "pattern for LLM "
                        "workflows",
                        "url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                        "summary": "Letting an LLM "
                        "agent call tools "
                        "freely is fast to "
                        "prototype and "
                        "risky to ship. We "
                        "describe a "
                        "three-tier "
                        "permission model, "
                        "read, draft and "
                        "commit, that kept "
                        "our internal "
                        "agents useful "
                        "while requiring "
                        "human confirmation "
                        "only for actions "
                        "that change shared "
                        "state.",
                        "summary_generator": "extractive",
                        "reason": "matches LLM, agents "
                        "in the title; "
                        "source: Model "
                        "Notes; stands out "
                        "for: has headings, "
                        "lists; published 19 "
                        "Nov 2026, 11:00 UTC",
                        "relevance": 100,
                        "overall": 81,
                        "rank": 1,
                        "source_name": "Model Notes",
                        "published_at": "2026-11-19T11:00:00+00:00",
                        "redelivered": False,
                        "delivered_at": "2026-11-20T09:00:00+00:00",
                        "canonical_url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                    }
                ],
            }
        ],
        "content_states": [
            {
                "first_delivered_at": "2026-11-20T09:00:00+00:00",
                "last_delivered_at": "2026-11-20T09:00:00+00:00",
                "delivered_count": 1,
                "opened_at": "2026-11-20T09:00:00+00:00",
                "read_at": "2026-11-20T09:00:00+00:00",
                "saved_at": "2026-11-20T09:00:00+00:00",
                "not_interested_at": None,
                "canonical_url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                "title": "Agents that ask "
                "before acting: a "
                "tool-permission "
                "pattern for LLM "
                "workflows",
                "last_run": 1,
            }
        ],
    },
    "POST /api/v1/transfer/pull #pull": {
        "id": 2,
        "status": "done",
        "progress_percent": 100,
        "size_bytes": 5124,
        "created_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-20T09:00:00Z",
        "finished_at": "2026-11-20T09:00:00Z",
        "summary": {
            "already_imported": False,
            "sources_added": 0,
            "sources_matched": 0,
            "sources_refused": [
                {
                    "id": 1,
                    "type": "feed",
                    "url": "",
                    "reason": "A feed the "
                    "exporting "
                    "server read "
                    "from a "
                    "local file: "
                    "it cannot "
                    "move to "
                    "another "
                    "place.",
                },
                {
                    "id": 2,
                    "type": "feed",
                    "url": "",
                    "reason": "A feed the "
                    "exporting "
                    "server read "
                    "from a "
                    "local file: "
                    "it cannot "
                    "move to "
                    "another "
                    "place.",
                },
            ],
            "subscriptions_created": 1,
            "subscriptions_matched": 0,
            "subscriptions_paused_by_plan": 0,
            "runs_created": 1,
            "runs_matched": 0,
            "runs_skipped_unfinished": 0,
            "run_items_created": 1,
            "content_states_created": 0,
            "content_states_updated": 0,
            "checksum": "43c628d0ba52ffdea7a360cdef2db2f065639eea4a705bdae164b8dc4580ab9a",
        },
        "error": None,
    },
    "POST /api/v1/transfer/codes #everything": {
        "id": 2,
        "code": "tx_863a837b3fce_itZLBQqT3f5joQIa-6zEI3uCQA383NxzUCd_nIBzbrM",
        "scope": "everything",
        "expires_at": "2026-11-20T09:15:00Z",
    },
    "DELETE /api/v1/transfer/codes/{code_id} #revoke": None,
}
