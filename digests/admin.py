from django.contrib import admin
from django.db import models

from digests.models import (
    Delivery,
    LLMBudgetDay,
    LLMCall,
    PushSend,
    Run,
    RunItem,
    Subscription,
    SubscriptionSource,
    WebhookEndpoint,
)
from digests.platform import cache_admin  # noqa: F401 - registers the combination cache admin
from ingest.models import UserSourceSet


class SubscriptionSourceInline(admin.TabularInline):
    model = SubscriptionSource
    extra = 0
    raw_id_fields = ["source"]


# Typed URLs without a scheme mean https (Django 6 default).
HTTPS_URL_FIELDS = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "owner",
        "status",
        "cron",
        "timezone",
        "next_run_at",
        "last_run_at",
        "email_enabled",
        "source_set",
    ]
    list_filter = ["status", "redelivery", "language_mode", "email_enabled"]
    search_fields = ["name", "topic", "owner__email", "source_set_hash"]
    raw_id_fields = ["owner", "watch_source"]
    readonly_fields = ["source_set_hash", "source_count"]
    inlines = [SubscriptionSourceInline]

    def get_queryset(self, request):
        # Seed 002: how many users share each subscription's source-set hash, in one query.
        sharing = (
            Subscription.objects.alive()
            .filter(source_set_hash=models.OuterRef("source_set_hash"))
            .order_by()
            .values("source_set_hash")
            .annotate(users=models.Count("owner", distinct=True))
            .values("users")
        )
        return super().get_queryset(request).annotate(sharing_users=models.Subquery(sharing))

    @admin.display(description="source set (users sharing it)", ordering="sharing_users")
    def source_set(self, subscription):
        if not subscription.source_set_hash:
            return "—"
        users = getattr(subscription, "sharing_users", None) or 0
        return f"{subscription.source_set_hash[:12]}… ({users})"


class RunItemInline(admin.TabularInline):
    model = RunItem
    extra = 0
    fields = ["rank", "title", "overall", "relevance", "reason", "redelivered"]
    readonly_fields = fields
    can_delete = False


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "subscription",
        "user",
        "status",
        "trigger",
        "scheduled_at",
        "delivered_count",
        "attempts",
        "lease_expires_at",
    ]
    list_filter = ["status", "trigger"]
    search_fields = ["subscription__name", "user__email", "error"]
    raw_id_fields = ["subscription", "user"]
    date_hierarchy = "scheduled_at"
    inlines = [RunItemInline]


@admin.register(RunItem)
class RunItemAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ["title", "run", "rank", "overall", "relevance", "redelivered", "delivered_at"]
    list_filter = ["redelivered"]
    search_fields = ["title", "url"]
    raw_id_fields = ["run", "item"]


@admin.register(SubscriptionSource)
class SubscriptionSourceAdmin(admin.ModelAdmin):
    list_display = ["subscription", "source", "enabled", "weight"]
    list_filter = ["enabled"]
    raw_id_fields = ["subscription", "source"]


@admin.register(LLMCall)
class LLMCallAdmin(admin.ModelAdmin):
    list_display = ["created_at", "purpose", "model", "outcome", "input_tokens", "output_tokens"]
    list_filter = ["purpose", "outcome", "model"]
    raw_id_fields = ["run"]
    date_hierarchy = "created_at"


@admin.register(LLMBudgetDay)
class LLMBudgetDayAdmin(admin.ModelAdmin):
    list_display = ["day", "tokens_used"]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "channel",
        "event",
        "status",
        "recipient",
        "run",
        "attempts",
        "response_code",
        "next_attempt_at",
        "sent_at",
        "created_at",
    ]
    list_filter = ["channel", "event", "status"]
    search_fields = ["recipient", "message_id", "last_error", "subscription__name"]
    raw_id_fields = ["run", "subscription", "endpoint"]
    date_hierarchy = "created_at"


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ["subscription", "url", "enabled", "consecutive_failures", "disabled_at"]
    list_filter = ["enabled"]
    search_fields = ["url", "subscription__name", "disabled_reason"]
    raw_id_fields = ["subscription"]
    # The secret signs deliveries: the admin never shows it, only its first characters.
    exclude = ["secret", "previous_secret"]
    readonly_fields = ["secret_hint"]


@admin.register(PushSend)
class PushSendAdmin(admin.ModelAdmin):
    list_display = ["delivery", "device", "response_code", "sent_at"]
    raw_id_fields = ["delivery", "device"]


@admin.register(UserSourceSet)
class UserSourceSetAdmin(admin.ModelAdmin):
    """Seed 002's per-user hash (the user's library), with how many users share it."""

    list_display = ["user", "short_hash", "source_count", "sharing_users", "updated_at"]
    search_fields = ["user__email", "source_set_hash"]
    readonly_fields = ["user", "source_set_hash", "source_count", "updated_at"]

    def get_queryset(self, request):
        sharing = (
            UserSourceSet.objects.filter(source_set_hash=models.OuterRef("source_set_hash"))
            .order_by()
            .values("source_set_hash")
            .annotate(users=models.Count("user"))
            .values("users")
        )
        return super().get_queryset(request).annotate(users_sharing=models.Subquery(sharing))

    @admin.display(description="hash", ordering="source_set_hash")
    def short_hash(self, row):
        return f"{row.source_set_hash[:12]}…"

    @admin.display(description="users sharing it", ordering="users_sharing")
    def sharing_users(self, row):
        return row.users_sharing

    def has_add_permission(self, request):
        return False  # kept by the library services, never by hand
