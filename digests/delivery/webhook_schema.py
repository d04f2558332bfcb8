"""What a webhook receiver gets, in the OpenAPI 3.1 document: the `webhooks` section.

One path item per event a subscription's webhook receives (`brief.published`, `webhook.test`),
with its body, its Standard Webhooks headers and an example. The bodies are exactly
`webhook.payload()` (digests/delivery/webhook.py): tests/digests/test_webhook_schema.py
validates real deliveries against them, and `additionalProperties: false` makes a field added
there without being documented here fail. Each example's headers are the real signature of its
body (`webhook.sign`, compact JSON as `webhook.encode` sends it) with the example secret
`EXAMPLE_SECRET`, so a receiver can test its verification against them; the test checks them
with the `standardwebhooks` library.
"""

from __future__ import annotations

from datetime import datetime

from digests.delivery.webhook import EVENT_BRIEF, EVENT_TEST, SECRET_PREFIX, encode, sign

_STRING = {"type": "string"}
_MOMENT = {"type": "string", "format": "date-time"}
_SUBSCRIPTION = {
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "name"],
    "properties": {"id": {"type": "integer"}, "name": _STRING},
}


def _event(event: str, data: dict, description: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "required": ["type", "timestamp", "data"],
        "properties": {
            "type": {"type": "string", "enum": [event]},
            "timestamp": {**_MOMENT, "description": "When this attempt was sent."},
            "data": data,
        },
    }


BRIEF_ITEM = {
    "type": "object",
    "additionalProperties": False,
    "required": [
        "rank",
        "title",
        "url",
        "summary",
        "summary_generator",
        "source_name",
        "reason",
        "published_at",
        "redelivered",
    ],
    "properties": {
        "rank": {"type": "integer", "description": "Its place in the brief, best first."},
        "title": _STRING,
        "url": {"type": "string", "format": "uri"},
        "summary": _STRING,
        "summary_generator": {
            "type": "string",
            "description": "Who wrote the summary: the model's name, or empty for extracts.",
        },
        "source_name": _STRING,
        "reason": {"type": "string", "description": "Why it was selected."},
        "published_at": {**_MOMENT, "type": ["string", "null"]},
        "redelivered": {"type": "boolean", "description": "Delivered before, changed since."},
    },
}

WEBHOOK_COMPONENTS = {
    "WebhookBriefPublished": _event(
        EVENT_BRIEF,
        {
            "type": "object",
            "additionalProperties": False,
            "required": [
                "run_id",
                "subscription",
                "scheduled_at",
                "locale",
                "url",
                "overview",
                "items",
            ],
            "properties": {
                "run_id": {"type": "integer", "description": "The run (GET /api/v1/runs/{id})."},
                "subscription": _SUBSCRIPTION,
                "scheduled_at": _MOMENT,
                "locale": {"type": "string", "description": "The brief's language, e.g. en."},
                "url": {
                    "type": "string",
                    "format": "uri",
                    "description": "The brief's page in the Inbox.",
                },
                "overview": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["markdown", "generator"],
                    "properties": {
                        "markdown": _STRING,
                        "generator": {
                            "type": "string",
                            "description": "`template`, or the model that wrote it.",
                        },
                    },
                },
                "items": {"type": "array", "items": BRIEF_ITEM},
            },
        },
        "A brief was delivered: its overview and items, as the Inbox shows them.",
    ),
    "WebhookTest": _event(
        EVENT_TEST,
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["subscription", "message"],
            "properties": {"subscription": _SUBSCRIPTION, "message": _STRING},
        },
        "Sent by POST /api/v1/subscriptions/{id}/webhook/test (or the console's button).",
    ),
}

SIGNATURE_PATTERN = r"^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})?$"
HEADERS = {
    "webhook-id": {
        "required": True,
        "description": "The delivery's id, the same on every attempt: deduplicate on it.",
        "schema": {"type": "string", "pattern": r"^msg_[A-Za-z0-9_-]+$"},
    },
    "webhook-timestamp": {
        "required": True,
        "description": "Unix seconds of this attempt; refuse stamps far from your clock.",
        "schema": {"type": "string", "pattern": r"^[0-9]{1,12}$"},
    },
    "webhook-signature": {
        "required": True,
        "description": "Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of "
        "`{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the "
        f"endpoint's secret after `{SECRET_PREFIX}`. For a day after a rotation a second "
        "signature, with the previous secret, follows after a space; accept either.",
        "schema": {"type": "string", "pattern": SIGNATURE_PATTERN},
    },
}

ANSWERS = {
    "2XX": {"description": "Received. Answer within 15 seconds."},
    "410": {"description": "Gone: no more attempts, and the endpoint is disabled."},
    "default": {
        "description": "Anything else (or no answer in 15 s) is retried with backoff under "
        "the same `webhook-id`; 15 failures in a row disable the endpoint."
    },
}


# The example deliveries' secret (documented, so a receiver can check its verification
# against the examples' headers). Not any endpoint's: endpoints get `webhook.new_secret()`.
EXAMPLE_SECRET = SECRET_PREFIX + "l8tbjatBjpG8ndexFVZoAqPr6eLiWLp3fl1V1KPExeA="
_SUBSCRIPTION_EXAMPLE = {"id": 12, "name": "Databases"}
EXAMPLES = {
    EVENT_BRIEF: (
        "msg_2kq7VdJ0Xb3vKcN1",
        {
            "type": EVENT_BRIEF,
            "timestamp": "2026-11-28T08:00:04.512000+00:00",
            "data": {
                "run_id": 345,
                "subscription": _SUBSCRIPTION_EXAMPLE,
                "scheduled_at": "2026-11-28T08:00:00+00:00",
                "locale": "en",
                "url": "https://tidings.example/inbox/runs/345",
                "overview": {
                    "markdown": "PostgreSQL 18 is out, with asynchronous I/O.",
                    "generator": "template",
                },
                "items": [
                    {
                        "rank": 1,
                        "title": "PostgreSQL 18 released",
                        "url": "https://news.example/postgresql-18",
                        "summary": "Asynchronous I/O and faster major-version upgrades.",
                        "summary_generator": "",
                        "source_name": "Database Weekly",
                        "reason": "Matches your interests: PostgreSQL.",
                        "published_at": "2026-11-27T08:00:00+00:00",
                        "redelivered": False,
                    },
                    {
                        "rank": 2,
                        "title": "SQLite adds a new JSON operator",
                        "url": "https://news.example/sqlite-json",
                        "summary": "JSONB everywhere, and faster.",
                        "summary_generator": "",
                        "source_name": "Database Weekly",
                        "reason": "Matches your interests: SQLite.",
                        "published_at": None,
                        "redelivered": True,
                    },
                ],
            },
        },
    ),
    EVENT_TEST: (
        "msg_2kq7WmR4Tz8pLsQ5",
        {
            "type": EVENT_TEST,
            "timestamp": "2026-11-28T09:15:00+00:00",
            "data": {
                "subscription": _SUBSCRIPTION_EXAMPLE,
                "message": "A test event from Tidings: this endpoint receives its briefs.",
            },
        },
    ),
}


def example_headers(event: str) -> dict[str, str]:
    """The headers of an event's example, signed as deliveries are (with EXAMPLE_SECRET)."""
    message_id, body = EXAMPLES[event]
    stamp = int(datetime.fromisoformat(body["timestamp"]).timestamp())
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(stamp),
        "webhook-signature": sign(EXAMPLE_SECRET, message_id, stamp, encode(body)),
    }


def _operation(event: str, component: str, summary: str, description: str) -> dict:
    headers = example_headers(event)
    return {
        "post": {
            "operationId": f"webhook_{event.replace('.', '_')}",
            "summary": summary,
            "description": description,
            "tags": ["webhooks"],
            "parameters": [
                {"name": name, "in": "header", **header, "example": headers[name]}
                for name, header in HEADERS.items()
            ],
            "requestBody": {
                "required": True,
                "description": "Compact UTF-8 JSON; the signature is over these exact bytes. "
                f"The example's headers are its signature with the example secret "
                f"`{EXAMPLE_SECRET}`.",
                "content": {
                    "application/json": {
                        "schema": {"$ref": f"#/components/schemas/{component}"},
                        "examples": {event: {"value": EXAMPLES[event][1]}},
                    }
                },
            },
            "responses": ANSWERS,
        }
    }


def document_webhooks(result, generator, request, public):
    """drf-spectacular postprocessing hook: the events a subscription's webhook receives."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(WEBHOOK_COMPONENTS)
    result["webhooks"] = {
        EVENT_BRIEF: _operation(
            EVENT_BRIEF,
            "WebhookBriefPublished",
            "A brief was delivered",
            "Posted when a run of the subscription finishes with a brief: its overview and "
            "items, best first, as the Inbox shows them. Retried under the same `webhook-id` "
            "until answered with a 2xx.",
        ),
        EVENT_TEST: _operation(
            EVENT_TEST,
            "WebhookTest",
            "A test event",
            "Posted by POST /api/v1/subscriptions/{subscription_id}/webhook/test (or the "
            "console's button) to check the endpoint receives and verifies events; sent once, "
            "never counted against the endpoint.",
        ),
    }
    return result
