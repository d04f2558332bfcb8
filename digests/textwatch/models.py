"""Text-change watches: one page (or a part of it) checked for changes in its text.

A watched list (ingest/watch/) asks "which links are new?" and feeds the shared pool; a text
watch asks "did this text change?" and belongs to one reader, because what counts as a change
(the part, the ignore rules, the trigger) is that reader's own choice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

HISTORY_LIMIT = 50  # snapshots kept per watch (seed 004 Q7: "N only")


class TextWatch(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        PAUSED = "paused", _("Paused")
        COMPLETED = "completed", _("Completed")
        ERROR = "error", _("Error")

    class SelectorKind(models.TextChoices):
        WHOLE = "", _("Whole page")
        CSS = "css", _("CSS selector")
        XPATH = "xpath", _("XPath")

    class Trigger(models.TextChoices):
        ANY = "any", _("Any change")
        APPEARS = "appears", _("Text appears")
        DISAPPEARS = "disappears", _("Text disappears")
        ABOVE = "above", _("A number goes above")
        BELOW = "below", _("A number goes below")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="text_watches"
    )
    name = models.CharField(max_length=200)
    url = models.URLField(max_length=2048)
    render = models.CharField(max_length=8, default="http")
    selector_kind = models.CharField(
        max_length=8, choices=SelectorKind.choices, default="", blank=True
    )
    selector = models.CharField(max_length=500, blank=True)
    # Ignore rules: lines containing any of these texts, or matching any of these patterns,
    # are left out; `ignore_numbers` compares with every digit run masked.
    ignore_text = models.JSONField(default=list, blank=True)
    ignore_regex = models.JSONField(default=list, blank=True)
    ignore_numbers = models.BooleanField(default=False)
    trigger = models.CharField(max_length=16, choices=Trigger.choices, default=Trigger.ANY)
    trigger_text = models.CharField(max_length=200, blank=True)
    trigger_number = models.DecimalField(max_digits=20, decimal_places=6, null=True, blank=True)
    check_interval_minutes = models.PositiveIntegerField(default=60)
    start_at = models.DateTimeField(null=True, blank=True)
    end_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    next_check_at = models.DateTimeField(null=True, blank=True)
    last_checked_at = models.DateTimeField(null=True, blank=True)
    error_count = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    # The owner was told the watch is failing (once per failing streak, not every check).
    error_notified_at = models.DateTimeField(null=True, blank=True)
    # Claims in a row whose check never finished (its worker died, timed out or its task was
    # lost): at WATCH_CHECK_ATTEMPTS the next claim gives up until an interval later.
    unfinished_checks = models.PositiveSmallIntegerField(default=0)
    # Where a change is told: the Inbox through this watch's own subscription (its runs are
    # the Inbox items; email / Web Push / webhooks follow that subscription's settings).
    notifier = models.OneToOneField(
        "digests.Subscription",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="text_watch",
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["status", "next_check_at"], name="textwatch_due_idx")]

    def __str__(self) -> str:
        return self.name


class TextSnapshot(models.Model):
    """The watched text as it was when it last changed (stored only on a change)."""

    watch = models.ForeignKey(TextWatch, on_delete=models.CASCADE, related_name="snapshots")
    text = models.TextField()
    text_hash = models.CharField(max_length=64)
    checked_at = models.DateTimeField()
    added_lines = models.PositiveIntegerField(default=0)
    removed_lines = models.PositiveIntegerField(default=0)
    # Did this change fire the trigger (and so reach the Inbox)? The first snapshot never does.
    notified = models.BooleanField(default=False)
    # A new starting point after the reader changed what is compared (the part, the ignore
    # rules): shown as such, never as a change of the page.
    baseline = models.BooleanField(default=False)
    run = models.ForeignKey("digests.Run", on_delete=models.SET_NULL, null=True, blank=True)

    class Meta:
        ordering = ["-checked_at", "-id"]
        indexes = [models.Index(fields=["watch", "-checked_at"], name="textsnapshot_recent_idx")]

    def __str__(self) -> str:
        return f"{self.watch_id} @ {self.checked_at:%Y-%m-%d %H:%M}"


class AppriseTarget(models.Model):
    """A place a reader is told things, as an Apprise URL (ntfy://…, tgram://…, json://…).
    The URL holds secrets (tokens, passwords): it is stored encrypted (watches/apprise.py)
    and shown back only as `hint`."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="apprise_targets"
    )
    label = models.CharField(max_length=100)
    url_encrypted = models.TextField()
    service = models.CharField(max_length=32)
    hint = models.CharField(max_length=200)
    subscriptions = models.ManyToManyField(
        "digests.Subscription", through="AppriseRoute", related_name="apprise_targets"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["label", "id"]

    def __str__(self) -> str:
        return f"{self.label} ({self.hint})"


class AppriseRoute(models.Model):
    """This subscription's briefs (a watch's: its changes) go to this target too."""

    target = models.ForeignKey(AppriseTarget, on_delete=models.CASCADE, related_name="routes")
    subscription = models.ForeignKey(
        "digests.Subscription", on_delete=models.CASCADE, related_name="apprise_routes"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "subscription"], name="apprise_route_unique")
        ]

    def __str__(self) -> str:
        return f"{self.subscription_id} -> {self.target_id}"


class AppriseSend(models.Model):
    """One run told to one target: written with the run, sent under a lease, retried."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    run = models.ForeignKey("digests.Run", on_delete=models.CASCADE, related_name="apprise_sends")
    target = models.ForeignKey(AppriseTarget, on_delete=models.CASCADE, related_name="sends")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "target"], name="apprise_send_unique")
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="apprise_due_idx")]

    def __str__(self) -> str:
        return f"run {self.run_id} -> {self.target_id} ({self.status})"
