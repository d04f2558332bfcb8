"""Examples of the Inbox, account, token, push device and portability operations (the table
config/api/examples.py composes; answers recorded in api_examples_recorded.py)."""

from __future__ import annotations

from config.api.examples import Example, Ref

ITEMS = "/api/v1/inbox/items"

EXAMPLES = [
    Example(
        f"GET {ITEMS}",
        "unread",
        "The first unread item",
        200,
        query="state=unread&limit=1",
    ),
    Example(
        f"GET {ITEMS}",
        "one-subscription",
        "Items of one subscription changed since a moment (to sync)",
        200,
        query="subscription={subscription_id}&updated_since=2026-11-19T00:00:00Z&limit=2",
    ),
    Example(
        f"POST {ITEMS}/{{run_item_id}}/actions",
        "save",
        "Save one item",
        200,
        request={"action": "save"},
    ),
    Example(
        f"POST {ITEMS}/bulk",
        "read",
        "Mark two items read, all or nothing",
        200,
        request={"action": "read", "ids": Ref("run_item_ids", [501, 502])},
        same=("action", "count"),
    ),
    Example("GET /api/v1/inbox/stats", "counts", "Unread, saved and total counts", 200),
    Example("GET /api/v1/me", "me", "The account and the token's scope", 200),
    Example(
        "PATCH /api/v1/me",
        "berlin",
        "Dates in Berlin time, pages in English",
        200,
        request={"timezone": "Europe/Berlin", "language": "en"},
        same=("timezone", "language"),
    ),
    Example(
        "POST /api/v1/tokens",
        "read-only",
        "A read-only token for a reading app",
        201,
        request={"name": "Reading app", "scope": "read"},
        saves={"token_id": "/id"},
    ),
    Example("GET /api/v1/tokens", "tokens", "Your tokens, newest first", 200, query="limit=2"),
    Example("DELETE /api/v1/tokens/{token_id}", "revoke", "Revoke the reading app's token", 204),
    Example("GET /api/v1/push/config", "config", "The server's VAPID public key", 200),
    Example(
        "POST /api/v1/push/devices",
        "browser",
        "A browser's push subscription (PushSubscription.toJSON())",
        201,
        request={
            "endpoint": "https://push.example/send/abc123",
            "keys": {
                "p256dh": (
                    "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u"
                    "-Ts1XbjhazAkj7I99e8QcYP7DkM"
                ),
                "auth": "tBHItJI5svbpez7KI4CCXg",
            },
            "label": "Laptop",
        },
        saves={"device_id": "/id"},
    ),
    Example("GET /api/v1/push/devices", "devices", "Your push devices", 200),
    Example("DELETE /api/v1/push/devices/{device_id}", "remove", "Remove the laptop", 204),
    Example("GET /api/v1/export", "saved", "Your saved items, as a file", 200, query="scope=saved"),
    Example(
        "POST /api/v1/import",
        "export",
        "Import an export (here an empty one)",
        202,
        request={
            "format": "tidings-export@1",
            "exported_at": "2026-11-19T08:00:00Z",
            "instance": {"url": "https://old.example", "software": "tidings"},
            "scope": "saved",
            "account": {"id": 1, "email": "demo@tidings.local"},
            "preferences": {
                "ui_locale": "en",
                "timezone": "Europe/Berlin",
                "locale_mode": "manual",
            },
            "sources": [],
            "subscriptions": [],
            "runs": [],
            "content_states": [],
        },
        saves={"job_id": "/id"},
    ),
    Example(
        "GET /api/v1/import/jobs/{job_id}", "job", "How the import went", 200, same=("status",)
    ),
    Example(
        "POST /api/v1/transfer/codes",
        "saved",
        "A code another Tidings pulls your saved items with",
        201,
        request={"scope": "saved"},
        saves={"code": "/code"},
    ),
    Example(
        "POST /api/v1/transfer/redeem",
        "redeem",
        "What a code gives (the other Tidings asks this)",
        200,
        request={"code": Ref("code", "tx_5mQ2vXk8Zr0aB1cD2eF3gH4iJ5kL6mN7")},
    ),
    Example(
        "POST /api/v1/transfer/pull",
        "pull",
        "Pull your data from another Tidings with a code made there",
        202,
        request={
            "instance": "https://old.example",
            "code": Ref("code", "tx_5mQ2vXk8Zr0aB1cD2eF3gH4iJ5kL6mN7"),
        },
    ),
    Example(
        "POST /api/v1/transfer/codes",
        "everything",
        "A code for everything: subscriptions, sources, briefs and marks",
        201,
        request={"scope": "everything"},
        saves={"code_id": "/id"},
    ),
    Example("DELETE /api/v1/transfer/codes/{code_id}", "revoke", "Revoke the code", 204),
]
