from django.contrib import admin

from inbox.models import (
    ApiToken,
    ImportedRow,
    ImportRecord,
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


@admin.register(ImportedRow)
class ImportedRowAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "key", "local_id"]
    list_filter = ["kind"]
    search_fields = ["user__email", "key"]
    raw_id_fields = ["user"]
