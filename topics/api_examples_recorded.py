"""Answers of `topics.api_examples`, recorded from the app by
tests/config/test_api_examples.py (RECORD_API_EXAMPLES=1); do not edit."""

RESPONSES = {
    "POST /api/v1/subscriptions #to-publish": {
        "id": 10,
        "name": "Rust weekly",
        "topic": "",
        "interests": ["Rust"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 20,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 9 * * 1",
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
        "next_run_at": "2026-11-23T09:00:00Z",
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "POST /api/v1/topics #publish": {
        "slug": "rust-weekly",
        "title": "Rust weekly",
        "description": "The week in Rust, every Monday.",
        "locale": "en",
        "cron": "0 9 * * 1",
        "timezone": "UTC",
        "follower_count": 0,
        "trending_score": 0.0,
        "quality_score": 0.0,
        "last_edition_at": None,
        "url": "http://127.0.0.1:8000/topics/rust-weekly",
        "feed_url": "http://127.0.0.1:8000/topics/rust-weekly/feed",
        "visibility": "public",
        "status": "active",
    },
    "GET /api/v1/topics #topics": {
        "next": None,
        "previous": None,
        "results": [
            {
                "slug": "ai-daily",
                "title": "AI Daily",
                "description": "Models, inference and agents: "
                "the day's best AI reading, with "
                "sources.",
                "locale": "en",
                "cron": "0 8 * * *",
                "timezone": "UTC",
                "follower_count": 0,
                "trending_score": 0.0,
                "quality_score": 0.0,
                "last_edition_at": "2026-11-20T09:00:00Z",
                "url": "http://127.0.0.1:8000/topics/ai-daily",
                "feed_url": "http://127.0.0.1:8000/topics/ai-daily/feed",
                "visibility": "public",
                "status": "active",
            },
            {
                "slug": "rust-weekly",
                "title": "Rust weekly",
                "description": "The week in Rust, every Monday.",
                "locale": "en",
                "cron": "0 9 * * 1",
                "timezone": "UTC",
                "follower_count": 0,
                "trending_score": 0.0,
                "quality_score": 0.0,
                "last_edition_at": None,
                "url": "http://127.0.0.1:8000/topics/rust-weekly",
                "feed_url": "http://127.0.0.1:8000/topics/rust-weekly/feed",
                "visibility": "public",
                "status": "active",
            },
        ],
    },
    "PATCH /api/v1/topics/{slug} #describe": {
        "slug": "rust-weekly",
        "title": "Rust weekly",
        "description": "The week in Rust, on Mondays at 09:00 UTC.",
        "locale": "en",
        "cron": "0 9 * * 1",
        "timezone": "UTC",
        "follower_count": 0,
        "trending_score": 0.0,
        "quality_score": 0.0,
        "last_edition_at": None,
        "url": "http://127.0.0.1:8000/topics/rust-weekly",
        "feed_url": "http://127.0.0.1:8000/topics/rust-weekly/feed",
        "visibility": "public",
        "status": "active",
    },
    "GET /api/v1/public/topics #trending": {
        "next": None,
        "previous": None,
        "results": [
            {
                "slug": "ai-daily",
                "title": "AI Daily",
                "description": "Models, inference and "
                "agents: the day's best "
                "AI reading, with "
                "sources.",
                "locale": "en",
                "cron": "0 8 * * *",
                "timezone": "UTC",
                "follower_count": 0,
                "trending_score": 0.0,
                "quality_score": 0.0,
                "last_edition_at": "2026-11-20T09:00:00Z",
                "url": "http://127.0.0.1:8000/topics/ai-daily",
                "feed_url": "http://127.0.0.1:8000/topics/ai-daily/feed",
            },
            {
                "slug": "rust-weekly",
                "title": "Rust weekly",
                "description": "The week in Rust, on Mondays at 09:00 UTC.",
                "locale": "en",
                "cron": "0 9 * * 1",
                "timezone": "UTC",
                "follower_count": 0,
                "trending_score": 0.0,
                "quality_score": 0.0,
                "last_edition_at": None,
                "url": "http://127.0.0.1:8000/topics/rust-weekly",
                "feed_url": "http://127.0.0.1:8000/topics/rust-weekly/feed",
            },
        ],
    },
    "GET /api/v1/public/topics/{slug} #topic": {
        "slug": "ai-daily",
        "title": "AI Daily",
        "description": "Models, inference and agents: the day's best AI reading, with sources.",
        "locale": "en",
        "cron": "0 8 * * *",
        "timezone": "UTC",
        "follower_count": 0,
        "trending_score": 0.0,
        "quality_score": 0.0,
        "last_edition_at": "2026-11-20T09:00:00Z",
        "url": "http://127.0.0.1:8000/topics/ai-daily",
        "feed_url": "http://127.0.0.1:8000/topics/ai-daily/feed",
        "editions": [
            {
                "id": 1,
                "edition_date": "2026-11-20",
                "published_at": "2026-11-20T09:00:00Z",
                "item_count": 4,
                "url": "http://127.0.0.1:8000/topics/ai-daily/editions/2026-11-20",
            }
        ],
    },
    "GET /api/v1/public/topics/{slug}/editions/{edition_id} #edition": {
        "id": 1,
        "edition_date": "2026-11-20",
        "published_at": "2026-11-20T09:00:00Z",
        "item_count": 4,
        "url": "http://127.0.0.1:8000/topics/ai-daily/editions/2026-11-20",
        "output_locale": "en",
        "narrative_md": "**Agents "
        "that "
        "ask "
        "before "
        "acting: "
        "a "
        "tool-permission "
        "pattern "
        "for LLM "
        "workflows** "
        "leads "
        "this "
        "issue "
        "of AI "
        "Daily, "
        "from "
        "Model "
        "Notes.\n"
        "\n"
        "Letting "
        "an LLM "
        "agent "
        "call "
        "tools "
        "freely "
        "is fast "
        "to "
        "prototype "
        "and "
        "risky "
        "to "
        "ship. "
        "We "
        "describe "
        "a "
        "three-tier "
        "permission "
        "model, "
        "read, "
        "draft "
        "and "
        "commit, "
        "that "
        "kept "
        "our "
        "internal "
        "agents "
        "useful "
        "while "
        "requiring "
        "human "
        "confirmation "
        "only "
        "for "
        "actions "
        "that "
        "change "
        "shared "
        "state.\n"
        "\n"
        "Also in "
        "this "
        "issue:\n"
        "- What "
        "it "
        "actually "
        "costs "
        "to "
        "serve a "
        "70B "
        "language "
        "model "
        "at 40 "
        "requests "
        "per "
        "second\n"
        "- "
        "Open-weight "
        "LLM "
        "releases "
        "now "
        "ship "
        "with "
        "eval "
        "cards: "
        "what to "
        "read "
        "first\n"
        "- "
        "Quantizing "
        "a small "
        "language "
        "model "
        "to 4 "
        "bits "
        "for "
        "laptop "
        "inference\n"
        "\n"
        "Sources:\n"
        "1. "
        "[Agents "
        "that "
        "ask "
        "before "
        "acting: "
        "a "
        "tool-permission "
        "pattern "
        "for LLM "
        "workflows](https://ai-notes.example/2026/agent-tool-permission-tiers)\n"
        "2. "
        "[What "
        "it "
        "actually "
        "costs "
        "to "
        "serve a "
        "70B "
        "language "
        "model "
        "at 40 "
        "requests "
        "per "
        "second](https://ai-notes.example/2026/cost-of-serving-70b-model)\n"
        "3. "
        "[Open-weight "
        "LLM "
        "releases "
        "now "
        "ship "
        "with "
        "eval "
        "cards: "
        "what to "
        "read "
        "first](https://ai-notes.example/2026/open-weight-llm-eval-cards)\n"
        "4. "
        "[Quantizing "
        "a small "
        "language "
        "model "
        "to 4 "
        "bits "
        "for "
        "laptop "
        "inference](https://ai-notes.example/2026/4-bit-quantization-laptop)",
        "items": [
            {
                "rank": 1,
                "title": "Agents "
                "that "
                "ask "
                "before "
                "acting: "
                "a "
                "tool-permission "
                "pattern "
                "for "
                "LLM "
                "workflows",
                "url": "https://ai-notes.example/2026/agent-tool-permission-tiers",
                "summary": "Letting "
                "an "
                "LLM "
                "agent "
                "call "
                "tools "
                "freely "
                "is "
                "fast "
                "to "
                "prototype "
                "and "
                "risky "
                "to "
                "ship. "
                "We "
                "describe "
                "a "
                "three-tier "
                "permission "
                "model, "
                "read, "
                "draft "
                "and "
                "commit, "
                "that "
                "kept "
                "our "
                "internal "
                "agents "
                "useful "
                "while "
                "requiring "
                "human "
                "confirmation "
                "only "
                "for "
                "actions "
                "that "
                "change "
                "shared "
                "state.",
                "source_name": "Model Notes",
                "published_at": "2026-11-19T11:00:00Z",
            },
            {
                "rank": 2,
                "title": "What "
                "it "
                "actually "
                "costs "
                "to "
                "serve "
                "a "
                "70B "
                "language "
                "model "
                "at "
                "40 "
                "requests "
                "per "
                "second",
                "url": "https://ai-notes.example/2026/cost-of-serving-70b-model",
                "summary": "We "
                "priced "
                "out "
                "serving "
                "a "
                "70-billion-parameter "
                "open-weight "
                "language "
                "model "
                "for "
                "an "
                "internal "
                "assistant "
                "that "
                "peaks "
                "at "
                "about "
                "40 "
                "requests "
                "per "
                "second. "
                "GPU "
                "hours "
                "dominate, "
                "but "
                "batching, "
                "context "
                "length "
                "and "
                "idle "
                "capacity "
                "moved "
                "the "
                "monthly "
                "inference "
                "bill "
                "more "
                "than "
                "the "
                "choice "
                "of "
                "hardware "
                "did.",
                "source_name": "Model Notes",
                "published_at": "2026-11-20T04:00:00Z",
            },
        ],
    },
    "POST /api/v1/topics/{slug}/follow #follow": {
        "id": 11,
        "name": "Rust weekly",
        "topic": "",
        "interests": ["Rust"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 20,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 7 * * *",
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
        "next_run_at": "2026-11-21T06:00:00Z",
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "POST /api/v1/topics/{slug}/fork #fork": {
        "id": 12,
        "name": "Rust weekly (fork)",
        "topic": "",
        "interests": ["Rust"],
        "negative_keywords": [],
        "source_ids": [],
        "source_weights": {},
        "min_score": 40,
        "max_items": 20,
        "content_window_hours": 168,
        "redelivery": "cooldown",
        "cooldown_days": 7,
        "cron": "0 9 * * 1",
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
        "next_run_at": "2026-11-23T08:00:00Z",
        "last_run_at": None,
        "created_at": "2026-11-20T09:00:00Z",
    },
    "DELETE /api/v1/topics/{slug} #unpublish": None,
}
