"""Adding many sources to a user's library at once, without fetching any of them.

OPML import and source packs call this. Unlike `ingest.library.sources.add_feed_by_url`, which
fetches and parses one feed inside the request to validate it, a bulk add must not fetch hundreds of
feeds in a web request: it writes the shared `Source` rows due now (`next_refresh_at=now`) and
the next tick refreshes them, with the usual backoff and `degraded` handling for bad ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from ingest.library.source_sets import refresh_users
from ingest.models import Source, UserSource, config_hash


@dataclass(frozen=True)
class SourceSpec:
    """A source to be found or created. The fields past `config` apply only when the shared
    row is created: an existing row is never changed by someone adding it to their library."""

    type: str
    config: dict = field(hash=False)
    url: str = ""
    title: str = ""
    site_url: str = ""
    refresh_mode: str = Source.RefreshMode.SCHEDULED
    status: str = Source.Status.ACTIVE
    priority: int = 0
    refresh_interval_minutes: int = 60
    last_error: str = ""

    @property
    def config_hash(self) -> str:
        return config_hash(self.type, self.config)

    @property
    def key(self) -> tuple[str, str]:
        return (self.type, self.config_hash)

    def new_row(self, now: datetime) -> Source:
        scheduled = (
            self.refresh_mode == Source.RefreshMode.SCHEDULED
            and self.status != Source.Status.DISABLED
        )
        return Source(
            type=self.type,
            config=self.config,
            config_hash=self.config_hash,
            url=self.url,
            title=self.title[:300],
            site_url=self.site_url,
            refresh_mode=self.refresh_mode,
            status=self.status,
            priority=self.priority,
            refresh_interval_minutes=self.refresh_interval_minutes,
            last_error=self.last_error,
            # Due at once, so the next tick fetches it; never for on-run or disabled sources.
            next_refresh_at=now if scheduled else None,
        )


@dataclass
class LibraryAddition:
    spec: SourceSpec
    user_source: UserSource
    created: bool  # False: it was already in the user's library


def library_keys(user) -> set[tuple[str, str]]:
    """(type, config_hash) of every source in the user's library: one query."""
    return set(
        UserSource.objects.filter(user=user).values_list("source__type", "source__config_hash")
    )


def _sources_by_key(keys: set[tuple[str, str]]) -> dict[tuple[str, str], Source]:
    hashes = {digest for _type, digest in keys}
    rows = Source.objects.filter(config_hash__in=hashes)
    return {(row.type, row.config_hash): row for row in rows if (row.type, row.config_hash) in keys}


def add_sources_to_library(
    user, wanted: list[tuple[SourceSpec, str]], *, now: datetime
) -> list[LibraryAddition]:
    """Find or create the shared Source for each (spec, display name) and link it into the
    user's library, all in one transaction and a constant number of queries.

    Duplicate specs are linked once (the first display name wins). Concurrent adds of the same
    sources are safe: the unique constraints decide, and `ignore_conflicts` makes the loser a
    no-op that re-reads the winner's rows.
    """
    unique: dict[tuple[str, str], tuple[SourceSpec, str]] = {}
    for spec, display_name in wanted:
        unique.setdefault(spec.key, (spec, display_name))
    if not unique:
        return []
    keys = set(unique)
    with transaction.atomic():
        sources = _sources_by_key(keys)
        missing = [spec.new_row(now) for key, (spec, _name) in unique.items() if key not in sources]
        if missing:
            Source.objects.bulk_create(missing, ignore_conflicts=True)
            sources = _sources_by_key(keys)
        source_ids = [source.pk for source in sources.values()]
        linked = set(
            UserSource.objects.filter(user=user, source_id__in=source_ids).values_list(
                "source_id", flat=True
            )
        )
        new_links = [
            UserSource(user=user, source=sources[key], display_name=name[:300])
            for key, (_spec, name) in unique.items()
            if sources[key].pk not in linked
        ]
        if new_links:
            UserSource.objects.bulk_create(new_links, ignore_conflicts=True)
            refresh_users([user.pk], now=now)
        rows = {
            row.source_id: row
            for row in UserSource.objects.filter(
                user=user, source_id__in=source_ids
            ).select_related("source")
        }
    return [
        LibraryAddition(
            spec=spec,
            user_source=rows[sources[key].pk],
            created=sources[key].pk not in linked,
        )
        for key, (spec, _name) in unique.items()
    ]
