from django.contrib import admin

from inbox.models import (
    ApiToken,
    AuthThrottleCounter,
    IdempotentRequest,
    ImportedRow,
    ImportJob,
    ImportRecord,
    PushDevice,
    TransferCode,
    UserContentState,
    UserPreference,
)


@admin.register(UserContentState)
class UserContentStateAdmin(admin.ModelAdmin):
    list_display = ["user", "item", "delivered_count", "last_delivered_at", "read_at", "saved_at"]
    list_filter = ["read_at", "saved_at", "not_interested_at"]
    search_fields = ["user__email", "canonical_url_hash"]
    raw_id_fields = ["user", "item", "last_run"]


@admin.register(UserPreference)
class UserPreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "ui_locale", "timezone", "locale_mode"]
    list_filter = ["ui_locale", "locale_mode"]
    search_fields = ["user__email"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "scope", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["scope", "revoked_at"]
    search_fields = ["name", "prefix", "user__email"]
    readonly_fields = ["prefix", "token_hash", "created_at", "last_used_at"]
    raw_id_fields = ["user"]


@admin.register(PushDevice)
class PushDeviceAdmin(admin.ModelAdmin):
    list_display = ["user", "label", "endpoint", "created_at", "last_sent_at"]
    search_fields = ["user__email", "label", "endpoint"]
    # The keys only encrypt for the browser; nobody needs to read or edit them here.
    exclude = ["p256dh", "auth", "endpoint_hash"]
    readonly_fields = ["endpoint", "created_at", "last_sent_at"]
    raw_id_fields = ["user"]


@admin.register(AuthThrottleCounter)
class AuthThrottleCounterAdmin(admin.ModelAdmin):
    """Read-only view of the login throttle; deleting a row lifts that lock-out early."""

    list_display = ["key", "count", "window_ends_at"]
    list_filter = ["window_ends_at"]
    search_fields = ["key"]
    readonly_fields = ["key", "count", "window_ends_at"]

    def has_add_permission(self, request):
        return False


@admin.register(TransferCode)
class TransferCodeAdmin(admin.ModelAdmin):
    list_display = ["prefix", "user", "scope", "created_at", "expires_at", "used_at", "revoked_at"]
    list_filter = ["scope", "used_at", "revoked_at"]
    search_fields = ["prefix", "user__email", "checksum"]
    readonly_fields = [f.name for f in TransferCode._meta.fields]


@admin.register(ImportRecord)
class ImportRecordAdmin(admin.ModelAdmin):
    list_display = ["user", "origin", "instance", "checksum", "created_at"]
    list_filter = ["origin"]
    search_fields = ["user__email", "checksum", "instance"]
    readonly_fields = [f.name for f in ImportRecord._meta.fields]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Imports in the background: read-only (the worker and the tick move them)."""

    list_display = ["user", "status", "origin", "size_bytes", "created_at", "finished_at"]
    list_filter = ["status", "origin"]
    search_fields = ["user__email"]
    readonly_fields = [f.name for f in ImportJob._meta.fields]


@admin.register(ImportedRow)
class ImportedRowAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "key", "local_id"]
    list_filter = ["kind"]
    search_fields = ["user__email", "key"]
    raw_id_fields = ["user"]


@admin.register(IdempotentRequest)
class IdempotentRequestAdmin(admin.ModelAdmin):
    """Read-only: what an API client's retry would be answered (kept 24 hours)."""

    list_display = ["key", "user", "status_code", "created_at"]
    list_filter = ["status_code"]
    search_fields = ["key", "user__email"]
    readonly_fields = [f.name for f in IdempotentRequest._meta.fields]
