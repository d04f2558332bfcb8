"""What a webhook receiver gets, in the OpenAPI document: the `x-webhooks` section.

The schema is OpenAPI 3.0 (drf-spectacular's), which has no `webhooks`; `x-webhooks` holds the
same thing as OpenAPI 3.1's `webhooks` (a path item per event, its request body and headers),
and Redoc shows it as such. The bodies are exactly `webhook.payload()` (digests/delivery/
webhook.py): tests/digests/test_webhook_schema.py validates real deliveries against them, and
`additionalProperties: false` makes a field added there without being documented here fail.
"""

from __future__ import annotations

from digests.delivery.webhook import EVENT_BRIEF, EVENT_TEST, SECRET_PREFIX

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
        "published_at": {**_MOMENT, "nullable": True},
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


def _operation(event: str, component: str, summary: str) -> dict:
    return {
        "post": {
            "operationId": f"webhook_{event.replace('.', '_')}",
            "summary": summary,
            "tags": ["webhooks"],
            "parameters": [
                {"name": name, "in": "header", **header} for name, header in HEADERS.items()
            ],
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}
                },
            },
            "responses": ANSWERS,
        }
    }


def document_webhooks(result, generator, request, public):
    """drf-spectacular postprocessing hook: the events a subscription's webhook receives."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(WEBHOOK_COMPONENTS)
    result["x-webhooks"] = {
        EVENT_BRIEF: _operation(EVENT_BRIEF, "WebhookBriefPublished", "A brief was delivered"),
        EVENT_TEST: _operation(EVENT_TEST, "WebhookTest", "A test event"),
    }
    return result
