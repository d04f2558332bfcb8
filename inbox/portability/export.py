"""The export: one JSON document (`tidings-export@1`) written as a stream of chunks.

Nothing builds the whole document: runs are read in keyset pages of `RUN_CHUNK` with their
items in one more query per page, content states in pages of `STATE_CHUNK`, so memory stays
flat however large the account is and the query count grows with pages, not rows.

Scopes (transfer codes choose one; a download is `everything`):
- `everything`: preferences, the library's folders (each source names its own), every source
  in the library or used by a subscription (a pack's,
  a followed topic's, the demo's: whatever a subscription references is in the document, or
  the document would not import), every subscription the owner has not deleted, every run of
  those with its items, every content state.
- `saved_recent`: saved items and the briefs of the last `RECENT_DAYS` days — the runs that
  finished in that window or hold a saved item, their subscriptions and sources, and the states
  of saved items and of items delivered in the window.
- `saved`: saved items only — the runs that hold one, with only those items, their
  subscriptions and sources, and the saved states.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from digests.models import Run, RunItem, Subscription, SubscriptionSource
from digests.subscriptions.service import EDITABLE_FIELDS
from inbox.models import TransferCode, UserContentState, UserPreference
from ingest.models import Folder, Source, UserSource

FORMAT = "tidings-export@1"
RUN_CHUNK = 500
STATE_CHUNK = 2000
RECENT_DAYS = 30
Scope = TransferCode.Scope

# What the owner set — digests.subscriptions.service.EDITABLE_FIELDS, the one list the console, the
# API and an import check (the webhook's address is added from its own table) — and what the
# subscription's history says.
# A feed an admin read from a file on this server (`ingest`, `demo`): listed, because a
# subscription references it, but without the server's path; an import refuses it by this mark.
LOCAL_FILE = {"local_file": True}

SUBSCRIPTION_FIELDS = (
    *(name for name in EDITABLE_FIELDS if name != "webhook_url"),
    "status",
    "paused_reason",
    "created_at",
    "deleted_at",
)
RUN_FIELDS = (
    "status",
    "trigger",
    "scheduled_at",
    "started_at",
    "finished_at",
    "output_locale",
    "narrative_md",
    "narrative_generator",
    "candidates_count",
    "selected_count",
    "delivered_count",
    "dedup_skipped_count",
    "redelivered_count",
    "empty_reason",
    "error",
    "error_code",
)
ITEM_FIELDS = (
    "title",
    "url",
    "summary",
    "summary_generator",
    "reason",
    "relevance",
    "overall",
    "rank",
    "source_name",
    "published_at",
    "redelivered",
    "delivered_at",
)
STATE_FIELDS = (
    "first_delivered_at",
    "last_delivered_at",
    "delivered_count",
    "opened_at",
    "read_at",
    "saved_at",
    "not_interested_at",
)


@dataclass(frozen=True)
class Selection:
    """What one scope takes: filters on runs, run items and content states."""

    scope: str
    runs: Q
    items: Q
    states: Q
    whole_library: bool


def selection_for(user, scope: str, *, now: datetime) -> Selection:
    saved = UserContentState.objects.filter(user=user, saved_at__isnull=False).values(
        "canonical_url_hash"
    )
    holds_saved = Q(pk__in=RunItem.objects.filter(canonical_url_hash__in=saved).values("run_id"))
    if scope == Scope.EVERYTHING:
        # A deleted subscription is gone for its owner: neither it nor its runs travel (an
        # import would otherwise count it as created while the reader never sees it).
        return Selection(
            scope, Q(subscription__deleted_at__isnull=True), Q(), Q(), whole_library=True
        )
    if scope == Scope.SAVED:
        return Selection(
            scope,
            holds_saved,
            Q(canonical_url_hash__in=saved),
            Q(saved_at__isnull=False),
            whole_library=False,
        )
    if scope == Scope.SAVED_AND_RECENT:
        since = now - timedelta(days=RECENT_DAYS)
        return Selection(
            scope,
            Q(finished_at__gte=since) | holds_saved,
            Q(),
            Q(saved_at__isnull=False) | Q(last_delivered_at__gte=since),
            whole_library=False,
        )
    raise ValueError(f"Unknown export scope {scope!r}.")


class _Encoder(json.JSONEncoder):
    """Instants in full (DjangoJSONEncoder cuts them to milliseconds: an import would then
    not reproduce them exactly)."""

    def default(self, o):
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def _json(value) -> str:
    return json.dumps(value, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))


def _array(name: str, rows: Iterator[dict], *, first: bool = False) -> Iterator[str]:
    yield ("" if first else ",") + f'"{name}":['
    for index, row in enumerate(rows):
        yield ("," if index else "") + _json(row)
    yield "]"


def _preferences(user) -> dict:
    preference = UserPreference.objects.filter(user=user).first()
    if preference is None:
        return {"ui_locale": settings.LANGUAGE_CODE, "timezone": "UTC", "locale_mode": "auto"}
    return {
        "ui_locale": preference.ui_locale,
        "timezone": preference.timezone,
        "locale_mode": preference.locale_mode,
    }


def _run_rows(user, selection: Selection) -> Iterator[dict]:
    """Runs in keyset pages: one query for a page of runs, one for all their items."""
    runs = Run.objects.filter(user=user).filter(selection.runs).order_by("pk")
    last = 0
    while True:
        page = list(
            runs.filter(pk__gt=last).values("pk", "subscription_id", *RUN_FIELDS)[:RUN_CHUNK]
        )
        if not page:
            return
        last = page[-1]["pk"]
        items: dict[int, list[dict]] = {}
        for item in (
            RunItem.objects.filter(run_id__in=[run["pk"] for run in page])
            .filter(selection.items)
            .order_by("run_id", "rank", "pk")
            .values("run_id", "item__canonical_url", *ITEM_FIELDS)
            .iterator(chunk_size=2000)
        ):
            run_id = item.pop("run_id")
            item["canonical_url"] = item.pop("item__canonical_url")
            items.setdefault(run_id, []).append(item)
        for run in page:
            run_id = run.pop("pk")
            yield {
                "id": run_id,
                "subscription": run.pop("subscription_id"),
                **run,
                "items": items.get(run_id, []),
            }


def _state_rows(user, selection: Selection) -> Iterator[dict]:
    states = UserContentState.objects.filter(user=user).filter(selection.states).order_by("pk")
    last = 0
    while True:
        page = list(
            states.filter(pk__gt=last).values(
                "pk", "item__canonical_url", "item__title", "last_run_id", *STATE_FIELDS
            )[:STATE_CHUNK]
        )
        if not page:
            return
        last = page[-1]["pk"]
        for row in page:
            del row["pk"]
            row["canonical_url"] = row.pop("item__canonical_url")
            row["title"] = row.pop("item__title")
            row["last_run"] = row.pop("last_run_id")
            yield row


def _subscriptions(user, selection: Selection) -> list[dict]:
    subscriptions = Subscription.objects.filter(owner=user)
    if selection.whole_library:
        subscriptions = subscriptions.alive()
    else:  # a deleted subscription comes only as the home of a saved item's run
        subscriptions = subscriptions.filter(
            pk__in=Run.objects.filter(user=user).filter(selection.runs).values("subscription_id")
        )
    rows = list(subscriptions.order_by("pk").values("pk", *SUBSCRIPTION_FIELDS))
    links: dict[int, list[dict]] = {}
    for link in SubscriptionSource.objects.filter(
        subscription_id__in=[row["pk"] for row in rows]
    ).values("subscription_id", "source_id", "enabled", "weight"):
        links.setdefault(link["subscription_id"], []).append(
            {"source": link["source_id"], "enabled": link["enabled"], "weight": link["weight"]}
        )
    webhooks = dict(
        Subscription.objects.filter(
            pk__in=[row["pk"] for row in rows], webhook__isnull=False
        ).values_list("pk", "webhook__url")
    )
    for row in rows:
        row["id"] = row.pop("pk")
        # The webhook's address comes along; its secret never does (a new one is made).
        row["webhook_url"] = webhooks.get(row["id"], "")
        row["sources"] = links.get(row["id"], [])
    return rows


def _sources(user, subscriptions: list[dict], selection: Selection) -> list[dict]:
    used = {link["source"] for row in subscriptions for link in row["sources"]}
    library: dict[int, tuple[str, str]] = {
        source_id: (label, folder or "")
        for source_id, label, folder in UserSource.objects.filter(user=user).values_list(
            "source_id", "display_name", "folder__name"
        )
    }
    wanted = used | (set(library) if selection.whole_library else set())
    rows = []
    for source in (
        Source.objects.filter(pk__in=wanted)
        .order_by("pk")
        .values("pk", "type", "config", "url", "title")
    ):
        if "file" in source["config"]:  # the server's path is nothing another instance can use
            source["config"], source["url"] = LOCAL_FILE, ""
        if source["type"] == Source.Type.NEWSLETTER:
            continue  # mail to an address of this instance's domain: it cannot move
        rows.append(
            {
                "id": source["pk"],
                "type": source["type"],
                "config": source["config"],
                "url": source["url"],
                "title": source["title"],
                "in_library": source["pk"] in library,
                "label": library.get(source["pk"], ("", ""))[0],
                "folder": library.get(source["pk"], ("", ""))[1],
            }
        )
    return rows


def _folders(user, sources: list[dict], selection: Selection) -> list[dict]:
    """Every folder of the library in a whole export (an empty one too); in a smaller scope,
    the folders of the sources it lists."""
    names = Folder.objects.filter(user=user).order_by("name", "pk").values_list("name", flat=True)
    if selection.whole_library:
        return [{"name": name} for name in names]
    used = {source["folder"] for source in sources if source["folder"]}
    return [{"name": name} for name in sorted(used)]


def stream_export(user, *, now: datetime, scope: str = Scope.EVERYTHING) -> Iterator[str]:
    """The user's export as text chunks; join them (or send them) in order."""
    selection = selection_for(user, scope, now=now)
    head = {
        "format": FORMAT,
        "exported_at": now,
        "instance": {"url": settings.SITE_URL, "software": "tidings"},
        "scope": scope,
        "account": {"id": user.pk, "email": user.email},
        "preferences": _preferences(user),
    }
    subscriptions = _subscriptions(user, selection)
    sources = _sources(user, subscriptions, selection)
    head["folders"] = _folders(user, sources, selection)
    yield _json(head)[:-1]  # the object stays open for the arrays that follow
    # A link to a source that cannot travel (a newsletter's address here) is left out with it:
    # every reference in the document resolves, so the document imports.
    listed = {source["id"] for source in sources}
    for row in subscriptions:
        row["sources"] = [link for link in row["sources"] if link["source"] in listed]
    yield from _array("sources", iter(sources))
    yield from _array("subscriptions", iter(subscriptions))
    yield from _array("runs", _run_rows(user, selection))
    yield from _array("content_states", _state_rows(user, selection))
    yield "}\n"


def encoded_chunks(chunks: Iterator[str], *, size: int = 64 * 1024) -> Iterator[bytes]:
    """UTF-8 bytes in blocks of about `size`: fewer, larger writes to the client."""
    buffer: list[str] = []
    length = 0
    for chunk in chunks:
        buffer.append(chunk)
        length += len(chunk)
        if length >= size:
            yield "".join(buffer).encode()
            buffer, length = [], 0
    if buffer:
        yield "".join(buffer).encode()


def export_bytes(user, *, now: datetime, scope: str = Scope.EVERYTHING) -> tuple[bytes, str]:
    """The whole export in memory and its SHA-256: for a transfer, whose checksum is recorded
    before the answer is sent (bounded by the import size cap on the other side)."""
    digest = hashlib.sha256()
    parts = []
    for block in encoded_chunks(stream_export(user, now=now, scope=scope)):
        digest.update(block)
        parts.append(block)
    return b"".join(parts), digest.hexdigest()
