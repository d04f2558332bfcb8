"""What every operation does, who may call it, what it changes and how its list pages: the
schema hook `describe_operations` gives each operation its description from DESCRIPTIONS (or
keeps the view's docstring), then adds who may call it (from its security and path) and, for a
list, how it pages (from its `limit` parameter); and each path parameter says what it names
and where its value comes from (PATH_PARAMETERS).

A new endpoint needs a description of at least a sentence (its view's docstring or a line
here): tests/config/test_api_examples.py fails on an operation without one.
"""

from __future__ import annotations

import re

_WRITE = "Changes: "

# Operations whose view has no docstring, or one shared by several methods of a view.
DESCRIPTIONS: dict[str, str] = {
    # Account and tokens.
    "GET /api/v1/me": "Who the token belongs to (id, e-mail, the token's scope) and the "
    "preferences the console's Preferences page sets: the language of pages and the time "
    "zone dates are shown in.",
    "PATCH /api/v1/me": "Change your preferences: `language` (`auto` follows the browser) "
    "and `timezone` (an IANA zone name). A field left out stays as it is. "
    f"{_WRITE}your preferences only; answers the account as GET does.",
    "GET /api/v1/tokens": "Your active personal API tokens, newest first: name, scope, "
    "prefix, when made and last used. Never the tokens themselves (only their creation "
    "answer shows one).",
    "POST /api/v1/tokens": "Make a personal API token: `write` (read and change), `read` "
    "(GET only) or `reader` (an app password for Google Reader and Fever apps). The answer "
    f"holds the token itself, once: store it. {_WRITE}adds one token.",
    "DELETE /api/v1/tokens/{token_id}": "Revoke one of your tokens: it is refused from the "
    f"next request on (401). {_WRITE}the token is revoked; revoking it again is 404.",
    # Inbox.
    "POST /api/v1/inbox/items/{run_item_id}/actions": "Mark one delivered item: read or "
    "unread, save or unsave, not interested or interested again (which also teaches the "
    f"subscription's next runs). {_WRITE}your state of that item, for every brief that "
    "holds it; answers the item as the Inbox lists it.",
    # Runs.
    "GET /api/v1/runs/{run_id}": "One run of yours: its status, when it started and "
    "finished, what it cost, and its brief: the narrative and the items in the brief's order, "
    "each with its summary, source and why it was picked.",
    "POST /api/v1/runs/{run_id}/retry": "Run a failed run again, as a new run with the "
    "trigger `retry` (queued: 202 with the new run). Only a failed "
    f"run is retried: another is 409 `conflict`. {_WRITE}queues one run, charged as any run.",
    "GET /api/v1/subscriptions/{subscription_id}/runs": "A subscription's runs, newest "
    "first: status, trigger, timings, counts and cost (the brief itself is at "
    "`GET /api/v1/runs/{run_id}`). `updated_since` answers only runs made or finished since.",
    # Subscriptions.
    "GET /api/v1/subscriptions": "Your subscriptions (deleted ones are gone), oldest first, "
    "with their schedule, next run and delivery settings. `updated_since` answers only the "
    "ones changed since a moment, to sync.",
    "POST /api/v1/subscriptions": "Create a subscription: what to follow (a topic in plain "
    "words, interests, sources) and when (a cron expression in a time zone, or once at "
    "`run_at`). Only `name` is required; interests left empty are derived from `topic`. "
    f"Limits are your plan's (403 `tier_limit`). {_WRITE}adds the subscription, scheduled "
    "from its next run; nothing runs now.",
    "GET /api/v1/subscriptions/{subscription_id}": "One subscription of yours, with its "
    "schedule, next and last run, delivery settings and webhook.",
    "PATCH /api/v1/subscriptions/{subscription_id}": "Change some fields of a subscription "
    "(those of creating one); a field left out stays as it is. A new schedule moves the next "
    f"run. {_WRITE}the subscription only; runs already delivered stay as they were.",
    "DELETE /api/v1/subscriptions/{subscription_id}": "Delete a subscription: it never runs "
    f"again. {_WRITE}the subscription is gone from lists; the items it delivered stay in the "
    "Inbox.",
    "POST /api/v1/subscriptions/{subscription_id}/pause": "Pause a subscription: no "
    f"scheduled run until it is resumed. {_WRITE}its status (`paused`).",
    "POST /api/v1/subscriptions/{subscription_id}/resume": "Resume a paused subscription: "
    f"its next run is the schedule's next from now. {_WRITE}its status and next run.",
    "POST /api/v1/subscriptions/{subscription_id}/run": "Run a subscription now, outside its "
    "schedule: the run is queued (202 with it) and the worker does it. "
    "With an `Idempotency-Key`, repeating the request answers the same run. "
    f"{_WRITE}queues one run, charged as any run.",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/enable": "Send briefs to the "
    f"subscription's webhook again (after a disable, or after it was turned off by failures). "
    f"{_WRITE}the webhook's `enabled`.",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/disable": "Stop sending briefs to "
    f"the subscription's webhook; its URL and secret are kept. {_WRITE}the webhook's "
    "`enabled`.",
    "POST /api/v1/subscriptions/{subscription_id}/webhook/rotate-secret": "A new signing "
    "secret for the subscription's webhook, answered once: events are signed with it from "
    f"now on. {_WRITE}the secret; the old one stops signing at once.",
    "POST /api/v1/deliveries/{delivery_id}/retry": "Send a failed e-mail, webhook or push "
    "delivery again (queued: 202). Only a failed one is retried; a sent or pending one is "
    f"409 `conflict`. {_WRITE}the delivery's status, back to `pending`.",
    "DELETE /api/v1/apprise-targets/{target_id}": "Delete an Apprise target; subscriptions "
    f"routed to it stop notifying it. {_WRITE}the target and its routes are removed.",
    "GET /api/v1/apprise-targets": "Your Apprise notification targets (chat rooms, phones, "
    "... as Apprise URLs, the secret parts masked), oldest first.",
    # Sources and folders.
    "GET /api/v1/sources": "Your library: every source you added (feeds, crawls, listing "
    "watches, searches, saved pages, newsletters), oldest first, with its folder and health.",
    "POST /api/v1/sources": "Add a feed by its URL (RSS, Atom or JSON Feed; or a site whose feed "
    "on the site is found). It is fetched once now to check it: 201 when added, 200 when it "
    "was already in your library. "
    f"{_WRITE}adds the source to your library.",
    "GET /api/v1/sources/{user_source_id}": "One source of your library: its type, URL, "
    "title, folder, and how its fetching goes (last fetched, errors).",
    "DELETE /api/v1/sources/{user_source_id}": "Remove a source from your library. "
    f"{_WRITE}your library and the subscriptions that used it; the shared pool and items "
    "already delivered are kept.",
    "GET /api/v1/sources/lists/{user_source_id}": "One listing watch of yours: the page, the "
    "selector, how it notifies and how often it is checked.",
    "GET /api/v1/folders": "Your folders, oldest first, with how many sources each holds.",
    "POST /api/v1/folders": "Create a folder (a name unique among yours, up to 100 "
    f"characters). {_WRITE}adds the folder.",
    "GET /api/v1/folders/{folder_id}": "One folder of yours and how many sources it holds.",
    "PATCH /api/v1/folders/{folder_id}": "Rename a folder (the name must stay unique among "
    f"yours). {_WRITE}the folder's name.",
    "GET /api/v1/packs": "Source packs: ready-made sets of feeds on one subject (AI, security, "
    "...), each with its feeds, to install in one request.",
    "POST /api/v1/packs/{key}/install": "Add every feed of a pack to your library (201 when "
    f"any was new to you, 200 when you had them all). {_WRITE}your library.",
    # Newsletters.
    "GET /api/v1/newsletters/addresses": "Your private newsletter addresses, newest first, "
    "with the source each feeds and its allowed senders.",
    "GET /api/v1/newsletters/addresses/{address_id}": "One newsletter address of yours, with "
    "its source and allowed senders.",
    # Topics.
    "GET /api/v1/topics": "The topics you published, by title, with their status (active, "
    "taken down) and follower counts.",
    "POST /api/v1/topics": "Publish one of your subscriptions as a public topic: its title, "
    "description and slug (the URL), and the schedule of its editions. "
    f"{_WRITE}adds the topic; its first edition is made on its schedule.",
    "PATCH /api/v1/topics/{slug}": "Change a topic you published (title, description, slug, "
    f"visibility, schedule); a field left out stays as it is. {_WRITE}the topic.",
    "DELETE /api/v1/topics/{slug}": "Unpublish a topic of yours: its public page and "
    f"editions are no longer shown. {_WRITE}the topic's status.",
    "POST /api/v1/topics/{slug}/follow": "Follow a public topic: a subscription of yours "
    "that delivers its editions, at your own hour if you give `cron` and `timezone` (201; "
    f"200 when you already follow it). {_WRITE}adds the subscription.",
    "POST /api/v1/topics/{slug}/fork": "Copy a public topic's settings into a subscription "
    f"of your own that you can change freely. {_WRITE}adds the subscription.",
    "GET /api/v1/public/topics": "Public topics anyone can follow, trending first (`sort`), "
    "optionally in one language (`locale`).",
    "GET /api/v1/public/topics/{slug}": "A public topic: its description, schedule, "
    "follower count and latest editions.",
    "GET /api/v1/public/topics/{slug}/editions/{edition_id}": "One edition of a public topic: "
    "its narrative and items, as its page shows them.",
    # Push and billing.
    "GET /api/v1/push/config": "Whether this server sends Web Push, and what a browser needs "
    "to subscribe: the VAPID public key and the service worker's address.",
    "DELETE /api/v1/push/devices/{device_id}": "Forget a browser: no more pushes to it. "
    f"{_WRITE}the device is removed.",
    "GET /api/v1/billing/balance": "Your credits this period: the balance, your plan (tier) "
    "and its monthly grant, and when the period resets.",
    "GET /api/v1/import/jobs/{job_id}": "How an import you queued goes: `queued`, `running` "
    "(with `progress_percent`), then `done` with a summary of what was added, or `failed` with "
    "the error, in the API's error shape.",
    "GET /api/v1/watches": "Your text-change watches, oldest first, with their status and "
    "last check.",
    "POST /api/v1/watches/{watch_id}/pause": "Pause a text watch: no checks until resumed. "
    f"{_WRITE}its status.",
}

# Path parameters: what each names, and where a client finds it. Every id is a positive whole
# number; an id of something not yours is answered 404, as one that does not exist.
PATH_PARAMETERS: dict[str, str] = {
    "subscription_id": "A subscription of yours: `id` from `GET /api/v1/subscriptions`.",
    "run_id": "A run of one of your subscriptions: `run_id` of an Inbox item, or `id` from "
    "`GET /api/v1/subscriptions/{subscription_id}/runs`.",
    "run_item_id": "An item of your Inbox: `id` from `GET /api/v1/inbox/items`.",
    "user_source_id": "A source of your library: `id` from `GET /api/v1/sources`.",
    "folder_id": "A folder of yours: `id` from `GET /api/v1/folders`.",
    "target_id": "An Apprise target of yours: `id` from `GET /api/v1/apprise-targets`.",
    "delivery_id": "A delivery of one of your subscriptions: `id` from "
    "`GET /api/v1/subscriptions/{subscription_id}/deliveries`.",
    "job_id": "An import job of yours: `id` from `POST /api/v1/import` or "
    "`POST /api/v1/transfer/pull`.",
    "address_id": "A newsletter address of yours: `id` from `GET /api/v1/newsletters/addresses`.",
    "key": "A source pack's key: `key` from `GET /api/v1/packs`.",
    "slug": "A topic's slug (its URL name: lowercase letters, digits and hyphens): `slug` "
    "from `GET /api/v1/topics` or `GET /api/v1/public/topics`.",
    "edition_id": "An edition of that topic: `editions[].id` from "
    "`GET /api/v1/public/topics/{slug}`.",
    "device_id": "A push device of yours: `id` from `GET /api/v1/push/devices`.",
    "token_id": "A token of yours: `id` from `GET /api/v1/tokens`.",
    "code_id": "A transfer code of yours: `id` from `POST /api/v1/transfer/codes`.",
    "watch_id": "A text watch of yours: `id` from `GET /api/v1/watches`.",
}

_PAGE_LIMIT = re.compile(r"1 to (\d+) \(default (\d+)\)")


def _who(path: str, method: str, operation: dict) -> str:
    security = operation.get("security", [])
    if path.startswith("/api/v1/admin/"):
        return (
            "Who may call it: staff members, with a personal API token (a session is "
            "answered 401, another user's token 403)."
        )
    if security == [{}] or not security:
        return "Who may call it: anyone; no credentials are needed."
    if {} in security:
        return "Who may call it: anyone; credentials are read when sent."
    if method == "get":
        return (
            "Who may call it: you, with a personal API token (`write` or `read`) or a "
            "signed-in session; only your own things are ever answered (others' are 404)."
        )
    return (
        "Who may call it: you, with a `write` token or a signed-in session (a `read` token is "
        "answered 403); only your own things can be changed (others' are 404)."
    )


def _paging(operation: dict) -> str:
    for parameter in operation.get("parameters", []):
        if parameter.get("name") == "limit":
            found = _PAGE_LIMIT.search(parameter.get("description", ""))
            if found:
                most, default = found.groups()
                return (
                    f"Pages: {default} per page by default, `limit` up to {most}; follow "
                    "`next` (a cursor) until it is null."
                )
    return ""


def describe_operations(result, generator, request, public):
    """drf-spectacular postprocessing hook: each operation's description (DESCRIPTIONS, else
    the view's), who may call it, what a GET changes (nothing) and how a list pages."""
    for path, operations in result["paths"].items():
        for method, operation in operations.items():
            text = DESCRIPTIONS.get(f"{method.upper()} {path}") or operation.get("description", "")
            lines = [text.strip()]
            if method == "get":
                lines.append("Changes: nothing.")
            lines.append(_who(path, method, operation))
            paging = _paging(operation)
            if paging:
                lines.append(paging)
            operation["description"] = "\n\n".join(line for line in lines if line)
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and not parameter.get("description"):
                    parameter["description"] = PATH_PARAMETERS.get(parameter["name"], "")
    return result
