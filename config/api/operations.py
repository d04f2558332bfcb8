"""A summary and one tag for every operation of the schema, so the docs read as a table of
contents: the schema hook `summarize_operations` adds them (views keep their descriptions).

A new endpoint needs its line in SUMMARIES: tests/config/test_api_schema.py fails on an
operation without one, and on a line whose operation is gone.
"""

from __future__ import annotations

# Tag → what it groups; an operation's tag is the first of these its path starts with.
TAGS: dict[str, str] = {
    "subscriptions": "What to follow and when: create, change, pause, run, preview.",
    "runs": "A subscription's runs: the brief each delivered, retries.",
    "inbox": "Delivered items, marking them, and the counts.",
    "sources": "Your library, in folders: feeds, crawls, listings, searches, pages, OPML, packs.",
    "watches": "Text-change watches of a page.",
    "newsletters": "Private addresses that turn newsletters into sources.",
    "topics": "Publishing, following and forking public topics.",
    "delivery": "Webhooks, deliveries, Apprise targets and Web Push devices.",
    "billing": "Credits: balance, ledger and estimates.",
    "account": "Who the token belongs to, preferences and personal tokens.",
    "portability": "Export, import and transfer to another Tidings.",
    "schedule": "Previewing cron schedules.",
    "admin": "Staff only: platform statistics and the combination cache.",
}
_TAG_BY_PREFIX = [
    ("/api/v1/subscriptions/{subscription_id}/runs", "runs"),
    ("/api/v1/subscriptions/{subscription_id}/webhook", "delivery"),
    ("/api/v1/subscriptions/{subscription_id}/deliveries", "delivery"),
    ("/api/v1/subscriptions/{subscription_id}/apprise-targets", "delivery"),
    ("/api/v1/subscriptions", "subscriptions"),
    ("/api/v1/interests", "subscriptions"),
    ("/api/v1/runs", "runs"),
    ("/api/v1/inbox", "inbox"),
    ("/api/v1/sources", "sources"),
    ("/api/v1/folders", "sources"),
    ("/api/v1/packs", "sources"),
    ("/api/v1/watches", "watches"),
    ("/api/v1/newsletters", "newsletters"),
    ("/api/v1/public/newsletters", "newsletters"),
    ("/api/v1/topics", "topics"),
    ("/api/v1/public/topics", "topics"),
    ("/api/v1/deliveries", "delivery"),
    ("/api/v1/apprise-targets", "delivery"),
    ("/api/v1/push", "delivery"),
    ("/api/v1/billing", "billing"),
    ("/api/v1/me", "account"),
    ("/api/v1/tokens", "account"),
    ("/api/v1/export", "portability"),
    ("/api/v1/import", "portability"),
    ("/api/v1/transfer", "portability"),
    ("/api/v1/schedule", "schedule"),
    ("/api/v1/admin", "admin"),
]

SUMMARIES: dict[str, str] = {
    "GET /api/v1/admin/billing/stats": "Credits spent and granted (staff)",
    "DELETE /api/v1/admin/cache/entries": "Clear combination cache entries (staff)",
    "GET /api/v1/admin/cache/source-sets": "The most shared source sets (staff)",
    "GET /api/v1/admin/cache/stats": "Combination cache statistics (staff)",
    "GET /api/v1/admin/stats": "Platform statistics (staff)",
    "GET /api/v1/apprise-targets": "List Apprise targets",
    "POST /api/v1/apprise-targets": "Add an Apprise target",
    "DELETE /api/v1/apprise-targets/{target_id}": "Delete an Apprise target",
    "POST /api/v1/apprise-targets/{target_id}/test": "Send a test notification",
    "GET /api/v1/billing/balance": "Read the credit balance",
    "GET /api/v1/billing/estimate": "Estimate a subscription's cost",
    "GET /api/v1/billing/transactions": "List ledger transactions",
    "POST /api/v1/deliveries/{delivery_id}/retry": "Retry a failed delivery",
    "GET /api/v1/export": "Export your data",
    "POST /api/v1/import": "Import an export",
    "GET /api/v1/import/jobs/{job_id}": "Read an import job",
    "GET /api/v1/inbox/items": "List Inbox items",
    "POST /api/v1/inbox/items/{run_item_id}/actions": "Mark an Inbox item",
    "POST /api/v1/inbox/items/bulk": "Mark many Inbox items",
    "GET /api/v1/inbox/stats": "Inbox counts",
    "POST /api/v1/interests": "Suggest interests for a topic",
    "GET /api/v1/me": "Read your account",
    "PATCH /api/v1/me": "Change your preferences",
    "GET /api/v1/newsletters/addresses": "List newsletter addresses",
    "POST /api/v1/newsletters/addresses": "Create a newsletter address",
    "GET /api/v1/newsletters/addresses/{address_id}": "Read a newsletter address",
    "DELETE /api/v1/newsletters/addresses/{address_id}": "Revoke a newsletter address",
    "GET /api/v1/newsletters/addresses/{address_id}/messages": "List an address's messages",
    "POST /api/v1/newsletters/addresses/{address_id}/senders": "Allow a sender",
    "GET /api/v1/packs": "List source packs",
    "POST /api/v1/packs/{key}/install": "Install a source pack",
    "POST /api/v1/public/newsletters/inbound/mailgun": "Receive mail from Mailgun",
    "GET /api/v1/public/topics": "List public topics",
    "GET /api/v1/public/topics/{slug}": "Read a public topic",
    "GET /api/v1/public/topics/{slug}/editions/{edition_id}": "Read a topic's edition",
    "GET /api/v1/push/config": "Read the Web Push configuration",
    "GET /api/v1/push/devices": "List push devices",
    "POST /api/v1/push/devices": "Register a push device",
    "DELETE /api/v1/push/devices/{device_id}": "Remove a push device",
    "GET /api/v1/runs/{run_id}": "Read a run and its brief",
    "POST /api/v1/runs/{run_id}/retry": "Retry a failed run",
    "GET /api/v1/schedule/preview": "Preview a cron schedule",
    "GET /api/v1/sources": "List your sources",
    "POST /api/v1/sources": "Add a feed",
    "GET /api/v1/sources/{user_source_id}": "Read a source",
    "PATCH /api/v1/sources/{user_source_id}": "Move a source to a folder",
    "GET /api/v1/folders": "List your folders",
    "POST /api/v1/folders": "Create a folder",
    "GET /api/v1/folders/{folder_id}": "Read a folder",
    "PATCH /api/v1/folders/{folder_id}": "Rename a folder",
    "DELETE /api/v1/folders/{folder_id}": "Delete a folder (its sources stay)",
    "DELETE /api/v1/sources/{user_source_id}": "Remove a source",
    "POST /api/v1/sources/crawls": "Add a crawled site",
    "POST /api/v1/sources/lists": "Watch a listing page",
    "GET /api/v1/sources/lists/{user_source_id}": "Read a listing watch",
    "PATCH /api/v1/sources/lists/{user_source_id}": "Change a listing watch",
    "GET /api/v1/sources/opml": "Export your feeds as OPML",
    "POST /api/v1/sources/opml": "Import feeds from OPML",
    "POST /api/v1/sources/pages": "Save a page",
    "POST /api/v1/sources/searches": "Add a search source",
    "GET /api/v1/subscriptions": "List subscriptions",
    "POST /api/v1/subscriptions": "Create a subscription",
    "GET /api/v1/subscriptions/{subscription_id}": "Read a subscription",
    "PATCH /api/v1/subscriptions/{subscription_id}": "Change a subscription",
    "DELETE /api/v1/subscriptions/{subscription_id}": "Delete a subscription",
    "PUT /api/v1/subscriptions/{subscription_id}/apprise-targets": "Route briefs to Apprise",
    "GET /api/v1/subscriptions/{subscription_id}/deliveries": "List a subscription's deliveries",
    "POST /api/v1/subscriptions/{subscription_id}/pause": "Pause a subscription",
    "GET /api/v1/subscriptions/{subscription_id}/preview": "Preview a subscription's run",
    "POST /api/v1/subscriptions/{subscription_id}/preview": "Preview a subscription changed",
    "POST /api/v1/subscriptions/{subscription_id}/resume": "Resume a subscription",
    "POST /api/v1/subscriptions/{subscription_id}/run": "Run a subscription now",
    "GET /api/v1/subscriptions/{subscription_id}/runs": "List a subscription's runs",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/disable": "Disable the webhook",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/enable": "Enable the webhook",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/rotate-secret": "Rotate the secret",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/test": "Send a webhook test event",
    "POST /api/v1/subscriptions/preview": "Preview a new subscription",
    "GET /api/v1/tokens": "List your tokens",
    "POST /api/v1/tokens": "Create a token",
    "DELETE /api/v1/tokens/{token_id}": "Revoke a token",
    "GET /api/v1/topics": "List your topics",
    "POST /api/v1/topics": "Publish a topic",
    "PATCH /api/v1/topics/{slug}": "Change a topic",
    "DELETE /api/v1/topics/{slug}": "Unpublish a topic",
    "POST /api/v1/topics/{slug}/follow": "Follow a topic",
    "POST /api/v1/topics/{slug}/fork": "Fork a topic",
    "POST /api/v1/transfer/codes": "Create a transfer code",
    "DELETE /api/v1/transfer/codes/{code_id}": "Revoke a transfer code",
    "POST /api/v1/transfer/pull": "Pull from another Tidings",
    "POST /api/v1/transfer/redeem": "Redeem a transfer code",
    "GET /api/v1/watches": "List text watches",
    "POST /api/v1/watches": "Create a text watch",
    "GET /api/v1/watches/{watch_id}": "Read a text watch",
    "PATCH /api/v1/watches/{watch_id}": "Change a text watch",
    "DELETE /api/v1/watches/{watch_id}": "Stop a text watch",
    "POST /api/v1/watches/{watch_id}/pause": "Pause a text watch",
    "POST /api/v1/watches/{watch_id}/resume": "Resume a text watch",
    "POST /api/v1/watches/preview": "Preview a text watch",
}


def tag_of(path: str) -> str | None:
    return next((tag for prefix, tag in _TAG_BY_PREFIX if path.startswith(prefix)), None)


def summarize_operations(result, generator, request, public):
    """drf-spectacular postprocessing hook: each operation's summary and its one tag."""
    used = set()
    for path, operations in result["paths"].items():
        for method, operation in operations.items():
            summary = SUMMARIES.get(f"{method.upper()} {path}")
            if summary:
                operation["summary"] = summary
            tag = tag_of(path)
            if tag:
                operation["tags"] = [tag]
                used.add(tag)
    result["tags"] = [
        {"name": name, "description": text} for name, text in TAGS.items() if name in used
    ] + [{"name": "webhooks", "description": "What a subscription's webhook receives."}]
    return result
