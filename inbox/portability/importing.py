"""The import of a `tidings-export@1` document into an account (SPEC §13).

The document is read piece by piece from a file (inbox/portability/reader.py), in passes, so
memory stays flat however large it is: only its top-level members, its sources and its
subscriptions (at most 10,000 and 500) are held; runs and content states are read one at a
time, and written 250 runs / 1,000 states at a time.

Order of checks, all before anything is written:
1. size (`IMPORT_MAX_BYTES`, else 413 `too_large`), UTF-8 and JSON (the API's own JSON rules:
   no NUL, no lone surrogates, no key twice, at most 20 levels deep);
2. the format: `"format": "tidings-export@1"` (anything else: 400 `unsupported_format`);
3. the whole document against `export.schema.json`, then the references inside it (a run's
   subscription, a subscription's sources) and every subscription's settings through the same
   `digests.subscriptions.service.clean_input` the console and API use. A document imported before
   (its SHA-256) is recognised after step 2 and changes nothing.

Then one transaction writes everything, or nothing:
- sources go through the source services' own checks — a feed's address through the fetch
  policy's rules (`ingest.library.opml.check_feed_url`), a watched list's selector, a crawl's
  settings, a search's provider — and into the library (`add_sources_to_library`); a refused one
  is reported by address and left out, like an OPML outline; the library's folders are matched
  by name (whatever its case) or made, and each source filed into its own unless the account
  already filed it;
- subscriptions are created with their settings (scheduled from now on; paused when the document
  is not a full export, and beyond the plan's limits paused the way a downgrade pauses them);
- runs become history: `trigger = imported`, their own finished status (unfinished ones are
  skipped), never claimed, retried, delivered or charged; their items keep their snapshots;
- content states fill what the account does not know yet and never overwrite.

Idempotent: the same document a second time is recognised by its SHA-256 (`ImportRecord`) and
changes nothing; another export of the same account adds only what is new, because every
imported subscription and run is remembered by (exporting instance, account, id) in
`ImportedRow`. Items a run delivered are matched in the shared pool by canonical URL; an item
the pool does not have is added as a `filtered` placeholder (title and address only), which no
run, search or page ever shows — it comes alive only when a source really sees it.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import BinaryIO

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework import status

from billing import limits
from config.api.errors import ServiceRefusal
from digests.delivery import endpoints
from digests.models import Run, RunItem, Subscription, SubscriptionSource
from digests.narrative.reasons import parse as parse_reason
from digests.schedules.next_run import ScheduleError, next_run_after, validate_timezone
from digests.subscriptions.service import EDITABLE_FIELDS, SubscriptionInputError, clean_input
from inbox.models import ImportedRow, ImportRecord, UserContentState, UserPreference
from inbox.page_cache import inbox_changed
from inbox.portability import reader
from inbox.portability.export import FORMAT
from inbox.portability.schema import SchemaError, export_schema, parse_datetime, validate
from ingest.canonical import InvalidURL, canonicalize_url, url_hash
from ingest.crawl.service import clean_crawl_input
from ingest.library.bulk_add import SourceSpec, add_sources_to_library
from ingest.library.folders import file_entries, folders_named
from ingest.library.input import SourceInputError
from ingest.library.opml import RefusedURL, check_feed_url
from ingest.library.sources import SourceError
from ingest.models import ContentItem, Source
from ingest.search.service import clean_search_input
from ingest.watch.listing import ListingError, check_selector
from ingest.watch.service import RENDER_MODES

# The most subscriptions one document may bring: the largest plan's limit.
MAX_SUBSCRIPTIONS = max(tier_limits.subscriptions for tier_limits in limits.LIMITS.values())
BATCH = 1000
# Runs are written a page at a time: 250 runs of up to 30 items stay a few MB in memory.
RUN_BATCH = 250
FINISHED = (Run.Status.SUCCEEDED, Run.Status.FAILED)


class ImportRefused(ServiceRefusal):
    """The document is refused as a whole; nothing was written."""


class ImportTooLarge(ImportRefused):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    code = "too_large"


class UnsupportedFormat(ImportRefused):
    code = "unsupported_format"


class ImportConflict(ImportRefused):
    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


@dataclass
class ImportSummary:
    already_imported: bool = False
    sources_added: int = 0
    sources_matched: int = 0
    sources_refused: list[dict] = field(default_factory=list)
    subscriptions_created: int = 0
    subscriptions_matched: int = 0
    subscriptions_paused_by_plan: int = 0
    runs_created: int = 0
    runs_matched: int = 0
    runs_skipped_unfinished: int = 0
    run_items_created: int = 0
    content_states_created: int = 0
    content_states_updated: int = 0
    checksum: str = ""

    def as_dict(self) -> dict:
        return dict(vars(self))


def max_import_bytes() -> int:
    return settings.IMPORT_MAX_BYTES


MAX_SOURCES = 10_000


def _too_large(limit: int) -> ImportTooLarge:
    return ImportTooLarge(
        {
            "file": _(
                "The export is larger than %(limit)s bytes, the most one import takes "
                "(IMPORT_MAX_BYTES). Export with a smaller scope, or ask the operator."
            )
            % {"limit": f"{limit:,}"}
        }
    )


@dataclass
class Document:
    """An export being imported: its top-level members and its two short lists in memory,
    its runs and content states read from `stream` one at a time whenever they are needed."""

    stream: BinaryIO
    checksum: str
    head: dict
    sources: list[dict]
    subscriptions: list[dict]

    def runs(self) -> Iterator[tuple[int, dict]]:
        return reader.items(self.stream, "runs")

    def content_states(self) -> Iterator[tuple[int, dict]]:
        return reader.items(self.stream, "content_states")

    @property
    def scope(self) -> str:
        return self.head["scope"]


def _refused(exc: reader.DocumentError) -> ImportRefused:
    refusal = ImportRefused({exc.field: exc.message}, message=exc.message)
    refusal.code = exc.code  # parse_error, bad_text, too_deep: the API's own words
    return refusal


def open_document(source: bytes | BinaryIO) -> Document:
    """The document once its size, its JSON and its format are right (in that order); not yet
    checked whole (`check_document`). Reads it once."""
    stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    limit = max_import_bytes()
    checksum, size = reader.sha256_and_size(stream)
    if size > limit:
        raise _too_large(limit)
    head: dict = {}
    kept: dict[str, list] = {"sources": [], "subscriptions": []}
    caps = {"sources": MAX_SOURCES, "subscriptions": MAX_SUBSCRIPTIONS}
    whole = None
    try:
        for kind, where, value in reader.events(stream):
            if kind == "member" and where is None:
                whole = value  # not a JSON object at all
            elif kind == "member":
                head[where] = value
            elif kind == "item" and where[0] in kept:
                if len(kept[where[0]]) >= caps[where[0]]:
                    raise ImportRefused(
                        {
                            where[0]: _("At most %(count)d %(what)s.")
                            % {"count": caps[where[0]], "what": where[0]}
                        }
                    )
                kept[where[0]].append(value)
    except reader.DocumentError as exc:
        raise _refused(exc) from None
    if whole is not None or not head:
        raise UnsupportedFormat({"format": _("An export is a JSON object with a `format`.")})
    if head.get("format") != FORMAT:
        given = head.get("format")
        raise UnsupportedFormat(
            {
                "format": _("Unknown export format %(given)s; this Tidings reads %(known)s.")
                % {"given": repr(given)[:80] if given is not None else _("(none)"), "known": FORMAT}
            }
        )
    return Document(stream, checksum, head, kept["sources"], kept["subscriptions"])


def check_document(document: Document) -> None:
    """Every part against the schema and every reference inside the document; reads the runs
    and states once more, one at a time."""
    root = export_schema()
    try:
        validate(document.head)
        for name in ("sources", "subscriptions"):
            rule = root["properties"][name]["items"]
            for index, entry in enumerate(getattr(document, name)):
                validate(entry, rule, (name, index))
        _check_subscription_references(document)
        subscription_ids = {entry["id"] for entry in document.subscriptions}
        run_rule = root["properties"]["runs"]["items"]
        run_ids: set[int] = set()
        for index, run in document.runs():
            validate(run, run_rule, ("runs", index))
            if run["subscription"] not in subscription_ids:
                raise ImportRefused(
                    {f"runs.{index}.subscription": _("Not a subscription of this document.")}
                )
            if run["id"] in run_ids:
                raise ImportRefused({f"runs.{index}.id": _("The same id twice.")})
            run_ids.add(run["id"])
        state_rule = root["properties"]["content_states"]["items"]
        for index, state in document.content_states():
            validate(state, state_rule, ("content_states", index))
    except SchemaError as exc:
        raise ImportRefused({exc.path: exc.message}) from None
    except reader.DocumentError as exc:  # the file changed under us
        raise _refused(exc) from None


def _check_subscription_references(document: Document) -> None:
    source_ids = {source["id"] for source in document.sources}
    subscription_ids = set()
    for index, subscription in enumerate(document.subscriptions):
        if subscription["id"] in subscription_ids:
            raise ImportRefused({f"subscriptions.{index}.id": _("The same id twice.")})
        subscription_ids.add(subscription["id"])
        for link_index, link in enumerate(subscription["sources"]):
            if link["source"] not in source_ids:
                raise ImportRefused(
                    {
                        f"subscriptions.{index}.sources.{link_index}.source": _(
                            "Not a source of this document."
                        )
                    }
                )


# --- Sources ----------------------------------------------------------------------------------


def _source_spec(entry: dict) -> SourceSpec:
    """The shared source an exported one stands for, checked by its kind's own rules (the
    fetch policy's for every address). Raises SourceError, RefusedURL or ValueError."""
    config = entry["config"]
    kind = entry["type"]
    if config.get("local_file"):
        raise SourceError(
            _(
                "A feed the exporting server read from a local file: "
                "it cannot move to another place."
            )
        )
    if kind in (Source.Type.FEED, Source.Type.PAGE):
        url = check_feed_url(str(config.get("url") or entry["url"]))
        return SourceSpec(type=kind, config={"url": url}, url=url)
    if kind == Source.Type.LIST:
        url = check_feed_url(str(config.get("url") or entry["url"]))
        try:
            selector = check_selector(str(config.get("selector") or ""))
        except ListingError as exc:
            raise SourceError(exc.message, field=exc.field) from None
        render = str(config.get("render") or "http")
        if render not in RENDER_MODES:
            raise SourceError(_("Unknown render mode %(mode)r.") % {"mode": render[:20]})
        return SourceSpec(
            type=kind, config={"url": url, "selector": selector, "render": render}, url=url
        )
    if kind == Source.Type.CRAWL:
        check_feed_url(str(config.get("url") or ""))
        crawl = clean_crawl_input(
            config.get("url"),
            include=config.get("include") or (),
            exclude=config.get("exclude") or (),
            max_depth=config.get("max_depth"),
            limit=config.get("limit"),
        )
        return SourceSpec(type=kind, config=crawl.as_json(), url=crawl.url, site_url=crawl.url)
    if kind == Source.Type.SEARCH:
        query, provider = clean_search_input(config.get("query"), config.get("provider"))
        return SourceSpec(
            type=kind,
            config={"provider": provider, "query": query},
            title=entry["title"],
            refresh_mode=Source.RefreshMode.ON_RUN,
        )
    raise ValueError(kind)


def _import_sources(user, document: Document, summary: ImportSummary, *, now) -> dict[int, int]:
    """Exported source id -> local source id, for the sources that were accepted."""
    wanted: list[tuple[SourceSpec, str]] = []
    spec_of: dict[int, SourceSpec] = {}
    for entry in document.sources:
        try:
            spec = _source_spec(entry)
        except SourceInputError as exc:
            reason = "; ".join(f"{k}: {v}" for k, v in exc.errors.items())
        except (SourceError, RefusedURL, ValueError, TypeError) as exc:
            reason = getattr(exc, "message", None) or str(exc)
        else:
            spec_of[entry["id"]] = spec
            wanted.append((spec, entry["label"]))
            continue
        summary.sources_refused.append(
            {"id": entry["id"], "type": entry["type"], "url": entry["url"], "reason": reason}
        )
    additions = {a.spec.key: a for a in add_sources_to_library(user, wanted, now=now)}
    for addition in additions.values():
        if addition.created:
            summary.sources_added += 1
        else:
            summary.sources_matched += 1
    _import_folders(user, document, additions, spec_of, now=now)
    return {
        exported: additions[spec.key].user_source.source_id for exported, spec in spec_of.items()
    }


def _import_folders(user, document: Document, additions: dict, spec_of: dict, *, now) -> None:
    """The document's folders (an empty one too), matched by name whatever its case or made,
    and each accepted source filed into its own unless the account already filed it. A document
    from before folders has neither: nothing happens."""
    folders_named(user, [folder["name"] for folder in document.head.get("folders", ())], now=now)
    file_entries(
        user,
        {
            additions[spec_of[entry["id"]].key].user_source.pk: entry["folder"]
            for entry in document.sources
            if entry.get("folder") and entry["id"] in spec_of
        },
        now=now,
    )


# --- Subscriptions ----------------------------------------------------------------------------

# Every setting an export carries (digests.subscriptions.service.EDITABLE_FIELDS) but `run_at`,
# which a past one-off changes (below), and `sections`, which older @1 documents lack.
_SETTINGS = tuple(name for name in EDITABLE_FIELDS if name not in ("run_at", "sections"))


def _origin_key(document: Document) -> str:
    """Who exported: the instance and its account, hashed to a short stable key."""
    origin = f"{document.head['instance']['url']}|{document.head['account']['id']}"
    return hashlib.sha256(origin.encode()).hexdigest()[:20]


def _pages(entries: Iterator[tuple[int, dict]], size: int) -> Iterator[list[tuple[int, dict]]]:
    page: list[tuple[int, dict]] = []
    for entry in entries:
        page.append(entry)
        if len(page) == size:
            yield page
            page = []
    if page:
        yield page


def _known(user, kind: str, keys: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for start in range(0, len(keys), BATCH):
        found |= dict(
            ImportedRow.objects.filter(
                user=user, kind=kind, key__in=keys[start : start + BATCH]
            ).values_list("key", "local_id")
        )
    return found


def _clean_subscription(user, entry: dict, index: int, local_sources: list[int], *, now):
    data = {name: entry[name] for name in _SETTINGS}
    if "sections" in entry:  # written since the section filter; older documents lack it
        data["sections"] = entry["sections"]
    data["source_ids"] = local_sources
    run_at = parse_datetime(entry["run_at"]) if entry["run_at"] else None
    past_one_off = not entry["cron"] and run_at is not None and run_at <= now
    # A one-off delivery that already happened is history: checked as if it were still to
    # come, then kept with its own time and `completed`.
    data["run_at"] = now + timedelta(days=1) if past_one_off else run_at
    try:
        clean = clean_input(data, user=user, now=now)
    except SubscriptionInputError as exc:
        raise ImportRefused(
            {f"subscriptions.{index}.{name}": message for name, message in exc.errors.items()}
        ) from None
    if past_one_off:
        clean["run_at"] = run_at
    return clean, past_one_off


def _import_subscriptions(
    user,
    document: Document,
    sources: dict[int, int],
    summary: ImportSummary,
    created_times: dict[int, datetime],
    *,
    now,
) -> dict[int, int]:
    origin = _origin_key(document)
    keys = {entry["id"]: f"{origin}:{entry['id']}" for entry in document.subscriptions}
    known = _known(user, "subscription", list(keys.values()))
    alive = set(
        Subscription.objects.filter(owner=user, pk__in=list(known.values())).values_list(
            "pk", flat=True
        )
    )
    mapping: dict[int, int] = {}
    full = document.scope == "everything"
    for index, entry in enumerate(document.subscriptions):
        local = known.get(keys[entry["id"]])
        if local in alive:
            mapping[entry["id"]] = local
            summary.subscriptions_matched += 1
            continue
        links = [link for link in entry["sources"] if link["source"] in sources]
        clean, past_one_off = _clean_subscription(
            user, entry, index, [sources[link["source"]] for link in links], now=now
        )
        clean.pop("source_ids", None)
        webhook_url = clean.pop("webhook_url", "")
        state = entry["status"]
        if past_one_off or state == Subscription.Status.COMPLETED:
            state = Subscription.Status.COMPLETED
        elif not full:
            # Part of an account (saved items, recent briefs): its subscriptions come as the
            # home of that history, not as new schedules nobody asked this instance to run.
            state = Subscription.Status.PAUSED
        subscription = Subscription(
            owner=user,
            **clean,
            status=state,
            paused_reason="" if state != Subscription.Status.PAUSED else entry["paused_reason"],
            deleted_at=parse_datetime(entry["deleted_at"]) if entry["deleted_at"] else None,
        )
        if subscription.status == Subscription.Status.ACTIVE and subscription.deleted_at is None:
            subscription.next_run_at = (
                next_run_after(subscription.cron, subscription.timezone, now)
                if subscription.cron
                else subscription.run_at
            )
        subscription.save()
        created_times[subscription.pk] = parse_datetime(entry["created_at"])
        SubscriptionSource.objects.bulk_create(
            [
                SubscriptionSource(
                    subscription=subscription,
                    source_id=sources[link["source"]],
                    enabled=link["enabled"],
                    weight=link["weight"],
                )
                for link in links
            ],
            ignore_conflicts=True,
        )
        if webhook_url and subscription.deleted_at is None:
            endpoints.set_url(subscription, webhook_url, now=now)  # with a secret of its own
        ImportedRow.objects.update_or_create(
            user=user,
            kind="subscription",
            key=keys[entry["id"]],
            defaults={"local_id": subscription.pk},
        )
        mapping[entry["id"]] = subscription.pk
        summary.subscriptions_created += 1
    return mapping


# --- Items of the pool ------------------------------------------------------------------------


def _canonical(url: str, where: str) -> str:
    try:
        canonical = canonicalize_url(url)
    except (InvalidURL, ValueError) as exc:
        raise ImportRefused({where: _("Not a usable address: %(why)s") % {"why": exc}}) from None
    if not canonical.startswith(("http://", "https://")) or len(canonical) > 2048:
        raise ImportRefused({where: _("Must be an http or https address.")})
    return canonical


def _pool_items(wanted: dict[str, tuple[str, str]], *, now) -> dict[str, int]:
    """canonical hash -> ContentItem id for {hash: (canonical URL, title)}; missing items are
    added as filtered placeholders (never candidates, never listed)."""
    hashes = list(wanted)
    found: dict[str, int] = {}
    for start in range(0, len(hashes), BATCH):
        found |= dict(
            ContentItem.objects.filter(
                canonical_url_hash__in=hashes[start : start + BATCH]
            ).values_list("canonical_url_hash", "id")
        )
    missing = [digest for digest in hashes if digest not in found]
    if missing:
        ContentItem.objects.bulk_create(
            [
                ContentItem(
                    canonical_url=wanted[digest][0],
                    canonical_url_hash=digest,
                    title=wanted[digest][1][:500],
                    first_seen_at=now,
                    last_seen_at=now,
                    status=ContentItem.Status.FILTERED,
                )
                for digest in missing
            ],
            batch_size=BATCH,
            ignore_conflicts=True,
        )
        for start in range(0, len(missing), BATCH):
            found |= dict(
                ContentItem.objects.filter(
                    canonical_url_hash__in=missing[start : start + BATCH]
                ).values_list("canonical_url_hash", "id")
            )
    return found


# --- Runs ---------------------------------------------------------------------------------------

_RUN_COPIED = (
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


def _when(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def _import_runs(
    user, document: Document, subscriptions: dict[int, int], summary: ImportSummary, *, now
) -> dict[int, int]:
    """Exported run id -> local run id, for the runs imported now or before."""
    origin = _origin_key(document)
    mapping: dict[int, int] = {}
    for page in _pages(document.runs(), RUN_BATCH):
        keys = {run["id"]: f"{origin}:{run['id']}" for _index, run in page}
        known = _known(user, "run", list(keys.values()))
        new_runs: list[tuple[int, dict]] = []
        for index, run in page:
            if keys[run["id"]] in known:
                mapping[run["id"]] = known[keys[run["id"]]]
                summary.runs_matched += 1
            elif run["status"] not in FINISHED:
                summary.runs_skipped_unfinished += 1
            else:
                new_runs.append((index, run))
        if not new_runs:
            continue
        wanted: dict[str, tuple[str, str]] = {}
        item_hashes: list[list[str]] = []
        for index, run in new_runs:
            hashes = []
            for item_index, item in enumerate(run["items"]):
                canonical = _canonical(
                    item["canonical_url"], f"runs.{index}.items.{item_index}.canonical_url"
                )
                digest = url_hash(canonical)
                if digest in hashes:
                    raise ImportRefused(
                        {
                            f"runs.{index}.items.{item_index}.canonical_url": _(
                                "The same item twice in one run."
                            )
                        }
                    )
                hashes.append(digest)
                wanted.setdefault(digest, (canonical, item["title"]))
            item_hashes.append(hashes)
        pool = _pool_items(wanted, now=now)
        rows = [
            Run(
                subscription_id=subscriptions[run["subscription"]],
                user=user,
                status=run["status"],
                trigger=Run.Trigger.IMPORTED,
                scheduled_at=_when(run["scheduled_at"]),
                started_at=_when(run["started_at"]),
                finished_at=_when(run["finished_at"]) or _when(run["scheduled_at"]),
                **{name: run[name] for name in _RUN_COPIED},
            )
            for _index, run in new_runs
        ]
        Run.objects.bulk_create(rows, batch_size=BATCH)
        mapping |= {run["id"]: row.pk for (_index, run), row in zip(new_runs, rows, strict=True)}
        ImportedRow.objects.bulk_create(
            [
                ImportedRow(user=user, kind="run", key=keys[run["id"]], local_id=row.pk)
                for (_index, run), row in zip(new_runs, rows, strict=True)
            ],
            batch_size=BATCH,
        )
        items = [
            RunItem(
                run=row,
                item_id=pool[digest],
                canonical_url_hash=digest,
                relevance=item["relevance"],
                overall=item["overall"],
                reason=item["reason"],
                # Its parts where the text reads back into them, so it is shown in the
                # reader's language; else the text as exported (digests.narrative.reasons).
                why=parse_reason(item["reason"], published_at=_when(item["published_at"]), zone="")
                or [],
                rank=item["rank"],
                title=item["title"],
                url=item["url"],
                summary=item["summary"],
                summary_generator=item["summary_generator"],
                source_name=item["source_name"],
                published_at=_when(item["published_at"]),
                redelivered=item["redelivered"],
                delivered_at=_when(item["delivered_at"]),
            )
            for (_index, run), row, hashes in zip(new_runs, rows, item_hashes, strict=True)
            for item, digest in zip(run["items"], hashes, strict=True)
        ]
        RunItem.objects.bulk_create(items, batch_size=BATCH)
        summary.runs_created += len(rows)
        summary.run_items_created += len(items)
    return mapping


# --- Content states -----------------------------------------------------------------------------

_STATE_TIMES = (
    "first_delivered_at",
    "last_delivered_at",
    "opened_at",
    "read_at",
    "saved_at",
    "not_interested_at",
)


def _import_states(
    user, document: Document, runs: dict[int, int], summary: ImportSummary, *, now
) -> None:
    for page in _pages(document.content_states(), BATCH):
        by_hash: dict[str, dict] = {}
        wanted: dict[str, tuple[str, str]] = {}
        for index, state in page:
            canonical = _canonical(state["canonical_url"], f"content_states.{index}.canonical_url")
            digest = url_hash(canonical)
            by_hash.setdefault(digest, state)
            wanted.setdefault(digest, (canonical, state["title"]))
        existing = {
            row.canonical_url_hash: row
            for row in UserContentState.objects.filter(
                user=user, canonical_url_hash__in=list(by_hash)
            )
        }
        pool = _pool_items({d: v for d, v in wanted.items() if d not in existing}, now=now)
        new_rows = [
            UserContentState(
                user=user,
                canonical_url_hash=digest,
                item_id=pool[digest],
                delivered_count=state["delivered_count"],
                last_run_id=runs.get(state["last_run"]),
                **{name: _when(state[name]) for name in _STATE_TIMES},
                updated_at=now,
            )
            for digest, state in by_hash.items()
            if digest not in existing
        ]
        UserContentState.objects.bulk_create(new_rows, batch_size=BATCH)
        summary.content_states_created += len(new_rows)
        changed = []
        for digest, row in existing.items():
            state = by_hash[digest]
            # Fill what this account does not know; what it already says stands.
            filled = [
                name
                for name in _STATE_TIMES
                if getattr(row, name) is None and state[name] is not None
            ]
            for name in filled:
                setattr(row, name, _when(state[name]))
            if row.last_run_id is None and runs.get(state["last_run"]) is not None:
                row.last_run_id = runs[state["last_run"]]
                filled.append("last_run")
            if filled:
                row.updated_at = now
                changed.append(row)
        if changed:
            UserContentState.objects.bulk_update(
                changed, [*_STATE_TIMES, "last_run", "updated_at"], batch_size=BATCH
            )
            summary.content_states_updated += len(changed)


def _import_preferences(user, document: Document) -> None:
    wanted = document.head["preferences"]
    preference, _created = UserPreference.objects.get_or_create(user=user)
    changed = []
    if (
        wanted["ui_locale"] in dict(settings.LANGUAGES)
        and preference.ui_locale != wanted["ui_locale"]
    ):
        preference.ui_locale = wanted["ui_locale"]
        changed.append("ui_locale")
    if preference.locale_mode != wanted["locale_mode"]:
        preference.locale_mode = wanted["locale_mode"]
        changed.append("locale_mode")
    try:
        validate_timezone(wanted["timezone"])
    except ScheduleError:
        pass  # a zone this server does not know: keep the account's own
    else:
        if preference.timezone != wanted["timezone"]:
            preference.timezone = wanted["timezone"]
            changed.append("timezone")
    if changed:
        preference.save(update_fields=changed)


# --- The whole import ---------------------------------------------------------------------------


def import_export(
    user,
    source: bytes | BinaryIO,
    *,
    now: datetime,
    origin: str = ImportRecord.Origin.UPLOAD,
) -> ImportSummary:
    """Import the export in `source` (bytes, or a binary file it may read several times) into
    `user`'s account: all of it, or nothing."""
    document = open_document(source)
    summary = ImportSummary(checksum=document.checksum)
    if ImportRecord.objects.filter(user=user, checksum=document.checksum).exists():
        summary.already_imported = True  # checked again under the lock below
        return summary
    check_document(document)
    try:
        with transaction.atomic():
            # One import at a time per account (the plan's limits are counted under this lock).
            account = limits.lock_account(user.pk, now=now)
            if ImportRecord.objects.filter(user=user, checksum=document.checksum).exists():
                summary.already_imported = True
                return summary
            _import_preferences(user, document)
            sources = _import_sources(user, document, summary, now=now)
            created_times: dict[int, datetime] = {}
            subscriptions = _import_subscriptions(
                user, document, sources, summary, created_times, now=now
            )
            # The plan's limits as a downgrade applies them: what does not fit is paused, never
            # refused. The imported ones count as the newest, so the account's own stay active.
            summary.subscriptions_paused_by_plan = len(limits.enforce(account, now=now))
            for pk, created_at in created_times.items():
                Subscription.objects.filter(pk=pk).update(created_at=created_at)
            runs = _import_runs(user, document, subscriptions, summary, now=now)
            _import_states(user, document, runs, summary, now=now)
            ImportRecord.objects.create(
                user=user,
                origin=origin,
                instance=document.head["instance"]["url"],
                checksum=document.checksum,
                summary=summary.as_dict(),
                created_at=now,
            )
            inbox_changed(user.pk)
    except IntegrityError:
        raise ImportConflict(
            {"file": _("Another import into this account was running at the same time; try again.")}
        ) from None
    except reader.DocumentError as exc:  # the file changed under us
        raise _refused(exc) from None
    return summary
