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
    "POST /api/v1/runs/{run_id}/retry": "Run a failed run again, under the same id: it is put "
    "back to `pending` and queued (202 with it). Only a failed run with attempts left is "
    'retried (another is 409 `conflict`), and a retry counts against your plan\'s "run now" '
    f"limit. {_WRITE}the run's status; a failed run was not charged, so a retry cannot charge "
    "or deliver twice.",
    "GET /api/v1/subscriptions/{subscription_id}/runs": "A subscription's runs, newest "
    "first: status, trigger, timings, counts and cost (the brief itself is at "
    "`GET /api/v1/runs/{run_id}`). `updated_since` answers only runs made or finished since.",
    # Subscriptions.
    "GET /api/v1/subscriptions": "Your subscriptions (deleted ones are gone), newest first, "
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
    "... as Apprise URLs).",
    # Sources and folders.
    "GET /api/v1/sources": "Your library: every source you added (feeds, crawls, listing "
    "watches, searches, saved pages, newsletters), newest first, with its folder and health.",
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
    "GET /api/v1/folders": "Your folders, with how many sources each holds.",
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
    "GET /api/v1/newsletters/addresses": "Your private newsletter addresses (a list, not a page), "
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
    "GET /api/v1/watches": "Your text-change watches, with their status, settings and last check.",
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


# Fields: what each means, for those whose serializer field has no help text. By name: the
# same name means the same thing in every component it is in (a component's own description
# always wins). Bounds, formats and enumerations come from the serializers.
FIELDS: dict[str, str] = {
    "id": "Its id: a positive whole number, stable, unique among its kind.",
    "url": "Its address (http or https).",
    "title": "Its title, as its source gives it.",
    "name": "Its name, as you gave it.",
    "status": "Its state now (one of the values listed).",
    "results": "This page's entries, in the list's order.",
    "next": "The link to the next page, or null on the last.",
    "previous": "The link to the previous page, or null.",
    "created_at": "When it was made (ISO 8601, UTC).",
    "added_at": "When it was added to your library (ISO 8601, UTC).",
    "published_at": "When its source published it, if it says (ISO 8601, UTC).",
    "delivered_at": "When it was delivered to your Inbox (ISO 8601, UTC).",
    "started_at": "When the work started (ISO 8601, UTC); null while queued.",
    "finished_at": "When the work finished (ISO 8601, UTC); null until then.",
    "scheduled_at": "When it was due (ISO 8601, UTC).",
    "received_at": "When it arrived (ISO 8601, UTC).",
    "expires_at": "When it stops being accepted (ISO 8601, UTC).",
    "revoked_at": "When it was revoked (ISO 8601, UTC); null while in use.",
    "last_used_at": "When it was last used (ISO 8601, UTC); null if never.",
    "last_refresh_at": "When the source was last fetched (ISO 8601, UTC); null if never.",
    "next_refresh_at": "When the source is fetched next (ISO 8601, UTC).",
    "next_run_at": "When it runs next (ISO 8601, UTC); null when it will not run again.",
    "last_run_at": "When it last ran (ISO 8601, UTC); null if never.",
    "last_edition_at": "When its latest edition was made (ISO 8601, UTC); null if none yet.",
    "sent_at": "When it was sent (ISO 8601, UTC); null until then.",
    "last_sent_at": "When something was last sent to it (ISO 8601, UTC); null if never.",
    "next_attempt_at": "When the next attempt is due (ISO 8601, UTC); null if none.",
    "last_attempt_at": "When it was last attempted (ISO 8601, UTC); null if never.",
    "email_error_at": "When the last e-mail failed (ISO 8601, UTC); null if none did.",
    "generated_at": "When these figures were computed (ISO 8601, UTC).",
    "exported_at": "When the export was made (ISO 8601 with an offset).",
    "type": "What kind of source it is (one of the values listed).",
    "description": "Its description, in plain words.",
    "display_name": "The name it has in your library (empty: its own title).",
    "source_id": "The shared source's id in the content pool (the same for everyone).",
    "user_source_id": "The id of the source in your library (`/api/v1/sources/{id}`).",
    "subscription_id": "The id of the subscription it belongs to.",
    "run_id": "The id of the run it belongs to.",
    "item_id": "The id of the item in the shared content pool.",
    "timezone": "An IANA time zone name (e.g. `Europe/Berlin`).",
    "cron": "A five-field cron expression (e.g. `0 8 * * 1-5`), in `timezone`.",
    "last_error": "Why the last attempt failed; empty when it did not.",
    "error": "Why it failed; empty or null when it did not.",
    "language_mode": "`follow_ui`: briefs in your page language; `fixed`: in `output_locale`.",
    "output_locale": "The language briefs are written in when fixed (e.g. `en`); empty: "
    "follows the page language.",
    "max_items": "At most this many items per brief.",
    "min_score": "Only items scoring at least this (0 to 100) are picked.",
    "redelivery": "Whether an item already delivered may come again: `never`, after "
    "`cooldown_days` (`cooldown`), or when its content changes (`on_content_update`).",
    "cooldown_days": "With `redelivery: cooldown`, days before an item may come again.",
    "content_window_hours": "Only items published within this many hours are candidates.",
    "summaries_enabled": "Whether each item gets a summary.",
    "narrative_enabled": "Whether the brief starts with an overview of its items.",
    "tone": "The tone of the overview (e.g. `neutral`).",
    "reading_levels": "The reading levels summaries are written for (L1 simplest).",
    "sections": "Naver News sections to follow (Korean news sources only).",
    "topic": "What to follow, in plain words; interests are derived from it when empty.",
    "interests": "Words and phrases an item should be about.",
    "negative_keywords": "Words that make an item unwanted.",
    "source_ids": "The ids of the library sources it reads (empty: the whole pool).",
    "email_enabled": "Whether each brief is also e-mailed.",
    "email_to": "Where e-mailed briefs go; empty: your account's address.",
    "email_subject": "The e-mail's subject; empty: the brief's default subject.",
    "email_error": "Why the last e-mail failed; empty if none did.",
    "webhook": "The webhook briefs are posted to, or null if none.",
    "label": "A name for it, yours to choose.",
    "active": "How many are active (or, for one thing, whether it is).",
    "total": "How many in all.",
    "folder_name": "The name of its folder, or null when in none.",
    "source_name": "The name of the source it came from.",
    "scope": "What it covers or allows (one of the values listed).",
    "reason": "Why, in plain words.",
    "action": "What to do to the item(s), or what was done.",
    "summary": "A short summary of the item.",
    "slug": "The topic's URL name: lowercase letters, digits and hyphens.",
    "locale": "The language it is written in (e.g. `en`).",
    "follower_count": "How many follow it.",
    "trending_score": "How much it is followed lately (the trending job's figure); the "
    "public list sorts by it.",
    "quality_score": "A quality figure the trending job computes (topics/trending.py).",
    "feed_url": "Its public Atom feed.",
    "visibility": "`public`: listed in the public topics; `private`: not listed.",
    "render": "How the page is read: `http` (as served) or `browser` (scripts run).",
    "selector": "The part of the page watched, as a CSS selector (or XPath).",
    "candidates_count": "How many items were considered.",
    "selected_count": "How many were picked.",
    "delivered_count": "How many were delivered.",
    "dedup_skipped_count": "How many were left out as already delivered to you.",
    "redelivered_count": "How many came again under the redelivery rule.",
    "empty_reason": "Why nothing was delivered; empty when something was.",
    "trigger": "What started it: `scheduled`, `manual`, `retry` or `imported`.",
    "billing_breakdown": "What it cost, by part (credits).",
    "narrative_md": "The brief's overview, in safe Markdown.",
    "items": "Its items, in the brief's order.",
    "rank": "Its place in the brief (1 first).",
    "overall": "Its overall score, 0 to 100 (the brief's picking order).",
    "relevance": "How well it matches the interests, 0 to 100.",
    "config": "The source's settings.",
    "item_count": "How many items it holds.",
    "added": "What was added.",
    "already_in_library": "What you already had.",
    "tier": "The plan (`free`, `basic`, `pro`, `team`).",
    "monthly_credits": "Credits granted each period by the plan.",
    "prefix": "The token's visible start, to tell tokens apart (never the secret).",
    "key": "Its key, as paths name it.",
    "saved": "Saved (for an item: whether you saved it; for counts: how many).",
    "not_interested": "Marked not interested (for an item: whether; for counts: how many).",
    "read": "Whether you read it.",
    "unread": "How many are unread.",
    "delivered": "How many were delivered.",
    "ignore_text": "Lines containing any of these are ignored when comparing.",
    "ignore_regex": "Text matching any of these regular expressions is ignored.",
    "ignore_numbers": "Whether changes of numbers alone are ignored.",
    "trigger_text": "With `trigger` appears/disappears: the text to look for.",
    "check_interval_minutes": "Minutes between checks (your plan sets the minimum).",
    "start_at": "No checks before this moment (ISO 8601 with an offset).",
    "end_at": "No checks after this moment (ISO 8601 with an offset).",
    "notify": "Where changes are told: `inbox`, `email`, `push`.",
    "data": "The event's content.",
    "channel": "How it is sent: `email`, `webhook` or `push`.",
    "event": "What it carries: a `brief`, or a `test`.",
    "enabled": "Whether it is used.",
    "endpoint": "The push service's address for this browser.",
    "keys": "The browser's push keys (from PushSubscription.toJSON()).",
    "email": "The account's e-mail address (its sign-in).",
    "address": "The e-mail address to give the newsletter.",
    "subject": "The message's subject.",
    "sender_email": "Who sent it.",
    "sender_name": "The sender's display name.",
    "kind": "What kind of ledger entry it is (one of the values listed).",
    "amount": "How many credits the entry moves (its `kind` says which way).",
    "balance_after": "The balance after this entry.",
    "breakdown": "What the amount is made of, by part.",
    "size_bytes": "The size of what was sent, in bytes.",
    "format": "The export format; `tidings-export@1`.",
    "content_states": "Your marks on items (read, saved, not interested).",
    "sources": "Sources.",
    "subscriptions": "Subscriptions.",
    "deliveries": "Its e-mail, webhook and push deliveries.",
    "editions": "Its latest editions, newest first.",
    "targets": "The ids of your Apprise targets to notify (an empty list: none).",
    "ids": "The item ids.",
    "deleted": "How many were deleted.",
    "limits": "What your plan allows.",
    "subscription_name": "The name of the subscription that delivered it.",
    # Counts of the staff statistics.
    "pending": "How many are queued.",
    "running": "How many are running.",
    "succeeded": "How many succeeded.",
    "failed": "How many failed.",
    "paused": "How many are paused.",
    "completed": "How many ran their once and are done.",
    "degraded": "How many fail now and then.",
    "disabled": "How many were turned off after failing.",
    "failing": "How many fail every time lately.",
    "staff": "How many are staff.",
    "joined_7d": "How many signed up in the last 7 days.",
    "signed_in_30d": "How many signed in within the last 30 days.",
    "all_time": "How many ever.",
    "ok": "How many fetches succeeded.",
    "not_modified": "How many fetches answered 304 (nothing new).",
    "fetches_24h": "Fetches in the last 24 hours, by outcome.",
    "users": "Accounts, by kind.",
    "runs": "Runs.",
    "fetch_health": "How fetching goes.",
    "llm": "What the model was asked and what it cost.",
    "daily_token_budget": "The model tokens allowed per day.",
    "calls_24h": "Model calls in the last 24 hours.",
    "calls_30d": "Model calls in the last 30 days.",
    "failed_30d": "Model calls that failed in the last 30 days.",
    "input_tokens_30d": "Model input tokens in the last 30 days.",
    "output_tokens_30d": "Model output tokens in the last 30 days.",
    # Estimates and plans.
    "per_run_max": "The most one run can cost, in credits.",
    "runs_per_month": "About how many runs in the next 30 days.",
    "per_month_max": "The most those runs can cost, in credits.",
    "balance": "Your credits now.",
    "fits_plan": "Whether the schedule and sources fit your plan.",
    "plan_refusal": "Why they do not fit your plan; empty when they do.",
    "min_interval_seconds": "The shortest time between scheduled runs the plan allows.",
    "manual_runs_per_hour": 'How many "run now" requests per hour the plan allows.',
    "private_topics": "Whether the plan may publish private topics.",
    # Imports.
    "message": "What went wrong, for people.",
    "fields": "What was wrong with which field.",
    "duplicate": "Outlines already in the file once.",
    "refused": "Outlines refused, each with the reason.",
    "outlines": "Every outline of the file and what became of it.",
    "sources_added": "Sources added to your library.",
    "sources_matched": "Sources you already had.",
    "sources_refused": "Sources refused (with the reason in the job).",
    "subscriptions_created": "Subscriptions created.",
    "subscriptions_matched": "Subscriptions you already had.",
    "subscriptions_paused_by_plan": "Subscriptions created paused: beyond your plan.",
    "runs_created": "Runs (briefs) created.",
    "runs_matched": "Runs you already had.",
    "runs_skipped_unfinished": "Runs left out: not finished when exported.",
    "run_items_created": "Brief items created.",
    "content_states_created": "Marks on items created.",
    "content_states_updated": "Marks on items changed.",
    "html_url": "The site the outline names, if any.",
    # Others.
    "confirm_url": "For a confirmation mail: the link to open yourself to confirm.",
    "dkim": "The DKIM check, e.g. `DKIM: pass (example.com)`; empty without a signature.",
    "by_subscription": "The same counts per subscription.",
    "language": "The language of its sources (e.g. `en`).",
    "feed_count": "How many feeds it holds.",
    "source_count": "How many sources it holds.",
    "installed": "Whether you have installed it.",
    "pack": "The pack's key.",
    "discovery_only": "A search source (it finds items at each run rather than holding a feed).",
    "above_min_score": "How many items scored at least `min_score`.",
    "dedup_skipped": "How many were left out as already delivered to you.",
    "selected": "The items a run would deliver now.",
    "subscription": "The subscription made to deliver it.",
    "item": "The page, as an item of the content pool.",
    "refresh_mode": "When it is searched: `on_run` (at every run that uses it).",
    "disabled_reason": "Why it was turned off; empty while enabled.",
    "consecutive_failures": "Failed sends in a row (reset by a success).",
    "secret_hint": "The end of the signing secret, to tell secrets apart.",
}


def describe_fields(result, generator, request, public):
    """drf-spectacular postprocessing hook: FIELDS into the properties without a description
    (a `$ref` property keeps its component's)."""
    for schema in result.get("components", {}).get("schemas", {}).values():
        for name, rule in schema.get("properties", {}).items():
            if not rule.get("description") and "$ref" not in rule and name in FIELDS:
                rule["description"] = FIELDS[name]
    return result
