from django.contrib import admin

from digests.models import Run, RunItem, Subscription, SubscriptionSource


class SubscriptionSourceInline(admin.TabularInline):
    model = SubscriptionSource
    extra = 0
    raw_id_fields = ["source"]


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "status", "cron", "timezone", "next_run_at", "last_run_at"]
    list_filter = ["status", "redelivery", "language_mode"]
    search_fields = ["name", "topic", "owner__email"]
    raw_id_fields = ["owner"]
    inlines = [SubscriptionSourceInline]


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
    ]
    list_filter = ["status", "trigger"]
    search_fields = ["subscription__name", "user__email", "error"]
    raw_id_fields = ["subscription", "user"]
    date_hierarchy = "scheduled_at"
    inlines = [RunItemInline]


@admin.register(RunItem)
class RunItemAdmin(admin.ModelAdmin):
    list_display = ["title", "run", "rank", "overall", "relevance", "redelivered", "delivered_at"]
    list_filter = ["redelivered"]
    search_fields = ["title", "url"]
    raw_id_fields = ["run", "item"]
