"""A brief's narrative as one item of its own in the reading apps, in a feed "Briefs".

A brief is a succeeded Run with a narrative. Its item id is BASE + the run's id: above every
Inbox item's id (RunItem ids), so one number space serves both protocols' ids and
continuations — a page walks the briefs and then the items (newest first), or the other way
round (oldest first). Read and starred are kept on the run (Run.narrative_read_at and
narrative_saved_at): a brief is not a content item, so it has no UserContentState.
"""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from config.moments import moment
from digests.models import Run
from digests.narrative.markdown import render
from inbox.readerapi import streams
from inbox.states import BulkActionError

# 2**40: far above any RunItem id this database will reach, and below 2**53, so apps that
# keep ids as JavaScript numbers (Fever clients) read them exactly.
BASE = 2**40
FEED = streams.BRIEFS_FEED
STATES = {
    "read": ("narrative_read_at", True),
    "unread": ("narrative_read_at", False),
    "save": ("narrative_saved_at", True),
    "unsave": ("narrative_saved_at", False),
}


def title() -> str:
    return _("Briefs")


def is_brief(item_id: int) -> bool:
    return item_id >= BASE


def item_id(run: Run) -> int:
    return BASE + run.pk


def all_briefs(user):
    return Run.objects.filter(user=user, status=Run.Status.SUCCEEDED).exclude(narrative_md="")


def in_stream(user, stream_id: str):
    """The briefs of a stream: the reading list and the Briefs feed hold them all, the state
    streams those in that state; every other stream (a subscription, a label) none."""
    stream_id = streams.normalize(stream_id)
    if stream_id in (streams.READING_LIST, FEED):
        return all_briefs(user)
    if stream_id == streams.STARRED:
        return all_briefs(user).filter(narrative_saved_at__isnull=False)
    if stream_id == streams.READ:
        return all_briefs(user).filter(narrative_read_at__isnull=False)
    return all_briefs(user).none()


def exclude_stream(user, runs, stream_id: str):
    """`xt` for briefs (the items' side is streams.exclude_stream)."""
    return runs.exclude(pk__in=in_stream(user, stream_id).values("pk"))


def include_stream(user, runs, stream_id: str):
    return runs.filter(pk__in=in_stream(user, stream_id).values("pk"))


def unread(runs):
    return runs.filter(narrative_read_at__isnull=True)


def delivered_between(runs, since: datetime | None = None, before: datetime | None = None):
    if since is not None:
        runs = runs.filter(finished_at__gte=since)
    if before is not None:
        runs = runs.filter(finished_at__lt=before)
    return runs


def after(runs, item: int, *, oldest_first: bool):
    """The briefs after a continuation (an item id of either kind) in the walk's order."""
    run_id = item - BASE
    return runs.filter(pk__gt=run_id) if oldest_first else runs.filter(pk__lt=run_id)


def mark(user, ids: list[int], action: str, *, now: datetime) -> None:
    """`action` (read, unread, save, unsave) on the user's briefs `ids`, all or none."""
    runs = all_briefs(user).filter(pk__in=[i - BASE for i in ids])
    found = {item_id(run) for run in runs.only("id")}
    if missing := [i for i in ids if i not in found]:
        raise BulkActionError(
            {"ids": _("Not briefs of yours: %(ids)s.") % {"ids": ", ".join(map(str, missing))}}
        )
    field, on = STATES[action]
    runs.update(**{field: now if on else None})


def mark_read(runs, *, now: datetime) -> int:
    return unread(runs).update(narrative_read_at=now)


def mark_opened(user, run: Run, *, now: datetime) -> None:
    """Reading a brief on its console page reads it for the reading apps too (as opening an
    Inbox item does). The first opening's time stays: a second visit changes nothing."""
    if run.narrative_md and run.status == Run.Status.SUCCEEDED and run.narrative_read_at is None:
        mark_read(all_briefs(user).filter(pk=run.pk), now=now)
        run.narrative_read_at = now


def html(run: Run, link: str) -> str:
    return str(
        format_html(
            '{}<p><a href="{}">{}</a></p>', render(run.narrative_md), link, _("Open the brief")
        )
    )


def heading(run: Run) -> str:
    return f"{run.subscription.name} · {moment(run.scheduled_at, run.subscription.timezone)}"


def link(request, run: Run) -> str:
    return request.build_absolute_uri(reverse("inbox:run", args=[run.pk]))
