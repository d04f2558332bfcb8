"""Per-user state: what was delivered and what the user did with it, preferences, API tokens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.leases import LeasedWork


class UserContentState(models.Model):
    """One row per (user, canonical URL): follows an item across runs and subscriptions."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="content_states"
    )
    canonical_url_hash = models.CharField(max_length=64)
    item = models.ForeignKey("ingest.ContentItem", on_delete=models.CASCADE, related_name="+")
    first_delivered_at = models.DateTimeField(null=True, blank=True)
    last_delivered_at = models.DateTimeField(null=True, blank=True)
    delivered_count = models.PositiveIntegerField(default=0)
    last_delivered_content_hash = models.CharField(max_length=64, blank=True)
    last_run = models.ForeignKey(
        "digests.Run", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    saved_at = models.DateTimeField(null=True, blank=True)
    not_interested_at = models.DateTimeField(null=True, blank=True)
    # When the reader last marked it (read, saved, not interested, or undid one): the Inbox
    # API's `updated_since` finds the items whose marks changed by it. Null: never marked.
    # Set with each mark's own update (inbox/states.py, imports), which auto_now would miss.
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "canonical_url_hash"], name="usercontentstate_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.canonical_url_hash[:12]}"


class UserPreference(models.Model):
    class LocaleMode(models.TextChoices):
        AUTO = "auto", _("Automatic (browser)")
        MANUAL = "manual", _("Chosen")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference"
    )
    ui_locale = models.CharField(max_length=16, default="en", choices=settings.LANGUAGES)
    timezone = models.CharField(max_length=64, default="UTC")
    locale_mode = models.CharField(
        max_length=8, choices=LocaleMode.choices, default=LocaleMode.AUTO
    )
    # Bumped with every change to what the Inbox shows (inbox.page_cache.inbox_changed).
    inbox_version = models.PositiveBigIntegerField(default=0, editable=False)

    def __str__(self) -> str:
        return f"Preferences of {self.user_id}"


class ApiToken(models.Model):
    """A personal API token. Only a prefix (to find it) and a SHA-256 hash are stored."""

    class Scope(models.TextChoices):
        WRITE = "write", _("Read and write")
        READ = "read", _("Read only")
        # An app password: only the reading-app protocols (inbox/readerapi) accept it, and
        # they can read the Inbox and mark items, nothing else.
        READER = "reader", _("Reading apps (Google Reader, Fever)")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    # A read-only token is refused anything but GET, HEAD and OPTIONS (403): for dashboards
    # and readers, which then cannot run, change, delete or spend anything if they leak.
    scope = models.CharField(max_length=8, choices=Scope.choices, default=Scope.WRITE)
    prefix = models.CharField(max_length=16, unique=True)
    token_hash = models.CharField(max_length=64)
    # App passwords only: SHA-256 of Fever's api_key, md5("email:password"), which a Fever
    # client sends instead of the password (so it cannot be found by prefix).
    fever_key_hash = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class PushDevice(models.Model):
    """A browser's Web Push subscription (the PushSubscription JSON its service worker got):
    where to POST, and the keys to encrypt for it. Removed when the push service answers 404
    or 410 (the browser unsubscribed or the subscription expired)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    endpoint = models.URLField(max_length=2048)
    endpoint_hash = models.CharField(max_length=64, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    label = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField()
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.label or self.endpoint[:60]


class AuthThrottleCounter(models.Model):
    """Attempts counted by the authentication throttle (inbox/auth_throttle.py) under one key —
    an (address, account) pair, an address, an account — in a fixed window. Rows, not cache
    entries: incremented under a row lock, so concurrent attempts cannot slip past a limit."""

    key = models.CharField(max_length=160, unique=True)
    count = models.PositiveIntegerField(default=0)
    window_ends_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("authentication throttle counter")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class TransferCode(models.Model):
    """A one-time code another Tidings instance redeems to pull this user's export
    (inbox/portability/transfer.py). Stored as a prefix and a SHA-256 hash, like API tokens;
    `checksum` is the SHA-256 of the export it handed out, for the audit on both sides."""

    class Scope(models.TextChoices):
        SAVED = "saved", _("Saved items only")
        SAVED_AND_RECENT = "saved_recent", _("Saved items and recent briefs")
        EVERYTHING = "everything", _("Everything")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="transfer_codes"
    )
    scope = models.CharField(max_length=16, choices=Scope.choices)
    prefix = models.CharField(max_length=16, unique=True)
    code_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    checksum = models.CharField(max_length=64, blank=True, help_text=_("SHA-256 of the export."))
    export_bytes = models.PositiveBigIntegerField(default=0)
    redeemed_from = models.CharField(
        max_length=64, blank=True, help_text=_("The address the redeeming instance came from.")
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.scope})"


class ImportRecord(models.Model):
    """The audit of one export document imported into an account: where it came from (an
    upload or a transfer from another instance) and its SHA-256. One row per document and
    account, so importing the same document again writes nothing."""

    class Origin(models.TextChoices):
        UPLOAD = "upload", _("Upload")
        TRANSFER = "transfer", _("Transfer from another instance")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imports"
    )
    origin = models.CharField(max_length=16, choices=Origin.choices)
    instance = models.CharField(max_length=2048, blank=True)
    checksum = models.CharField(max_length=64)
    summary = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "checksum"], name="importrecord_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.origin} {self.checksum[:12]} into {self.user_id}"


class ImportedRow(models.Model):
    """Which local row an exported row became: (instance, kind, exported id) -> local id, per
    user. An import looks its rows up here first, so a second import of the same data (or a
    newer export of the same account) adds only what is new."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_rows"
    )
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=300, help_text=_("Exporting instance and its row id."))
    local_id = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key"], name="importedrow_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} -> {self.local_id}"


class IdempotentRequest(models.Model):
    """An API request sent with an `Idempotency-Key` (inbox/idempotency.py): the same key from
    the same user answers the stored response instead of doing the work again, for 24 hours.
    `status_code` is null while the first request is still being served."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotent_requests"
    )
    key = models.CharField(max_length=255)
    # SHA-256 of method, path and body: the same key with another request is refused.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    location = models.CharField(max_length=2000, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotent_request_unique_key")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotent_request_age_idx")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code or 'in progress'})"


class ImportJob(LeasedWork):
    """An uploaded export being imported in the background (inbox/portability/import_jobs.py):
    the web request stores the file and returns; a worker claims the job under a lease, imports
    it all or nothing, and leaves the outcome here for the console and the API to show. At most
    one queued or running job per account."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Not imported")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    origin = models.CharField(
        max_length=16, choices=ImportRecord.Origin.choices, default=ImportRecord.Origin.UPLOAD
    )
    file_key = models.CharField(max_length=200, help_text=_("The upload in storage, until done."))
    size_bytes = models.PositiveBigIntegerField(default=0)
    summary = models.JSONField(default=dict, blank=True)
    error_code = models.CharField(max_length=40, blank=True)
    error_message = models.TextField(blank=True)
    error_fields = models.JSONField(default=dict, blank=True)
    error_status = models.PositiveSmallIntegerField(
        default=0, help_text=_("The HTTP status the refusal has in the API (400, 409…).")
    )
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # The rule "one at a time per account", kept by the database as well.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status__in=["queued", "running"]),
                name="importjob_one_active_per_user",
            )
        ]

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    def __str__(self) -> str:
        return f"import {self.pk} of {self.user_id}: {self.status}"
