"""Request and response examples of the main operations, put into the schema by the hook
`add_examples` (after the error hook, which sets every error answer's content).

Each is tested (tests/config/test_api_examples.py): it validates against the schema of its
request or answer, and it is replayed against the API, which must give the same status, the
same fields and the same values for those an example can fix (a name, a schedule, a state).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Example:
    operation: str  # "METHOD /path" as in the schema
    name: str
    summary: str
    status: int
    response: dict
    request: dict | None = None
    query: str = ""  # sent by the replay, and shown in the summary
    # The request is only sent by the replay (a refused one: not schema-valid input).
    request_in_schema: bool = True
    same: tuple[str, ...] = field(default=())  # top-level fields the replay must equal


SUBSCRIPTION_REQUEST = {
    "name": "Databases",
    "interests": ["PostgreSQL", "SQLite"],
    "cron": "0 8 * * 1-5",
    "timezone": "Europe/Berlin",
}
# Made on Friday 2026-11-20 at 09:00 UTC: the next weekday 08:00 in Berlin is Monday's 07:00 UTC.
EXAMPLE_MOMENT = "2026-11-20T09:00:00Z"

EXAMPLES = [
    Example(
        "POST /api/v1/subscriptions",
        "weekdays",
        "A brief at 08:00 Berlin time on weekdays",
        201,
        request=SUBSCRIPTION_REQUEST,
        response={
            "id": 7,
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
            "email_recipient": "you@example.com",
            "email_error": "",
            "email_error_at": None,
            "webhook": None,
            "status": "active",
            "paused_reason": "",
            "next_run_at": "2026-11-23T07:00:00Z",
            "last_run_at": None,
            "created_at": EXAMPLE_MOMENT,
        },
        same=("name", "interests", "cron", "timezone", "status", "next_run_at", "min_score"),
    ),
    Example(
        "POST /api/v1/subscriptions",
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
    Example(
        "GET /api/v1/inbox/items",
        "unread",
        "The first unread item (?state=unread&limit=1)",
        200,
        query="state=unread&limit=1",
        response={
            "next": "https://tidings.example/api/v1/inbox/items?cursor=31.1&limit=1&state=unread",
            "previous": None,
            "results": [
                {
                    "id": 501,
                    "run_id": 31,
                    "subscription_id": 7,
                    "subscription_name": "Databases",
                    "title": "PostgreSQL 18 released",
                    "url": "https://news.example/postgresql-18",
                    "summary": "Asynchronous I/O and faster upgrades.",
                    "source_name": "PostgreSQL News",
                    "reason": "matches PostgreSQL in the title; published 20 Nov 2026, 08:00 UTC",
                    "overall": 82,
                    "published_at": "2026-11-20T08:00:00Z",
                    "delivered_at": EXAMPLE_MOMENT,
                    "read": False,
                    "saved": False,
                    "not_interested": False,
                }
            ],
        },
        same=("previous",),
    ),
    Example(
        "POST /api/v1/inbox/items/bulk",
        "read",
        "Mark two items read, all or nothing",
        200,
        request={"action": "read", "ids": [501, 502]},
        response={"action": "read", "count": 2, "ids": [501, 502]},
        same=("action", "count"),
    ),
    Example(
        "GET /api/v1/me",
        "me",
        "The account and the token's scope",
        200,
        response={
            "id": 3,
            "email": "you@example.com",
            "token_scope": "write",
            "language": "auto",
            "timezone": "Europe/Berlin",
        },
        same=("token_scope", "language", "timezone"),
    ),
]


def _examples_of(content: dict, example: Example, value: dict) -> None:
    media = content.setdefault("application/json", {})
    media.setdefault("examples", {})[example.name] = {"summary": example.summary, "value": value}


def add_examples(result, generator, request, public):
    """drf-spectacular postprocessing hook: EXAMPLES into their operations."""
    for example in EXAMPLES:
        method, path = example.operation.split(" ", 1)
        operation = result["paths"][path][method.lower()]
        if example.request is not None and example.request_in_schema:
            _examples_of(operation["requestBody"]["content"], example, example.request)
        answer = operation["responses"][str(example.status)]
        _examples_of(answer.setdefault("content", {}), example, example.response)
    return result
