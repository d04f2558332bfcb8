"""Answers of `digests.api_examples`, recorded from the app by
tests/config/test_api_examples.py (RECORD_API_EXAMPLES=1); do not edit."""

RESPONSES = {
    "GET /api/v1/subscriptions #first": {
        "next": "http://testserver/api/v1/subscriptions?cursor=cD02&limit=2",
        "previous": None,
        "results": [
            {
                "id": 7,
                "name": "PostgreSQL 18",
                "topic": "",
                "interests": [],
                "negative_keywords": [],
                "source_ids": [9],
                "source_weights": {"9": 1.0},
                "min_score": 0,
                "max_items": 1,
                "content_window_hours": 2160,
                "redelivery": "cooldown",
                "cooldown_days": 1,
                "cron": "",
                "timezone": "Europe/Berlin",
                "run_at": "2026-11-21T07:00:00Z",
                "language_mode": "follow_ui",
                "output_locale": "",
                "summaries_enabled": True,
                "narrative_enabled": False,
                "tone": "neutral",
                "reading_levels": [],
                "sections": [],
                "email_enabled": False,
                "email_to": "",
                "email_subject": "",
                "email_recipient": "demo@tidings.local",
                "email_error": "",
                "email_error_at": None,
                "webhook": None,
                "status": "active",
                "paused_reason": "",
                "next_run_at": "2026-11-21T07:00:00Z",
                "last_run_at": None,
                "created_at": "2026-11-20T09:00:00Z",
            },
            {
                "id": 6,
                "name": "Watch: News blog",
                "topic": "",
                "interests": [],
                "negative_keywords": [],
                "source_ids": [8],
                "source_weights": {"8": 1.0},
                "min_score": 0,
                "max_items": 30,
                "content_window_hours": 2160,
                "redelivery": "never",
                "cooldown_days": 7,
                "cron": "",
                "timezone": "Europe/Berlin",
                "run_at": None,
                "language_mode": "follow_ui",
                "output_locale": "",
                "summaries_enabled": True,
                "narrative_enabled": False,
                "tone": "neutral",
                "reading_levels": [],
                "sections": [],
                "email_enabled": True,
                "email_to": "",
                "email_subject": "",
                "email_recipient": "demo@tidings.local",
                "email_error": "",
                "email_error_at": None,
                "webhook": None,
                "status": "active",
                "paused_reason": "",
                "next_run_at": None,
                "last_run_at": None,
                "created_at": "2026-11-20T09:00:00Z",
            },
        ],
    },
    "POST /api/v1/subscriptions #weekdays": {
        "id": 8,
        "name": "Databases",
        "topic": "",
        "interests": ["PostgreSQL", "SQLite"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 20,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 8 * * 1-5",
        "timezone": "Europe/Berlin",
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
        "email_recipient": "demo@tidings.local",
        "email_error": "",
        "email_error_at": None,
        "webhook": None,
        "status": "active",
        "paused_reason": "",
        "next_run_at": "2026-11-23T07:00:00Z",
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "GET /api/v1/subscriptions/{subscription_id} #one": {
        "id": 1,
        "name": "AI Daily",
        "topic": "Artificial intelligence and machine learning",
        "interests": ["AI", "LLM"],
        "negative_keywords": [],
        "source_ids": [1, 2],
        "source_weights": {"1": 1.0, "2": 1.0, "3": 1.0, "4": 1.0, "5": 1.0},
        "min_score": 40,
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
        "email_recipient": "demo@tidings.local",
        "email_error": "",
        "email_error_at": None,
        "webhook": None,
        "status": "active",
        "paused_reason": "",
        "next_run_at": "2026-11-21T08:00:00Z",
        "last_run_at": "2026-11-20T09:00:00Z",
        "created_at": "2026-11-20T09:00:00Z",
    },
    "PATCH /api/v1/subscriptions/{subscription_id} #webhook": {
        "id": 8,
        "name": "Databases",
        "topic": "",
        "interests": ["PostgreSQL", "SQLite"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 10,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 8 * * 1-5",
        "timezone": "Europe/Berlin",
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
        "email_recipient": "demo@tidings.local",
        "email_error": "",
        "email_error_at": None,
        "webhook": {
            "url": "http://hooks.example/hooks/tidings",
            "enabled": True,
            "disabled_reason": "",
            "consecutive_failures": 0,
            "secret_hint": "whsec_fvBF…",
        },
        "webhook_secret": "whsec_fvBFx1NtH04nvGn+0K6IGlYRa4nQF4w9jaaHcIJjLXc=",
        "status": "active",
        "paused_reason": "",
        "next_run_at": "2026-11-23T07:00:00Z",
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "POST /api/v1/subscriptions/{subscription_id}/pause #pause": {
        "id": 8,
        "name": "Databases",
        "topic": "",
        "interests": ["PostgreSQL", "SQLite"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 10,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 8 * * 1-5",
        "timezone": "Europe/Berlin",
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
        "email_recipient": "demo@tidings.local",
        "email_error": "",
        "email_error_at": None,
        "webhook": {
            "url": "http://hooks.example/hooks/tidings",
            "enabled": True,
            "disabled_reason": "",
            "consecutive_failures": 0,
            "secret_hint": "whsec_fvBF…",
        },
        "status": "paused",
        "paused_reason": "",
        "next_run_at": None,
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "POST /api/v1/subscriptions/{subscription_id}/resume #resume": {
        "id": 8,
        "name": "Databases",
        "topic": "",
        "interests": ["PostgreSQL", "SQLite"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 10,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 8 * * 1-5",
        "timezone": "Europe/Berlin",
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
        "email_recipient": "demo@tidings.local",
        "email_error": "",
        "email_error_at": None,
        "webhook": {
            "url": "http://hooks.example/hooks/tidings",
            "enabled": True,
            "disabled_reason": "",
            "consecutive_failures": 0,
            "secret_hint": "whsec_fvBF…",
        },
        "status": "active",
        "paused_reason": "",
        "next_run_at": "2026-11-23T07:00:00Z",
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "GET /api/v1/subscriptions/{subscription_id}/preview #preview": {
        "candidates_count": 40,
        "above_min_score": 4,
        "dedup_skipped": 4,
        "selected": [],
        "empty_reason": "Everything that matched was already delivered to you.",
        "interests": ["AI", "LLM"],
        "advice": "Everything that "
        "matches was "
        "already "
        "delivered to "
        "you; new items "
        "come as your "
        "sources publish "
        "them.",
    },
    "POST /api/v1/subscriptions/{subscription_id}/preview #post": {
        "candidates_count": 40,
        "above_min_score": 4,
        "dedup_skipped": 4,
        "selected": [],
        "empty_reason": "Everything that matched was already delivered to you.",
        "interests": ["AI", "LLM"],
        "advice": "Everything that "
        "matches was "
        "already delivered "
        "to you; new items "
        "come as your "
        "sources publish "
        "them.",
    },
    "POST /api/v1/subscriptions/preview #new": {
        "candidates_count": 3,
        "above_min_score": 3,
        "dedup_skipped": 1,
        "selected": [
            {
                "item_id": 15,
                "title": "Partial & covering "
                "indexes: shaving 90 ms "
                "off our slowest "
                "PostgreSQL query",
                "url": "https://eng-weekly.example/2026/postgresql-partial-covering-indexes",
                "source_name": "Engineering Weekly",
                "published_at": "2026-11-17T08:00:00Z",
                "relevance": 98,
                "overall": 74,
                "reason": "matches PostgreSQL in "
                "the title; source: "
                "Engineering Weekly; "
                "stands out for: has "
                "headings, code; "
                "published 17 Nov 2026, "
                "08:00 UTC",
                "redelivery": False,
            },
            {
                "item_id": 11,
                "title": "Django migrations on a "
                "400-million-row table "
                "without a maintenance "
                "window",
                "url": "https://eng-weekly.example/2026/django-migrations-400m-rows",
                "source_name": "Engineering Weekly",
                "published_at": "2026-11-19T22:00:00Z",
                "relevance": 63,
                "overall": 66,
                "reason": "matches PostgreSQL in "
                "the summary; source: "
                "Engineering Weekly; "
                "stands out for: has "
                "headings, code, lists; "
                "published 19 Nov 2026, "
                "22:00 UTC",
                "redelivery": False,
            },
        ],
        "empty_reason": "",
        "interests": ["PostgreSQL"],
        "advice": "",
    },
    "POST /api/v1/subscriptions/{subscription_id}/run #now": {
        "id": 6,
        "subscription_id": 1,
        "status": "succeeded",
        "trigger": "manual",
        "scheduled_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-20T09:00:00Z",
        "finished_at": "2026-11-20T09:00:00.051000Z",
        "output_locale": "en",
        "candidates_count": 40,
        "selected_count": 4,
        "delivered_count": 0,
        "dedup_skipped_count": 4,
        "redelivered_count": 0,
        "billing_breakdown": {
            "operations": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
            "cache_hits": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
            "total": 0,
        },
        "credits_charged": 0,
        "credits_refunded": 0,
        "empty_reason": "Everything that matched was already delivered to you.",
        "error": "",
        "error_code": "",
    },
    "GET /api/v1/subscriptions/{subscription_id}/runs #runs": {
        "next": "http://testserver/api/v1/subscriptions/1/runs?cursor=cD02&limit=1",
        "previous": None,
        "results": [
            {
                "id": 6,
                "subscription_id": 1,
                "status": "succeeded",
                "trigger": "manual",
                "scheduled_at": "2026-11-20T09:00:00Z",
                "started_at": "2026-11-20T09:00:00Z",
                "finished_at": "2026-11-20T09:00:00.051000Z",
                "output_locale": "en",
                "candidates_count": 40,
                "selected_count": 4,
                "delivered_count": 0,
                "dedup_skipped_count": 4,
                "redelivered_count": 0,
                "billing_breakdown": {
                    "operations": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
                    "cache_hits": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
                    "total": 0,
                },
                "credits_charged": 0,
                "credits_refunded": 0,
                "empty_reason": "Everything that matched was already delivered to you.",
                "error": "",
                "error_code": "",
            }
        ],
    },
    "GET /api/v1/runs/{run_id} #brief": {
        "id": 1,
        "subscription_id": 1,
        "status": "succeeded",
        "trigger": "manual",
        "scheduled_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-20T09:00:00Z",
        "finished_at": "2026-11-20T09:00:00.054000Z",
        "output_locale": "en",
        "candidates_count": 40,
        "selected_count": 4,
        "delivered_count": 4,
        "dedup_skipped_count": 0,
        "redelivered_count": 0,
        "billing_breakdown": {
            "operations": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
            "cache_hits": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
            "total": 0,
        },
        "credits_charged": 0,
        "credits_refunded": 0,
        "empty_reason": "",
        "error": "",
        "error_code": "",
        "narrative_md": "**Agents that ask before acting: a "
        "tool-permission pattern for LLM "
        "workflows** leads this issue of AI "
        "Daily, from Model Notes.\n"
        "\n"
        "Letting an LLM agent call tools freely "
        "is fast to prototype and risky to "
        "ship. We describe a three-tier "
        "permission model, read, draft and "
        "commit, that kept our internal agents "
        "useful while requiring human "
        "confirmation only for actions that "
        "change shared state.\n"
        "\n"
        "Also in this issue:\n"
        "- What it actually costs to serve a "
        "70B language model at 40 requests per "
        "second\n"
        "- Open-weight LLM releases now ship "
        "with eval cards: what to read first\n"
        "- Quantizing a small language model to "
        "4 bits for laptop inference\n"
        "\n"
        "Sources:\n"
        "1. [Agents that ask before acting: a "
        "tool-permission pattern for LLM "
        "workflows](https://ai-notes.example/2026/agent-tool-permission-tiers)\n"
        "2. [What it actually costs to serve a "
        "70B language model at 40 requests per "
        "second](https://ai-notes.example/2026/cost-of-serving-70b-model)\n"
        "3. [Open-weight LLM releases now ship "
        "with eval cards: what to read "
        "first](https://ai-notes.example/2026/open-weight-llm-eval-cards)\n"
        "4. [Quantizing a small language model "
        "to 4 bits for laptop "
        "inference](https://ai-notes.example/2026/4-bit-quantization-laptop)",
        "narrative_generator": "template",
        "items": [
            {
                "id": 1,
                "rank": 1,
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
                "summary_generator": "extractive",
                "source_name": "Model Notes",
                "reason": "matches LLM, agents in the title; "
                "source: Model Notes; stands out "
                "for: has headings, lists; "
                "published 19 Nov 2026, 11:00 UTC",
                "overall": 81,
            },
            {
                "id": 2,
                "rank": 2,
                "title": "What it actually costs to serve a "
                "70B language model at 40 requests "
                "per second",
                "url": "https://ai-notes.example/2026/cost-of-serving-70b-model",
                "summary": "We priced out serving a "
                "70-billion-parameter open-weight "
                "language model for an internal "
                "assistant that peaks at about 40 "
                "requests per second. GPU hours "
                "dominate, but batching, context "
                "length and idle capacity moved "
                "the monthly inference bill more "
                "than the choice of hardware did.",
                "summary_generator": "extractive",
                "source_name": "Model Notes",
                "reason": "matches language model, inference "
                "in the title; shares weights with "
                "your best matches; source: Model "
                "Notes; stands out for: has "
                "headings, lists; published 20 Nov "
                "2026, 04:00 UTC",
                "overall": 68,
            },
        ],
        "deliveries": [],
    },
    "POST /api/v1/runs/{run_id}/retry #failed": {
        "id": 2,
        "subscription_id": 4,
        "status": "succeeded",
        "trigger": "manual",
        "scheduled_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-20T09:00:00Z",
        "finished_at": "2026-11-20T09:00:00.038000Z",
        "output_locale": "en",
        "candidates_count": 8,
        "selected_count": 4,
        "delivered_count": 0,
        "dedup_skipped_count": 4,
        "redelivered_count": 0,
        "billing_breakdown": {
            "operations": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
            "cache_hits": {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0},
            "total": 0,
        },
        "credits_charged": 0,
        "credits_refunded": 0,
        "empty_reason": "Everything that matched was already delivered to you.",
        "error": "",
        "error_code": "",
    },
    "POST /api/v1/runs/{run_id}/retry #succeeded": {
        "error": {
            "code": "conflict",
            "message": "Only a failed run can be retried; this run is succeeded.",
            "fields": {"status": "Only a failed run can be retried; this run is succeeded."},
            "field_codes": {"status": "refused"},
        }
    },
    "POST /api/v1/subscriptions/{subscription_id}/webhook/test #test": {
        "id": 1,
        "run_id": None,
        "channel": "webhook",
        "event": "test",
        "recipient": "http://hooks.example/hooks/tidings",
        "status": "sent",
        "gave_up": False,
        "attempts": 1,
        "next_attempt_at": None,
        "last_attempt_at": "2026-11-20T09:00:00Z",
        "sent_at": "2026-11-20T09:00:00Z",
        "response_code": 200,
        "last_error": "",
        "created_at": "2026-11-20T09:00:00Z",
    },
    "POST /api/v1/subscriptions/{subscription_id}/webhook/rotate-secret #rotate": {
        "webhook_secret": "whsec_0L+6l8ER/zZffNBq3LZqCewCH6Eaut51F2n0yCuZNd4="
    },
    "POST /api/v1/subscriptions/{subscription_id}/webhook/disable #disable": {
        "url": "http://hooks.example/hooks/tidings",
        "enabled": False,
        "disabled_reason": "Turned off by you.",
        "consecutive_failures": 0,
        "secret_hint": "whsec_0L+6…",
    },
    "POST /api/v1/subscriptions/{subscription_id}/webhook/enable #enable": {
        "url": "http://hooks.example/hooks/tidings",
        "enabled": True,
        "disabled_reason": "",
        "consecutive_failures": 0,
        "secret_hint": "whsec_0L+6…",
    },
    "GET /api/v1/subscriptions/{subscription_id}/deliveries #deliveries": {
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 1,
                "run_id": None,
                "channel": "webhook",
                "event": "test",
                "recipient": "http://hooks.example/hooks/tidings",
                "status": "sent",
                "gave_up": False,
                "attempts": 1,
                "next_attempt_at": None,
                "last_attempt_at": "2026-11-20T09:00:00Z",
                "sent_at": "2026-11-20T09:00:00Z",
                "response_code": 200,
                "last_error": "",
                "created_at": "2026-11-20T09:00:00Z",
            }
        ],
    },
    "POST /api/v1/deliveries/{delivery_id}/retry #sent": {
        "error": {
            "code": "conflict",
            "message": "This delivery was sent; sending it again would send it twice.",
            "fields": {"status": "This delivery was sent; sending it again would send it twice."},
            "field_codes": {"status": "refused"},
        }
    },
    "POST /api/v1/apprise-targets #chat": {
        "id": 1,
        "label": "Team chat",
        "service": "json",
        "hint": "json://hooks.example/…",
        "created_at": "2026-11-20T09:00:00Z",
    },
    "GET /api/v1/apprise-targets #targets": {
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 1,
                "label": "Team chat",
                "service": "json",
                "hint": "json://hooks.example/…",
                "created_at": "2026-11-20T09:00:00Z",
            }
        ],
    },
    "POST /api/v1/apprise-targets/{target_id}/test #test": {"sent": True, "error": ""},
    "PUT /api/v1/subscriptions/{subscription_id}/apprise-targets #route": {"targets": [1]},
    "POST /api/v1/interests #topic": {
        "interests": ["Databases", "SQL"],
        "negative_keywords": [],
        "source": "words",
    },
    "GET /api/v1/schedule/preview #weekdays": {
        "next_runs": ["2026-11-23T07:00:00Z", "2026-11-24T07:00:00Z"],
        "next_runs_display": ["23 Nov 2026, 08:00 CET", "24 Nov 2026, 08:00 CET"],
        "description": "Weekdays at 08:00 (Europe/Berlin)",
    },
    "POST /api/v1/watches/preview #price": {
        "text": "Pricing\n"
        "The Team plan costs 12 EUR a month, billed "
        "yearly.\n"
        "PostgreSQL 18 released\n"
        "SQLite adds a new JSON operator\n"
        "Asynchronous I/O, faster upgrades and "
        "better monitoring arrive in this release, "
        "which the team has worked on for a year. "
        "Upgrading is quick with pg_upgrade.",
        "compared": "Pricing\n"
        "The Team plan costs 12 EUR a month, "
        "billed yearly.\n"
        "PostgreSQL 18 released\n"
        "SQLite adds a new JSON operator\n"
        "Asynchronous I/O, faster upgrades and "
        "better monitoring arrive in this "
        "release, which the team has worked on "
        "for a year. Upgrading is quick with "
        "pg_upgrade.",
        "number": "12",
    },
    "POST /api/v1/watches #price": {
        "id": 1,
        "name": "Team plan price",
        "url": "http://shop.example/pricing",
        "render": "http",
        "selector_kind": "",
        "selector": "",
        "ignore_text": [],
        "ignore_regex": [],
        "ignore_numbers": False,
        "trigger": "any",
        "trigger_text": "",
        "trigger_number": None,
        "check_interval_minutes": 60,
        "start_at": None,
        "end_at": None,
        "status": "active",
        "next_check_at": "2026-11-20T10:00:00Z",
        "last_checked_at": "2026-11-20T09:00:00Z",
        "error_count": 0,
        "last_error": "",
        "notifier_id": 9,
    },
    "GET /api/v1/watches #watches": {
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 1,
                "name": "Team plan price",
                "url": "http://shop.example/pricing",
                "render": "http",
                "selector_kind": "",
                "selector": "",
                "ignore_text": [],
                "ignore_regex": [],
                "ignore_numbers": False,
                "trigger": "any",
                "trigger_text": "",
                "trigger_number": None,
                "check_interval_minutes": 60,
                "start_at": None,
                "end_at": None,
                "status": "active",
                "next_check_at": "2026-11-20T10:00:00Z",
                "last_checked_at": "2026-11-20T09:00:00Z",
                "error_count": 0,
                "last_error": "",
                "notifier_id": 9,
            }
        ],
    },
    "GET /api/v1/watches/{watch_id} #watch": {
        "id": 1,
        "name": "Team plan price",
        "url": "http://shop.example/pricing",
        "render": "http",
        "selector_kind": "",
        "selector": "",
        "ignore_text": [],
        "ignore_regex": [],
        "ignore_numbers": False,
        "trigger": "any",
        "trigger_text": "",
        "trigger_number": None,
        "check_interval_minutes": 60,
        "start_at": None,
        "end_at": None,
        "status": "active",
        "next_check_at": "2026-11-20T10:00:00Z",
        "last_checked_at": "2026-11-20T09:00:00Z",
        "error_count": 0,
        "last_error": "",
        "notifier_id": 9,
        "history": [
            {
                "checked_at": "2026-11-20T09:00:00Z",
                "notified": False,
                "added_lines": 0,
                "removed_lines": 0,
                "baseline": False,
                "diff": "",
            }
        ],
    },
    "PATCH /api/v1/watches/{watch_id} #daily": {
        "id": 1,
        "name": "Team plan price",
        "url": "http://shop.example/pricing",
        "render": "http",
        "selector_kind": "",
        "selector": "",
        "ignore_text": [],
        "ignore_regex": [],
        "ignore_numbers": False,
        "trigger": "any",
        "trigger_text": "",
        "trigger_number": None,
        "check_interval_minutes": 1440,
        "start_at": None,
        "end_at": None,
        "status": "active",
        "next_check_at": "2026-11-21T09:00:00Z",
        "last_checked_at": "2026-11-20T09:00:00Z",
        "error_count": 0,
        "last_error": "",
        "notifier_id": 9,
    },
    "POST /api/v1/watches/{watch_id}/pause #pause": {
        "id": 1,
        "name": "Team plan price",
        "url": "http://shop.example/pricing",
        "render": "http",
        "selector_kind": "",
        "selector": "",
        "ignore_text": [],
        "ignore_regex": [],
        "ignore_numbers": False,
        "trigger": "any",
        "trigger_text": "",
        "trigger_number": None,
        "check_interval_minutes": 1440,
        "start_at": None,
        "end_at": None,
        "status": "paused",
        "next_check_at": None,
        "last_checked_at": "2026-11-20T09:00:00Z",
        "error_count": 0,
        "last_error": "",
        "notifier_id": 9,
    },
    "POST /api/v1/watches/{watch_id}/resume #resume": {
        "id": 1,
        "name": "Team plan price",
        "url": "http://shop.example/pricing",
        "render": "http",
        "selector_kind": "",
        "selector": "",
        "ignore_text": [],
        "ignore_regex": [],
        "ignore_numbers": False,
        "trigger": "any",
        "trigger_text": "",
        "trigger_number": None,
        "check_interval_minutes": 1440,
        "start_at": None,
        "end_at": None,
        "status": "active",
        "next_check_at": "2026-11-21T09:00:00Z",
        "last_checked_at": "2026-11-20T09:00:00Z",
        "error_count": 0,
        "last_error": "",
        "notifier_id": 9,
    },
    "GET /api/v1/admin/stats #stats": {
        "generated_at": "2026-11-20T09:00:00Z",
        "users": {"total": 1, "active": 1, "staff": 1, "joined_7d": 1, "signed_in_30d": 0},
        "subscriptions": {"active": 8, "paused": 1, "completed": 0, "total": 9},
        "runs": {
            "last_24h": {"pending": 0, "running": 0, "succeeded": 6, "failed": 0},
            "all_time": {"pending": 0, "running": 0, "succeeded": 6, "failed": 0},
        },
        "fetch_health": {
            "sources": {"active": 18, "degraded": 0, "disabled": 0, "failing": 0, "total": 18},
            "fetches_24h": {"ok": 8, "not_modified": 0, "error": 0},
        },
        "llm": {
            "tokens_today": 0,
            "daily_token_budget": 2000000,
            "calls_24h": 0,
            "calls_30d": 0,
            "failed_30d": 0,
            "input_tokens_30d": 0,
            "output_tokens_30d": 0,
        },
    },
    "GET /api/v1/admin/cache/stats #stats": {
        "hits": 0,
        "misses": 0,
        "requests": 0,
        "tokens_saved": 0,
        "unique_keys": 0,
        "ready": 0,
        "expired": 0,
        "pending": 0,
        "failed": 0,
        "hit_rate": None,
        "by_kind": {
            "interests": {
                "hits": 0,
                "misses": 0,
                "requests": 0,
                "hit_rate": None,
                "tokens_saved": 0,
                "unique_keys": 0,
                "ready": 0,
                "expired": 0,
                "pending": 0,
                "failed": 0,
            },
            "narrative": {
                "hits": 0,
                "misses": 0,
                "requests": 0,
                "hit_rate": None,
                "tokens_saved": 0,
                "unique_keys": 0,
                "ready": 0,
                "expired": 0,
                "pending": 0,
                "failed": 0,
            },
            "relevance": {
                "hits": 0,
                "misses": 0,
                "requests": 0,
                "hit_rate": None,
                "tokens_saved": 0,
                "unique_keys": 0,
                "ready": 0,
                "expired": 0,
                "pending": 0,
                "failed": 0,
            },
            "summary": {
                "hits": 0,
                "misses": 0,
                "requests": 0,
                "hit_rate": None,
                "tokens_saved": 0,
                "unique_keys": 0,
                "ready": 0,
                "expired": 0,
                "pending": 0,
                "failed": 0,
            },
        },
    },
    "GET /api/v1/admin/cache/source-sets #sets": {
        "subscriptions": [
            {
                "hash": "b726eed184cea30d5a57fb645f77527e4232bec085e24e8d29a6e3b2c84c2db1",
                "sources": 5,
                "subscriptions": 3,
                "users": 1,
            },
            {
                "hash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "sources": 0,
                "subscriptions": 2,
                "users": 1,
            },
        ],
        "libraries": [
            {
                "hash": "97e2b94335f7190c07ec7bc6694ea201a4159991b8d720416a90c403ecc9312b",
                "sources": 18,
                "users": 1,
            }
        ],
        "distinct_subscription_hashes": 4,
        "distinct_library_hashes": 1,
    },
    "DELETE /api/v1/admin/cache/entries #expired": {"deleted": 0},
    "DELETE /api/v1/watches/{watch_id} #stop": None,
    "DELETE /api/v1/apprise-targets/{target_id} #delete": None,
    "DELETE /api/v1/subscriptions/{subscription_id} #delete": None,
}
