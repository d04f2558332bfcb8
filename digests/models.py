"""Subscriptions, their runs, and the items each run delivered."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ingest.models import ContentItem, Source

MAX_ITEMS_HARD_CAP = 30
DEFAULT_MIN_SCORE = 60


class SubscriptionQuerySet(models.QuerySet):
    def alive(self):
        return self.filter(deleted_at__isnull=True)


class Subscription(models.Model):
    class Redelivery(models.TextChoices):
        NEVER = "never", _("Never")
        COOLDOWN = "cooldown", _("After a cooldown")
        ON_CONTENT_UPDATE = "on_content_update", _("When the content changes")

    class LanguageMode(models.TextChoices):
        FOLLOW_UI = "follow_ui", _("Follow my UI language")
        FIXED = "fixed", _("Fixed")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        PAUSED = "paused", _("Paused")
        COMPLETED = "completed", _("Completed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscriptions"
    )
    name = models.CharField(max_length=200)
    topic = models.CharField(max_length=500, blank=True)
    interests = models.JSONField(default=list, blank=True)
    negative_keywords = models.JSONField(default=list, blank=True)
    sources = models.ManyToManyField(
        Source, through="SubscriptionSource", related_name="subscriptions", blank=True
    )
    min_score = models.PositiveSmallIntegerField(
        default=DEFAULT_MIN_SCORE, validators=[MaxValueValidator(100)]
    )
    max_items = models.PositiveSmallIntegerField(
        default=20, validators=[MinValueValidator(1), MaxValueValidator(MAX_ITEMS_HARD_CAP)]
    )
    content_window_hours = models.PositiveIntegerField(
        default=168, validators=[MinValueValidator(1), MaxValueValidator(24 * 90)]
    )
    redelivery = models.CharField(
        max_length=24, choices=Redelivery.choices, default=Redelivery.COOLDOWN
    )
    cooldown_days = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1), MaxValueValidator(365)]
    )
    cron = models.CharField(max_length=120, blank=True)
    timezone = models.CharField(max_length=64, default="UTC")
    run_at = models.DateTimeField(null=True, blank=True, help_text=_("One-off schedule."))
    language_mode = models.CharField(
        max_length=16, choices=LanguageMode.choices, default=LanguageMode.FOLLOW_UI
    )
    output_locale = models.CharField(max_length=16, blank=True)
    summaries_enabled = models.BooleanField(default=True)
    narrative_enabled = models.BooleanField(default=True)
    tone = models.CharField(max_length=32, default="neutral")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    next_run_at = models.DateTimeField(null=True, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = SubscriptionQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            models.Index(
                fields=["next_run_at"],
                condition=Q(status="active", deleted_at__isnull=True),
                name="subscription_due_idx",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SubscriptionSource(models.Model):
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE)
    source = models.ForeignKey(Source, on_delete=models.CASCADE)
    enabled = models.BooleanField(default=True)
    weight = models.FloatField(default=1.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "source"], name="subscriptionsource_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subscription_id} <- {self.source_id}"


class Run(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    class Trigger(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        MANUAL = "manual", _("Manual")
        RETRY = "retry", _("Retry")

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="runs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="runs"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    trigger = models.CharField(max_length=16, choices=Trigger.choices)
    scheduled_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    output_locale = models.CharField(max_length=16, blank=True)
    narrative_md = models.TextField(blank=True)
    candidates_count = models.PositiveIntegerField(default=0)
    selected_count = models.PositiveIntegerField(default=0)
    delivered_count = models.PositiveIntegerField(default=0)
    dedup_skipped_count = models.PositiveIntegerField(default=0)
    redelivered_count = models.PositiveIntegerField(default=0)
    billing_breakdown = models.JSONField(default=dict, blank=True)
    empty_reason = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-scheduled_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "scheduled_at"],
                condition=Q(trigger="scheduled"),
                name="run_unique_scheduled_slot",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "-scheduled_at"], name="run_user_recent_idx"),
            models.Index(fields=["status", "started_at"], name="run_status_idx"),
        ]

    def __str__(self) -> str:
        return f"Run {self.pk} of {self.subscription_id} ({self.status})"


class RunItem(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="items")
    item = models.ForeignKey(ContentItem, on_delete=models.PROTECT, related_name="run_items")
    canonical_url_hash = models.CharField(max_length=64)
    relevance = models.PositiveSmallIntegerField()
    overall = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=500)
    rank = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=500)
    url = models.URLField(max_length=2048)
    summary = models.TextField(blank=True)
    source_name = models.CharField(max_length=300, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    redelivered = models.BooleanField(default=False)
    delivered_at = models.DateTimeField()

    class Meta:
        ordering = ["run", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["run", "canonical_url_hash"], name="runitem_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.run_id}#{self.rank} {self.title}"
