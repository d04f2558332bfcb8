"""Examples of the subscription, run, delivery, schedule, text watch and staff operations (the
table config/api/examples.py composes; answers recorded in api_examples_recorded.py)."""

from __future__ import annotations

from config.api.examples import Example, Ref

SUBSCRIPTIONS = "/api/v1/subscriptions"
ONE = f"{SUBSCRIPTIONS}/{{subscription_id}}"
NEW = {"subscription_id": "new_subscription_id"}
WATCH = {
    "url": "http://shop.example/pricing",
    "name": "Team plan price",
    "selector": "#price",
    "trigger": "any",
    "check_interval_minutes": 60,
}

EXAMPLES = [
    Example(f"GET {SUBSCRIPTIONS}", "first", "Your first two subscriptions", 200, query="limit=2"),
    Example(
        f"POST {SUBSCRIPTIONS}",
        "weekdays",
        "A brief at 08:00 Berlin time on weekdays",
        201,
        request={
            "name": "Databases",
            "interests": ["PostgreSQL", "SQLite"],
            "cron": "0 8 * * 1-5",
            "timezone": "Europe/Berlin",
        },
        # Made on Friday 09:00 UTC: the next weekday 08:00 in Berlin is Monday's 07:00 UTC.
        same=("name", "interests", "cron", "timezone", "status", "next_run_at", "min_score"),
        saves={"new_subscription_id": "/id"},
    ),
    Example(
        f"POST {SUBSCRIPTIONS}",
        "refused",
        "A refused field: named, with its message and code",
        400,
        request={"name": "Databases", "min_score": "high"},
        request_in_schema=False,
        response={
            "error": {
                "code": "invalid",
                "message": "min_score: Must be a whole number (a JSON integer).",
                "fields": {"min_score": "Must be a whole number (a JSON integer)."},
                "field_codes": {"min_score": "invalid"},
            }
        },
        same=("error",),
    ),
    Example(f"GET {ONE}", "one", "One subscription", 200),
    Example(
        f"PATCH {ONE}",
        "webhook",
        "Fewer items, and each brief to a webhook too",
        200,
        request={"max_items": 10, "webhook_url": "http://hooks.example/hooks/tidings"},
        ids=NEW,
        same=("max_items",),
    ),
    Example(f"POST {ONE}/pause", "pause", "Pause it (no runs until resumed)", 200, ids=NEW),
    Example(f"POST {ONE}/resume", "resume", "Resume it", 200, ids=NEW),
    Example(f"GET {ONE}/preview", "preview", "What a run would pick now", 200),
    Example(f"POST {ONE}/preview", "post", "The same preview, by POST (no body)", 200),
    Example(
        f"POST {SUBSCRIPTIONS}/preview",
        "new",
        "What a new subscription would pick",
        200,
        request={"name": "Databases", "interests": ["PostgreSQL"]},
    ),
    Example(f"POST {ONE}/run", "now", "Run it now (queued)", 202, saves={"queued_run_id": "/id"}),
    Example(f"GET {ONE}/runs", "runs", "Its latest run", 200, query="limit=1"),
    Example("GET /api/v1/runs/{run_id}", "brief", "A run and its brief", 200),
    Example(
        "POST /api/v1/runs/{run_id}/retry",
        "failed",
        "Run a failed run again (here the worker already ran it)",
        202,
        ids={"run_id": "failed_run_id"},
    ),
    Example(
        "POST /api/v1/runs/{run_id}/retry",
        "succeeded",
        "Only a failed run is retried",
        409,
    ),
    Example(f"POST {ONE}/webhook/test", "test", "Send a signed test event", 200, ids=NEW),
    Example(f"POST {ONE}/webhook/rotate-secret", "rotate", "A new signing secret", 200, ids=NEW),
    Example(f"POST {ONE}/webhook/disable", "disable", "Stop sending to it", 200, ids=NEW),
    Example(f"POST {ONE}/webhook/enable", "enable", "Send to it again", 200, ids=NEW),
    Example(
        f"GET {ONE}/deliveries",
        "deliveries",
        "Its deliveries",
        200,
        ids=NEW,
        saves={"delivery_id": "/results/0/id"},
    ),
    Example(
        "POST /api/v1/deliveries/{delivery_id}/retry",
        "sent",
        "Only a failed delivery is retried",
        409,
    ),
    Example(
        "POST /api/v1/apprise-targets",
        "chat",
        "A chat room, as an Apprise URL",
        201,
        request={"url": "json://hooks.example/hooks/tidings", "label": "Team chat"},
        saves={"target_id": "/id"},
    ),
    Example("GET /api/v1/apprise-targets", "targets", "Your Apprise targets", 200),
    Example(
        "POST /api/v1/apprise-targets/{target_id}/test",
        "test",
        "Send a test notification",
        200,
    ),
    Example(
        f"PUT {ONE}/apprise-targets",
        "route",
        "Send its briefs to the chat room",
        200,
        request={"targets": [Ref("target_id", 3)]},
        ids=NEW,
    ),
    Example(
        "POST /api/v1/interests",
        "topic",
        "Interests for a topic in plain words",
        200,
        request={"topic": "Databases and SQL"},
    ),
    Example(
        "GET /api/v1/schedule/preview",
        "weekdays",
        "The next three weekday mornings in Berlin",
        200,
        query="cron=0+8+*+*+1-5&timezone=Europe/Berlin&count=3",
    ),
    Example(
        "POST /api/v1/watches/preview",
        "price",
        "What a watch of a price would see now",
        200,
        request=WATCH,
    ),
    Example(
        "POST /api/v1/watches",
        "price",
        "Watch a price on a page",
        201,
        request=WATCH,
        saves={"watch_id": "/id"},
    ),
    Example("GET /api/v1/watches", "watches", "Your text watches", 200),
    Example("GET /api/v1/watches/{watch_id}", "watch", "One text watch", 200),
    Example(
        "PATCH /api/v1/watches/{watch_id}",
        "daily",
        "Check it once a day",
        200,
        request={"check_interval_minutes": 1440},
    ),
    Example("POST /api/v1/watches/{watch_id}/pause", "pause", "Pause it", 200),
    Example("POST /api/v1/watches/{watch_id}/resume", "resume", "Resume it", 200),
    Example("GET /api/v1/admin/stats", "stats", "Platform statistics", 200),
    Example("GET /api/v1/admin/cache/stats", "stats", "Combination cache statistics", 200),
    Example("GET /api/v1/admin/cache/source-sets", "sets", "The most shared source sets", 200),
    Example(
        "DELETE /api/v1/admin/cache/entries",
        "expired",
        "Clear the expired entries",
        200,
        query="expired=true",
    ),
    Example("DELETE /api/v1/watches/{watch_id}", "stop", "Stop the watch", 204),
    Example("DELETE /api/v1/apprise-targets/{target_id}", "delete", "Delete the target", 204),
    Example(f"DELETE {ONE}", "delete", "Delete the new subscription", 204, ids=NEW),
]
