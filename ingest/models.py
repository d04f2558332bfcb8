"""The shared content pool: sources fetched once for everybody, and the items they yield."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.leases import LeasedWork


def config_hash(source_type: str, config: dict) -> str:
    """Stable identity of a source: the same type + config is one shared row."""
    payload = json.dumps({"type": source_type, "config": config}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


class LicenseTier(models.TextChoices):
    """What Tidings may do with a source's articles (seed 003 §3.1 `licenseTier`), set per
    source by an admin; an item takes the strictest tier of the sources that carry it.
    `restricted` items reach only their readers' private Inbox (and email and webhook) briefs,
    never a public page, feed or sitemap; the others appear there as title, link and Tidings'
    own short summary, never the publisher's text."""

    UNKNOWN = "unknown", _("Unknown (public pages: title, link, summary)")
    INTERNAL_OK = "internal_ok", _("Internal use allowed (public pages: title, link, summary)")
    RESTRICTED = "restricted", _("Restricted (private briefs only, never public)")


class Source(LeasedWork):
    class Type(models.TextChoices):
        FEED = "feed", _("Feed")
        PAGE = "page", _("Page")
        LIST = "list", _("Watched list")
        CRAWL = "crawl", _("Site crawl")
        SEARCH = "search", _("Search")
        NEWSLETTER = "newsletter", _("Newsletter")

    class RefreshMode(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        ON_RUN = "on_run", _("On each run")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        DEGRADED = "degraded", _("Degraded")
        DISABLED = "disabled", _("Disabled")

    type = models.CharField(max_length=16, choices=Type.choices)
    config = models.JSONField(default=dict)
    config_hash = models.CharField(max_length=64)
    url = models.URLField(max_length=2048, blank=True, help_text=_("Feed or page URL."))
    title = models.CharField(max_length=300, blank=True)
    site_url = models.URLField(max_length=2048, blank=True)
    refresh_mode = models.CharField(
        max_length=16, choices=RefreshMode.choices, default=RefreshMode.SCHEDULED
    )
    refresh_interval_minutes = models.PositiveIntegerField(default=60)
    next_refresh_at = models.DateTimeField(null=True, blank=True)
    last_refresh_at = models.DateTimeField(null=True, blank=True)
    etag = models.CharField(max_length=512, blank=True)
    last_modified = models.CharField(max_length=128, blank=True)
    priority = models.SmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    consecutive_failures = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    language = models.CharField(
        max_length=16, blank=True, help_text=_("The feed's own language, as it last said.")
    )
    license_tier = models.CharField(
        max_length=16,
        choices=LicenseTier.choices,
        default=LicenseTier.UNKNOWN,
        help_text=_("What may be shown of this source's articles; its items follow a change."),
    )
    gap_detected_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "A read found every item new to the source: items published between two reads may "
            "have been missed. The next backfill re-reads it."
        ),
    )
    backfill_requested_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("The next refresh is a backfill read: unconditional, logged as a backfill."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["type", "config_hash"], name="source_unique_config"),
        ]
        indexes = [models.Index(fields=["status", "next_refresh_at"], name="source_due_idx")]

    def __str__(self) -> str:
        return self.title or self.url or f"{self.type} #{self.pk}"

    @property
    def display_name(self) -> str:
        return self.title or self.url


class Folder(models.Model):
    """A named group in a user's library (reading apps show it as a category or a group).
    Each library entry is in at most one of its user's folders; deleting a folder leaves its
    sources in the library, in no folder."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="folders"
    )
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="folder_unique_name"),
        ]
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class UserSource(models.Model):
    """A user's own library of sources; removing one never deletes the shared Source."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="library"
    )
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="followers")
    display_name = models.CharField(max_length=300, blank=True)
    # Always one of the same user's folders (ingest/library/folders.py is the only writer).
    folder = models.ForeignKey(
        Folder, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "source"], name="usersource_unique"),
        ]
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return self.display_name or str(self.source)


class UserSourceSet(models.Model):
    """A user's source set (seed 002's user_subscription_hashes), kept materialized: SHA-256
    of the sorted ids of the sources in their library, comma-joined (SHA-256 of "" for none).
    Written in the same transaction as every change to the library (ingest/library/
    source_sets.py), so "which users share a combination" is one indexed query."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="source_set"
    )
    source_set_hash = models.CharField(max_length=64, db_index=True)
    source_count = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user_id}: {self.source_set_hash[:12]} ({self.source_count})"


class FetchLog(models.Model):
    class Outcome(models.TextChoices):
        OK = "ok", _("OK")
        NOT_MODIFIED = "not_modified", _("Not modified")
        ERROR = "error", _("Error")

    class Kind(models.TextChoices):
        REFRESH = "refresh", _("Refresh")
        BACKFILL = "backfill", _("Backfill")

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="fetch_logs")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.REFRESH)
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    fetched = models.PositiveIntegerField(default=0)
    inserted = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    deduped = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["source", "-started_at"], name="fetchlog_source_idx")]

    def __str__(self) -> str:
        return f"{self.source_id} @ {self.started_at:%Y-%m-%d %H:%M} {self.outcome}"


class Backfill(models.Model):
    """One day's backfill (seed 003 §5: daily at 03:30 Asia/Seoul): the day is claimed once,
    whichever ticker gets there first, and the sources it asked to re-read are counted."""

    day = models.DateField(unique=True, help_text=_("The day in Asia/Seoul."))
    requested_at = models.DateTimeField()
    sources = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"backfill {self.day} ({self.sources} sources)"


class SearchQueryPoll(models.Model):
    """When a search provider with a per-query floor (NAVER News) last asked one query for a
    source: each query is asked at most once per floor, whichever subscription's run asks."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="query_polls")
    query = models.CharField(max_length=300)
    last_asked_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["source", "query"], name="searchquerypoll_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} {self.query!r} @ {self.last_asked_at:%Y-%m-%d %H:%M}"


class ContentItem(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        FILTERED = "filtered", _("Filtered (duplicate)")

    canonical_url = models.URLField(max_length=2048)
    canonical_url_hash = models.CharField(max_length=64, unique=True)
    title = models.CharField(max_length=500, blank=True)
    normalized_title = models.CharField(max_length=500, blank=True)
    description = models.TextField(blank=True, help_text=_("Plain-text summary from the source."))
    content_html = models.TextField(blank=True, help_text=_("Sanitized HTML from the source."))
    author = models.CharField(max_length=300, blank=True)
    site_name = models.CharField(max_length=300, blank=True)
    language = models.CharField(max_length=16, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    full_text = models.TextField(blank=True)
    full_text_key = models.CharField(max_length=300, blank=True)
    content_hash = models.CharField(max_length=64, blank=True)
    content_too_large = models.BooleanField(default=False)
    full_text_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the full text was last extracted.")
    )
    extraction_error = models.CharField(max_length=300, blank=True)
    simhash = models.BigIntegerField(
        null=True, blank=True, help_text=_("64-bit simhash of the body, stored signed.")
    )
    score_reasons = models.JSONField(
        default=dict, blank=True, help_text=_("The parts of score_impact and score_quality.")
    )
    score_impact = models.PositiveSmallIntegerField(default=50)
    score_quality = models.PositiveSmallIntegerField(default=50)
    first_seen_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()
    last_fetched_at = models.DateTimeField(null=True, blank=True)
    cluster_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    section = models.CharField(
        max_length=16,
        blank=True,
        help_text=_(
            "정치, 경제, … from the feed category or the address (ingest/text/sections.py)."
        ),
    )
    tags = models.JSONField(default=list, blank=True, help_text=_("The feed's categories."))
    license_tier = models.CharField(
        max_length=16, choices=LicenseTier.choices, default=LicenseTier.UNKNOWN
    )
    sources = models.ManyToManyField(Source, through="ContentItemSource", related_name="items")

    class Meta:
        indexes = [
            models.Index(fields=["status", "-published_at"], name="item_status_published_idx"),
            models.Index(fields=["-first_seen_at"], name="item_first_seen_idx"),
            # Soft dedup looks titles up among recent active items; all three columns in one
            # index, or the planner walks every active item through the status index.
            models.Index(
                fields=["normalized_title", "status", "first_seen_at"], name="item_soft_dedup_idx"
            ),
        ]

    def __str__(self) -> str:
        return self.title or self.canonical_url

    @property
    def effective_published_at(self):
        return self.published_at or self.first_seen_at


class ContentItemSource(models.Model):
    """Which sources saw an item, and when: one item, many sources."""

    item = models.ForeignKey(ContentItem, on_delete=models.CASCADE, related_name="sightings")
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="sightings")
    entry_id = models.CharField(max_length=2048, blank=True)
    first_seen_at = models.DateTimeField()
    # Seen on the first check of a watched list or crawl: recorded, never news.
    baseline = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["item", "source"], name="itemsource_unique"),
        ]
        indexes = [
            # A source's newest sightings with the item id in the index: a run's per-source
            # walk (ingest/pool/recent.py) reads the index alone.
            models.Index(
                fields=["source", "-first_seen_at", "item"], name="itemsource_recent_item_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} saw {self.item_id}"


class ContentEnrichment(models.Model):
    """Per item x locale x prompt version: computed once, reused by every user."""

    item = models.ForeignKey(ContentItem, on_delete=models.CASCADE, related_name="enrichments")
    locale = models.CharField(max_length=16)
    prompt_version = models.CharField(max_length=32)
    summary = models.TextField(blank=True)
    tags = models.JSONField(default=list, blank=True)
    content_type = models.CharField(max_length=32, blank=True)
    entities = models.JSONField(default=list, blank=True)
    reading_level = models.CharField(max_length=16, blank=True)
    reading_score = models.PositiveSmallIntegerField(null=True, blank=True)
    reading_reasons = models.JSONField(default=list, blank=True)
    generator = models.CharField(
        max_length=32, default="extractive", help_text=_("'extractive' or the LLM model name.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["item", "locale", "prompt_version"], name="enrichment_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.item_id} [{self.locale} {self.prompt_version}]"


class SimhashBand(models.Model):
    """One 16-bit band of an item's simhash. Two fingerprints within Hamming distance 3 share
    at least one of their four bands exactly (pigeonhole), so near-duplicate lookups are
    indexed equality matches on (band, value), never pairwise scans."""

    item = models.ForeignKey(ContentItem, on_delete=models.CASCADE, related_name="simhash_bands")
    band = models.PositiveSmallIntegerField()
    value = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["item", "band"], name="simhashband_unique"),
        ]
        indexes = [models.Index(fields=["band", "value"], name="simhashband_lookup_idx")]

    def __str__(self) -> str:
        return f"{self.item_id} band {self.band}={self.value}"


class NewsletterAddress(models.Model):
    """A private inbound address (ingest/newsletters/): mail to it becomes items of its own
    `newsletter` source, which only its owner has in a library. The local part is random and
    unguessable; a revoked address refuses mail at RCPT and is never given out again."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="newsletter_addresses"
    )
    source = models.OneToOneField(
        Source, on_delete=models.CASCADE, related_name="newsletter_address"
    )
    local_part = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=200, blank=True)
    allowed_senders = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            "Sender addresses (or @domains) whose mail becomes items; empty accepts any sender."
        ),
    )
    split_roundups = models.BooleanField(
        default=False, help_text=_("Each linked article of an issue also becomes its own item.")
    )
    created_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.address

    @property
    def address(self) -> str:
        return f"{self.local_part}@{settings.INBOUND_DOMAIN}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class InboundMessage(models.Model):
    """One message received for an address, written before anything else is done with it:
    what became of it is visible (an item, held for an unknown sender, a confirmation to
    click), and the same message delivered twice is one row (the unique key)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Received, not yet read")
        ACCEPTED = "accepted", _("Added to the pool")
        HELD = "held", _("Held: sender not allowed")
        CONFIRMATION = "confirmation", _("Subscription confirmation")
        REFUSED = "refused", _("Refused")

    address = models.ForeignKey(
        NewsletterAddress, on_delete=models.CASCADE, related_name="messages"
    )
    message_key = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    sender_email = models.CharField(max_length=320, blank=True)
    sender_name = models.CharField(max_length=300, blank=True)
    subject = models.CharField(max_length=500, blank=True)
    received_at = models.DateTimeField()
    confirm_url = models.URLField(max_length=2048, blank=True)
    dkim = models.CharField(max_length=300, blank=True)
    item = models.ForeignKey(ContentItem, on_delete=models.SET_NULL, null=True, blank=True)
    # The message as received, kept only until it is read (or while it is held).
    raw = models.BinaryField(blank=True, default=b"")
    size = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-received_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["address", "message_key"], name="inboundmessage_unique"
            ),
        ]
        indexes = [models.Index(fields=["address", "-received_at"], name="inbound_recent_idx")]

    def __str__(self) -> str:
        return f"{self.address_id}: {self.subject[:60]} ({self.status})"
