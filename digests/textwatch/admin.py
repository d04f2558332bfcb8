from django.contrib import admin

from digests.textwatch.models import (
    AppriseRoute,
    AppriseSend,
    AppriseTarget,
    TextSnapshot,
    TextWatch,
)


@admin.register(TextWatch)
class TextWatchAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "status", "last_checked_at", "error_count")
    list_filter = ("status", "trigger")
    search_fields = ("name", "url")
    raw_id_fields = ("owner", "notifier")


@admin.register(AppriseTarget)
class AppriseTargetAdmin(admin.ModelAdmin):
    # Never the URL: it holds the service's secrets.
    list_display = ("label", "owner", "service", "hint", "created_at")
    fields = ("owner", "label", "service", "hint", "created_at")
    readonly_fields = fields
    raw_id_fields = ("owner",)


@admin.register(TextSnapshot)
class TextSnapshotAdmin(admin.ModelAdmin):
    list_display = ("watch", "checked_at", "added_lines", "removed_lines", "notified")
    raw_id_fields = ("watch", "run")


@admin.register(AppriseRoute)
class AppriseRouteAdmin(admin.ModelAdmin):
    list_display = ("target", "subscription")
    raw_id_fields = ("target", "subscription")


@admin.register(AppriseSend)
class AppriseSendAdmin(admin.ModelAdmin):
    list_display = ("run", "target", "status", "attempts", "sent_at", "next_attempt_at")
    list_filter = ("status",)
    raw_id_fields = ("run", "target")
