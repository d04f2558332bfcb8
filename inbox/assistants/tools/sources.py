"""The reader's source library: list it, add a feed or a watched page, remove a source."""

from __future__ import annotations

from typing import Annotated, Literal

from django.shortcuts import get_object_or_404
from pydantic import Field

from config.api.errors import APIInputError
from inbox.assistants.arguments import validated
from inbox.assistants.registry import Answer, confirmed, now, tool
from inbox.assistants.untrusted import quoted, redact_url, untrusted
from ingest.library.api import AddSourceSerializer
from ingest.library.sources import SourceError, add_feed_by_url, remove_from_library
from ingest.models import UserSource
from ingest.pages.api import SavePageSerializer
from ingest.pages.service import ReadingListError, save_for_later
from ingest.watch.api import ListWatchInputSerializer
from ingest.watch.service import add_list_watch

Url = Annotated[str, Field(min_length=1, max_length=2048)]
DisplayName = Annotated[str, Field(max_length=300)]


def source_data(user_source: UserSource) -> dict:
    source = user_source.source
    return {
        "id": user_source.pk,
        "source_id": source.pk,
        "type": source.type,
        "url": redact_url(source.url),
        "display_name": user_source.display_name,
        "status": source.status,
        "last_refresh_at": source.last_refresh_at.isoformat() if source.last_refresh_at else None,
        **untrusted(title=source.title, last_error=source.last_error),
    }


def source_line(user_source: UserSource) -> str:
    source = user_source.source
    name = user_source.display_name or quoted(source.title, limit=100)
    return (
        f"- [source {source.pk}, library entry {user_source.pk}] {name} ({source.type}, "
        f"{source.status}) {redact_url(source.url)}"
    )


@tool(title="List sources")
def list_sources(caller) -> Answer:
    """The reader's source library (feeds, watched pages, crawls, searches, newsletters): use
    source_id in a subscription's source_ids."""
    rows = list(
        UserSource.objects.filter(user=caller.user).select_related("source").order_by("-added_at")
    )
    return Answer(
        "\n".join(source_line(row) for row in rows) or "The library is empty.",
        {"sources": [source_data(row) for row in rows]},
    )


def _refused(exc: SourceError):
    return APIInputError({exc.field: exc.message}, code=exc.code)


@tool(title="Add a source", write=True)
def add_source(
    caller,
    url: Url,
    kind: Literal["feed", "watched_page"] = "feed",
    display_name: DisplayName = "",
    selector: Annotated[
        str, Field(max_length=500, description="watched_page: CSS selector of the items.")
    ] = "",
) -> Answer:
    """Add a source to the library: a feed (or a site whose feed is found), or a watched page
    (a listing page whose new links become items). It is fetched once now."""
    moment = now()
    try:
        if kind == "feed":
            data = validated(AddSourceSerializer, {"url": url, "display_name": display_name})
            added = add_feed_by_url(
                caller.user, data["url"], now=moment, display_name=data["display_name"]
            )
        else:
            data = validated(
                ListWatchInputSerializer,
                {"url": url, "selector": selector, "display_name": display_name},
            )
            added = add_list_watch(
                caller.user,
                data["url"],
                selector=data["selector"],
                render=data["render"],
                now=moment,
                display_name=data["display_name"],
            )
    except SourceError as exc:
        raise _refused(exc) from None
    user_source = added.user_source
    verb = "Added" if added.created else "Already in the library"
    return Answer(
        f"{verb}: {source_line(user_source).removeprefix('- ')}",
        {"source": source_data(user_source), "created": added.created},
    )


@tool(title="Remove a source", write=True, destructive=True, confirm=True)
def remove_source(
    caller,
    library_entry_id: Annotated[int, Field(ge=1, description="`id` of list_sources.")],
    confirmation: Annotated[str, Field(max_length=1000)] = "",
) -> Answer:
    """Remove a source from the library (and from the subscriptions that read it). This takes a
    confirmation."""
    user_source = get_object_or_404(
        UserSource.objects.select_related("source"), pk=library_entry_id, user=caller.user
    )
    label = user_source.display_name or f"source {user_source.source_id}"
    ask = confirmed(
        caller,
        "remove_source",
        {"id": user_source.pk},
        confirmation,
        now=now(),
        consequence=f"This removes {label} ({redact_url(user_source.source.url)}) from the "
        "library and from every subscription that reads it.",
    )
    if ask:
        return ask
    remove_from_library(caller.user, user_source.pk)
    return Answer(f"Removed {label}.", {"removed": user_source.pk})


@tool(title="Save a page for later", write=True, confirm=True)
def save_page_for_later(
    caller,
    url: Url,
    when: Annotated[
        str,
        Field(
            max_length=100,
            description='When to deliver it, in the reader\'s time zone: "tomorrow 08:00", '
            '"today 18:30", "in 3 hours" or "2026-12-24 08:00".',
        ),
    ] = "tomorrow 08:00",
    confirmation: Annotated[str, Field(max_length=1000)] = "",
) -> Answer:
    """Save one page to the reading list: Tidings reads it now and delivers it once, as a brief
    of its own, into the Inbox at the time asked for. The delivery is a run (it spends
    credits), so this takes a confirmation."""
    data = validated(SavePageSerializer, {"url": url, "when": when})
    moment = now()
    ask = confirmed(
        caller,
        "save_page_for_later",
        {"url": data["url"], "when": data["when"]},
        confirmation,
        now=moment,
        consequence=f"This reads {redact_url(data['url'])} now and delivers it once into the "
        f"Inbox ({data['when']}): one run, charged like any run.",
    )
    if ask:
        return ask
    try:
        saved = save_for_later(caller.user, data["url"], when=data["when"], now=moment)
    except ReadingListError as exc:
        raise APIInputError(exc.errors, code=exc.code) from None
    subscription = saved.subscription
    title = saved.item.title if saved.item else ""
    at = subscription.next_run_at.isoformat() if subscription.next_run_at else None
    return Answer(
        f"Saved {quoted(title, limit=160)} ({redact_url(data['url'])}); it arrives at {at}.",
        {
            "subscription_id": subscription.pk,
            "deliver_at": at,
            "url": redact_url(data["url"]),
            **untrusted(title=title),
        },
    )
