"""Public topics: a subscription published as an indexable page, its editions, and governance.

A Topic is a published object of its own, not the owner's private subscription: publishing
copies the configuration (SPEC §9), so later edits to the subscription do not leak into the
public page until the owner publishes again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from config.leases import LeasedWork
from ingest.models import ContentItem, LicenseTier, Source

MIN_EDITION_INTERVAL_HOURS = 24
MAX_EDITIONS_LISTED = 30


class TopicQuerySet(models.QuerySet):
    def listed(self):
        """What strangers may see: public and active. Private, taken-down and deleted topics
        never show in lists, the sitemap, feeds, search or the public API."""
        return self.filter(visibility=Topic.Visibility.PUBLIC, status=Topic.Status.ACTIVE)


class Topic(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        TAKEN_DOWN = "taken_down", _("Taken down")
        DELETED = "deleted", _("Deleted")

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    description = models.CharField(max_length=500, blank=True)
    # Null once its owner deleted their account: the topic is then `deleted` (its page
    # answers 410) and keeps no link to anyone (inbox/portability/deletion.py).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="topics",
    )
    published_from = models.ForeignKey(
        "digests.Subscription",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="published_topics",
    )
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # The default configuration followers start from and editions are made with.
    config = models.JSONField(default=dict, blank=True)
    sources = models.ManyToManyField(Source, related_name="topics", blank=True)
    cron = models.CharField(max_length=120)
    timezone = models.CharField(max_length=64, default="UTC")
    locale = models.CharField(max_length=16, default="en")
    next_edition_at = models.DateTimeField(null=True, blank=True)
    last_edition_at = models.DateTimeField(null=True, blank=True)
    # Aggregates only: computed by the trending job (topics/trending.py).
    follower_count = models.PositiveIntegerField(default=0)
    trending_score = models.FloatField(default=0.0)
    quality_score = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = TopicQuerySet.as_manager()

    class Meta:
        ordering = ["-last_edition_at", "id"]
        indexes = [
            models.Index(
                fields=["next_edition_at"],
                condition=Q(status="active"),
                name="topic_due_idx",
            ),
            models.Index(
                fields=["visibility", "status", "-trending_score"], name="topic_trend_idx"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("topics:detail", args=[self.slug])

    @property
    def is_listed(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC and self.status == self.Status.ACTIVE


class Edition(LeasedWork):
    """One published issue of a topic. Items are snapshots — summaries and links only, never
    full text — so a later change in the pool never rewrites history."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="editions")
    edition_date = models.DateField(help_text=_("The date in the topic's timezone."))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    scheduled_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    output_locale = models.CharField(max_length=16, default="en")
    narrative_md = models.TextField(blank=True)
    narrative_generator = models.CharField(max_length=64, blank=True)
    item_count = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-edition_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["topic", "edition_date"], name="edition_one_per_day"),
        ]
        indexes = [
            models.Index(fields=["status", "-published_at"], name="edition_published_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.topic} — {self.edition_date:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("topics:edition", args=[self.topic.slug, f"{self.edition_date:%Y-%m-%d}"])


class PublicEditionItemManager(models.Manager):
    """The default manager, so `edition.items`, its prefetches and every public page, feed and
    API built on them can never show an item of a `restricted` source (seed 003
    `licenseTier`), even one restricted after its edition was made. `EditionItem.every` sees
    all rows (admin, an edition's rebuild)."""

    def get_queryset(self):
        return super().get_queryset().exclude(item__license_tier=LicenseTier.RESTRICTED)


class EditionItem(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="items")
    item = models.ForeignKey(
        ContentItem, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    canonical_url_hash = models.CharField(max_length=64)
    rank = models.PositiveSmallIntegerField()
    overall = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=500)
    url = models.URLField(max_length=2048)
    summary = models.TextField(blank=True)
    source_name = models.CharField(max_length=300, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    every = models.Manager()
    objects = PublicEditionItemManager()

    class Meta:
        default_manager_name = "objects"
        ordering = ["edition", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["edition", "canonical_url_hash"], name="editionitem_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.edition_id}#{self.rank} {self.title}"


class Report(models.Model):
    """A visitor's report of a topic or an edition, for the admins."""

    class Reason(models.TextChoices):
        SPAM = "spam", _("Spam or advertising")
        ABUSE = "abuse", _("Hateful, violent or abusive")
        COPYRIGHT = "copyright", _("Copyright or legal issue")
        MISLEADING = "misleading", _("Misleading or low quality")
        OTHER = "other", _("Something else")

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="reports")
    edition = models.ForeignKey(
        Edition, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    message = models.TextField(blank=True, max_length=2000)
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    reporter_key = models.CharField(
        max_length=64, blank=True, help_text=_("Hash of the reporter's address (rate limits).")
    )
    created_at = models.DateTimeField()
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_reason_display()} on {self.topic}"


class ModerationAction(models.Model):
    """The audit trail: every takedown and restore, who did it and why."""

    class Action(models.TextChoices):
        TAKE_DOWN = "take_down", _("Take down")
        RESTORE = "restore", _("Restore")

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="moderation")
    action = models.CharField(max_length=16, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.topic} by {self.actor}"


class BlockedDomain(models.Model):
    """Sources from these domains (and their subdomains) may not appear in public topics."""

    domain = models.CharField(max_length=253, unique=True)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["domain"]

    def __str__(self) -> str:
        return self.domain


class PublishEvent(models.Model):
    """A create or update of a public topic, counted for the daily anti-spam limit."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    topic = models.ForeignKey(Topic, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id} published {self.topic_id} at {self.created_at}"
