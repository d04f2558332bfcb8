"""The Inbox: search what was delivered, read one item in full, mark items."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from django.shortcuts import get_object_or_404
from pydantic import Field

from config.api.errors import APIInputError
from digests.models import RunItem
from inbox.api import INBOX_PAGE_MAX, InboxQuerySerializer, _user_zone
from inbox.assistants.arguments import validated
from inbox.assistants.caller import stdio_process
from inbox.assistants.registry import Answer, now, tool
from inbox.assistants.shapes import item_data, item_line, item_row
from inbox.assistants.untrusted import UNTRUSTED_FIELD, quoted, redact_url, untrusted
from inbox.listing import Cursor, InboxFilter, inbox_page_rows, with_states
from inbox.page_cache import cached_tool_page
from inbox.states import MAX_BULK_ITEMS, BulkActionError, apply_bulk_action
from ingest.pool.bodies import read_body

FULL_TEXT_CHARS = 20_000


@tool(title="Search the Inbox")
def search_inbox(
    caller,
    q: Annotated[str, Field(max_length=200, description="Text in the title or source name.")] = "",
    state: Literal["all", "unread", "saved", "not_interested"] = "all",
    subscription_id: Annotated[int | None, Field(ge=1)] = None,
    run_id: Annotated[int | None, Field(ge=1)] = None,
    from_date: Annotated[
        str, Field(max_length=10, description="First day, YYYY-MM-DD, in the reader's time zone.")
    ] = "",
    to_date: Annotated[str, Field(max_length=10, description="Last day, included.")] = "",
    limit: Annotated[int, Field(ge=1, le=INBOX_PAGE_MAX)] = 20,
    cursor: Annotated[
        str, Field(max_length=100, description="next_cursor of the previous page.")
    ] = "",
) -> Answer:
    """Items delivered to the reader's Inbox, newest brief first, with the API's filters:
    text, state (unread, saved, not interested), subscription, brief, dates."""
    arguments = {"q": q, "state": state, "subscription": subscription_id, "run": run_id,
                 "from": from_date, "to": to_date, "limit": limit, "cursor": cursor}  # fmt: skip
    # While the reader's Inbox has not changed, the answer is the one kept for the same
    # arguments (inbox/page_cache.py), as the JSON API's list is: only a valid call's answer is
    # kept. Date filters depend on the time zone; a stdio process keeps its token (and the Inbox
    # version read with it) for the whole session.
    return cached_tool_page(
        caller.user,
        json.dumps(arguments, sort_keys=True),
        lambda: _search(caller.user, arguments),
        cacheable=not (from_date or to_date) and not stdio_process(),
    )


def _search(user, arguments: dict) -> Answer:
    query = {"state": arguments["state"]}
    for name in ("q", "subscription", "run", "from", "to"):
        if arguments[name]:
            query[name] = str(arguments[name])
    query = validated(InboxQuerySerializer, query)
    after = None
    if arguments["cursor"]:
        after = Cursor.parse(arguments["cursor"])
        if after is None:
            raise APIInputError({"cursor": "Not a cursor this server gave; leave it empty."})
    page = inbox_page_rows(
        user,
        InboxFilter(
            show=query["state"],
            subscription_id=query.get("subscription"),
            run_id=query.get("run"),
            text=query.get("q", "").strip(),
            since=query.get("from"),
            until=query.get("to"),
        ),
        after=after,
        # The zone only places the date filters' local days: no query without them.
        zone=_user_zone(user) if "from" in query or "to" in query else "UTC",
        page_size=arguments["limit"],
    )
    next_cursor = str(page.next_cursor) if page.next_cursor else None
    lines = [item_line(row) for row in page.items] or ["Nothing in the Inbox matches."]
    if next_cursor:
        lines.append(f'More: call search_inbox again with cursor="{next_cursor}".')
    return Answer(
        "\n".join(lines),
        {"items": [item_data(row) for row in page.items], "next_cursor": next_cursor},
    )


@tool(title="Read an item in full")
def read_item(
    caller,
    item_id: Annotated[int, Field(ge=1, description="An Inbox item id (item N in the lists).")],
) -> Answer:
    """One delivered item with its full extracted text (when the article could be read), its
    summary, score and why it was picked."""
    run_item = get_object_or_404(
        RunItem.objects.select_related("item"), pk=item_id, run__user=caller.user
    )
    with_states(caller.user, [run_item])
    body = read_body(run_item.item) or run_item.item.description
    truncated = len(body) > FULL_TEXT_CHARS
    body = body[:FULL_TEXT_CHARS]
    row = item_row(run_item)
    data = item_data(row)
    data[UNTRUSTED_FIELD] |= untrusted(full_text=body, author=run_item.item.author)[UNTRUSTED_FIELD]
    data["full_text_truncated"] = truncated
    text = (
        f"{item_line(row, with_summary=True)}\n"
        f"Full text{f' (first {FULL_TEXT_CHARS} characters)' if truncated else ''}: "
        f"{quoted(body) if body else '(not available; open ' + redact_url(run_item.url) + ')'}"
    )
    return Answer(text, {"item": data})


ACTION_WORDS = {
    "read": "marked read",
    "unread": "marked unread",
    "save": "saved",
    "unsave": "removed from saved",
    "not_interested": "marked not interested (later briefs learn from it)",
    "interested": "no longer marked not interested",
}


@tool(title="Mark items", write=True)
def mark_items(
    caller,
    item_ids: Annotated[
        list[int], Field(min_length=1, max_length=MAX_BULK_ITEMS, description="Inbox item ids.")
    ],
    action: Literal["read", "unread", "save", "unsave", "not_interested", "interested"],
) -> Answer:
    """Mark Inbox items read or unread, save or unsave them, or say not interested (which the
    next briefs learn from). All or nothing: if any id is not one of the reader's items,
    nothing changes."""
    try:
        ids = apply_bulk_action(caller.user, list(item_ids), action, now=now())
    except BulkActionError as exc:
        raise APIInputError(exc.errors) from None
    return Answer(
        f"{len(ids)} item(s) {ACTION_WORDS.get(action, action)}.",
        {"action": action, "count": len(ids), "ids": ids},
    )
