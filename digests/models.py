"""Subscriptions, their runs, and the items each run delivered."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from config.leases import LeasedWork
from ingest.models import ContentItem, Source

MAX_ITEMS_HARD_CAP = 30
# On the scale of overall = 0.5·relevance + 0.3·impact + 0.2·quality with relevance convex
# in the share of the best match (digests/runs/scoring.py, RELEVANCE_CURVE): a real match of
# a fresh item scores 50–90, a passing mention next to real matches 25–45.
DEFAULT_MIN_SCORE = 40
# How much more (or less) a subscription's source counts in its ranking: 1 is normal.
SOURCE_WEIGHT_MIN = 0.25
SOURCE_WEIGHT_MAX = 4.0


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
    followed_topic = models.ForeignKey(
        "topics.Topic",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="followers",
        help_text=_("Follow mode: candidates are this public topic's editions."),
    )
    reading_levels = models.JSONField(
        default=list, blank=True, help_text=_("Reading levels to keep (L1, L2, L3); empty = any.")
    )
    sections = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            "Article sections to keep (정치, 경제, …; ingest/text/sections.py); empty = any."
        ),
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    paused_reason = models.CharField(
        max_length=32,
        blank=True,
        help_text=_(
            "Why the platform paused it (billing.limits: plan_subscriptions, plan_interval); "
            "empty when its owner paused it."
        ),
    )
    next_run_at = models.DateTimeField(null=True, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    # Email briefs (SPEC §11), off by default. `email_to` blank = the account's address.
    email_enabled = models.BooleanField(default=False)
    email_to = models.EmailField(blank=True)
    email_subject = models.CharField(
        max_length=200,
        blank=True,
        help_text=_("Subject template with {name}, {date}, {count}, {topic}; blank = default."),
    )
    # The last permanent refusal (an SMTP 5xx), shown on the subscription until a message
    # goes through or the email settings change.
    email_error = models.CharField(max_length=500, blank=True)
    email_error_at = models.DateTimeField(null=True, blank=True)
    # Seed 002's subscription hash: SHA-256 of the sorted ids of its enabled sources (SHA-256
    # of "" for none), kept in the transaction of every change
    # (digests/subscriptions/source_sets.py). The combination cache's first level is keyed on it
    # (digests/narrative/writer.py).
    source_set_hash = models.CharField(max_length=64, blank=True, db_index=True)
    source_count = models.PositiveIntegerField(default=0)
    # Web Push (digests/delivery/push.py): each brief to every device the owner registered.
    push_enabled = models.BooleanField(default=False)
    # A watch's own notifier (digests/watches/notifiers.py): no schedule; it runs when a check of
    # this watched list finds new links, and its channels are the watch's notify channels.
    watch_source = models.ForeignKey(
        Source,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="watch_notifiers",
        help_text=_("The watched list this subscription notifies about; empty for briefs."),
    )
    check_interval_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("How often the watched list is checked (a watch's notifier only)."),
    )
    notify_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "A watch's notifier tells about links that appeared after this moment: when it "
            "was made, or last turned on."
        ),
    )
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
        constraints = [
            # One notifier per user and watched list.
            models.UniqueConstraint(
                fields=["owner", "watch_source"],
                condition=Q(watch_source__isnull=False, deleted_at__isnull=True),
                name="subscription_one_watch_notifier",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SubscriptionSource(models.Model):
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE)
    source = models.ForeignKey(Source, on_delete=models.CASCADE)
    enabled = models.BooleanField(default=True)
    # Multiplies the relevance of this source's items in this subscription's runs
    # (digests/runs/scoring.weigh_by_source).
    weight = models.FloatField(
        default=1.0,
        validators=[MinValueValidator(SOURCE_WEIGHT_MIN), MaxValueValidator(SOURCE_WEIGHT_MAX)],
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "source"], name="subscriptionsource_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subscription_id} <- {self.source_id}"


class Run(LeasedWork):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    class Trigger(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        MANUAL = "manual", _("Manual")
        RETRY = "retry", _("Retry")
        # History brought in from an export (inbox/portability): always finished, never run,
        # retried, delivered or charged here.
        IMPORTED = "imported", _("Imported")

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="runs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="runs"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    trigger = models.CharField(max_length=16, choices=Trigger.choices)
    scheduled_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    retried_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When its owner last retried it: a retry counts as a “Run now”."),
    )
    output_locale = models.CharField(max_length=16, blank=True)
    narrative_md = models.TextField(blank=True)
    narrative_generator = models.CharField(
        max_length=64, blank=True, help_text=_("'template' or the LLM model that wrote it.")
    )
    # The brief as one item in reading apps (inbox/readerapi/briefs.py): read and starred
    # there, kept here because a brief is not a content item with a UserContentState.
    narrative_read_at = models.DateTimeField(null=True, blank=True)
    narrative_saved_at = models.DateTimeField(null=True, blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    candidates_count = models.PositiveIntegerField(default=0)
    selected_count = models.PositiveIntegerField(default=0)
    delivered_count = models.PositiveIntegerField(default=0)
    dedup_skipped_count = models.PositiveIntegerField(default=0)
    redelivered_count = models.PositiveIntegerField(default=0)
    billing_breakdown = models.JSONField(default=dict, blank=True)
    empty_reason = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    error_code = models.CharField(
        max_length=32,
        blank=True,
        help_text=_(
            "Why a failed run failed, for people and clients: 'insufficient_credits' (the "
            "budget check refused it before it started; it cost nothing), else empty."
        ),
    )
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
    # The reason as written at the run, in its language (exports and feed clients read it);
    # `why` holds its parts, written out in the reader's language when shown
    # (digests.narrative.reasons). Empty for rows made before it existed that could not be
    # read back.
    reason = models.CharField(max_length=500)
    why = models.JSONField(default=list, blank=True)
    rank = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=500)
    url = models.URLField(max_length=2048)
    summary = models.TextField(blank=True)
    summary_generator = models.CharField(
        max_length=64, blank=True, help_text=_("'extractive' or the LLM model that wrote it.")
    )
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


class LLMCall(models.Model):
    """One call to the language model: what it was for, what it cost, how it ended."""

    class Purpose(models.TextChoices):
        SUMMARY = "summary", _("Item summary")
        NARRATIVE = "narrative", _("Narrative")
        RELEVANCE = "relevance", _("Relevance")
        INTERESTS = "interests", _("Interests from a topic")

    class Outcome(models.TextChoices):
        OK = "ok", _("OK")
        MALFORMED = "malformed", _("Malformed output")
        ERROR = "error", _("Error")
        BUDGET = "budget", _("Refused: daily budget spent")

    purpose = models.CharField(max_length=16, choices=Purpose.choices)
    model = models.CharField(max_length=100)
    prompt_version = models.CharField(max_length=32, blank=True)
    run = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="llm_calls"
    )
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=1)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["created_at"], name="llmcall_created_idx")]

    def __str__(self) -> str:
        return f"{self.purpose} {self.model} {self.outcome}"


class LLMBudgetDay(models.Model):
    """Tokens the platform spent on one UTC day; reserved atomically before each call."""

    day = models.DateField(unique=True)
    tokens_used = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.day}: {self.tokens_used} tokens"


class CombinationCacheEntry(LeasedWork):
    """One LLM result shared by every identical request (seed 002): the key is the sha256 of
    the sorted inputs, the options and the period window. The unique key makes concurrent
    identical requests compute once; the others wait for `ready`."""

    class Kind(models.TextChoices):
        SUMMARY = "summary", _("Item summary")
        NARRATIVE = "narrative", _("Narrative")
        RELEVANCE = "relevance", _("Relevance")
        INTERESTS = "interests", _("Interests from a topic")

    class State(models.TextChoices):
        PENDING = "pending", _("Being computed")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    key = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    value = models.JSONField(default=dict, blank=True)
    inputs = models.JSONField(default=dict, blank=True, help_text=_("What the key was made of."))
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    hits = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    last_hit_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)
    # Entries whose values can stand in for one another's requests when their inputs cover
    # the request's (a narrative: the same lead story, options and day); "" for none.
    group = models.CharField(max_length=64, blank=True, default="", db_index=True)

    class Meta:
        verbose_name_plural = "combination cache entries"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.key[:12]}"


class CombinationCacheCounter(models.Model):
    """Hits and misses per kind, kept apart from the entries so clearing the cache does not
    erase the statistics."""

    kind = models.CharField(max_length=16, unique=True)
    hits = models.PositiveBigIntegerField(default=0)
    misses = models.PositiveBigIntegerField(default=0)
    tokens_saved = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.kind}: {self.hits} hits / {self.misses} misses"


class WebhookEndpoint(models.Model):
    """Where a subscription's briefs are POSTed, signed Standard Webhooks style with `secret`.

    After a rotation the previous secret keeps signing too (a second signature) until
    `previous_secret_until`, so a receiver can switch without losing deliveries."""

    subscription = models.OneToOneField(
        Subscription, on_delete=models.CASCADE, related_name="webhook"
    )
    url = models.URLField(max_length=2048)
    secret = models.CharField(max_length=100)
    previous_secret = models.CharField(max_length=100, blank=True)
    previous_secret_until = models.DateTimeField(null=True, blank=True)
    enabled = models.BooleanField(default=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    disabled_reason = models.CharField(max_length=500, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.subscription_id} -> {self.url[:80]}"

    @property
    def secret_hint(self) -> str:
        """What the console shows after the secret's one showing: its first characters."""
        return f"{self.secret[:10]}…" if self.secret else ""


class Delivery(LeasedWork):
    """One brief (or test event) sent through one channel, written before anything is sent.

    `pending` -> `sending` (claimed with a conditional update, under a lease) -> `sent`, or
    `failed`: with `next_attempt_at` set it is retried then, without it the delivery gave up
    (a permanent refusal, or too many attempts). A `sending` row whose lease ran out belonged
    to a worker that died; the tick hands it out again."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("Email")
        WEBHOOK = "webhook", _("Webhook")
        PUSH = "push", _("Web Push")

    class Event(models.TextChoices):
        BRIEF = "brief", _("Brief")
        TEST = "test", _("Test event")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    run = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=16, choices=Channel.choices)
    event = models.CharField(max_length=16, choices=Event.choices, default=Event.BRIEF)
    endpoint = models.ForeignKey(
        WebhookEndpoint,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="deliveries",
    )
    recipient = models.CharField(max_length=2048, help_text=_("The address or URL it was sent to."))
    # One id per delivery, the same on every attempt: the email's Message-ID and the
    # webhook-id header, so a receiver can drop a repeat.
    message_id = models.CharField(max_length=100, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=1000, blank=True)
    response_code = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("The SMTP reply code or HTTP status of the last try.")
    )
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"
        constraints = [
            # Nothing is sent twice for one run: one brief per run and channel.
            models.UniqueConstraint(
                fields=["run", "channel"],
                condition=Q(event="brief"),
                name="delivery_one_per_run_channel",
            ),
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(status="failed", next_attempt_at__isnull=False),
                name="delivery_retry_due_idx",
            ),
            models.Index(
                fields=["created_at"], condition=Q(status="pending"), name="delivery_pending_idx"
            ),
            models.Index(fields=["subscription", "-created_at"], name="delivery_sub_recent_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.event} of run {self.run_id} ({self.status})"

    @property
    def gave_up(self) -> bool:
        return self.status == self.Status.FAILED and self.next_attempt_at is None


class PushSend(models.Model):
    """One push delivery reached one device. A push delivery goes to every device of its
    owner; a retry (some devices failed, or the worker died mid-way) skips the devices that
    have a row here, so no device shows the same notification twice."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="push_sends")
    device = models.ForeignKey("inbox.PushDevice", on_delete=models.CASCADE, related_name="sends")
    response_code = models.PositiveIntegerField()
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["delivery", "device"], name="pushsend_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.delivery_id} -> device {self.device_id}"
