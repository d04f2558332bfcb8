from django.contrib import admin
from django.db import models

from ingest.models import (
    Backfill,
    ContentEnrichment,
    ContentItem,
    ContentItemSource,
    FetchLog,
    Folder,
    InboundMessage,
    NewsletterAddress,
    SearchQueryPoll,
    SimhashBand,
    Source,
    UserSource,
)
from ingest.pool import licenses

# Typed URLs without a scheme mean https (Django 6 default).
HTTPS_URL_FIELDS = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = [
        "display_name",
        "type",
        "status",
        "license_tier",
        "consecutive_failures",
        "last_refresh_at",
        "next_refresh_at",
        "lease_expires_at",
    ]
    list_filter = ["type", "status", "refresh_mode", "license_tier"]
    list_editable = ["license_tier"]
    search_fields = ["title", "url"]
    readonly_fields = ["config_hash", "created_at"]
    actions = ["refresh_now_action", "reactivate"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "license_tier" in form.changed_data:
            # Its items follow (the strictest tier of their sources), and public pages that
            # showed a now restricted item are retired.
            licenses.recompute_for_source(obj)

    @admin.action(description="Schedule a refresh now")
    def refresh_now_action(self, request, queryset):
        from django.utils import timezone

        queryset.update(next_refresh_at=timezone.now())

    @admin.action(description="Reactivate (clear failures)")
    def reactivate(self, request, queryset):
        queryset.update(status=Source.Status.ACTIVE, consecutive_failures=0, last_error="")


@admin.register(UserSource)
class UserSourceAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "source", "folder", "added_at"]
    search_fields = ["display_name", "user__email", "source__url"]
    raw_id_fields = ["user", "source", "folder"]


@admin.register(Folder)
class FolderAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__email"]
    raw_id_fields = ["user"]


@admin.register(FetchLog)
class FetchLogAdmin(admin.ModelAdmin):
    list_display = [
        "source",
        "started_at",
        "kind",
        "outcome",
        "http_status",
        "fetched",
        "inserted",
        "updated",
        "deduped",
        "failed",
        "duration_ms",
    ]
    list_filter = ["kind", "outcome", "started_at"]
    search_fields = ["source__url", "error"]
    raw_id_fields = ["source"]
    date_hierarchy = "started_at"


@admin.register(ContentItem)
class ContentItemAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = [
        "title",
        "site_name",
        "published_at",
        "first_seen_at",
        "score_quality",
        "score_impact",
        "section",
        "license_tier",
        "status",
    ]
    list_filter = ["status", "license_tier", "section", "content_too_large", "language"]
    search_fields = ["title", "canonical_url"]
    readonly_fields = ["canonical_url_hash", "first_seen_at", "last_seen_at"]
    date_hierarchy = "first_seen_at"


@admin.register(ContentItemSource)
class ContentItemSourceAdmin(admin.ModelAdmin):
    list_display = ["item", "source", "first_seen_at"]
    raw_id_fields = ["item", "source"]


@admin.register(ContentEnrichment)
class ContentEnrichmentAdmin(admin.ModelAdmin):
    list_display = ["item", "locale", "prompt_version", "generator", "created_at"]
    list_filter = ["locale", "prompt_version", "generator"]
    raw_id_fields = ["item"]


@admin.register(SimhashBand)
class SimhashBandAdmin(admin.ModelAdmin):
    list_display = ["item", "band", "value"]
    list_filter = ["band"]
    raw_id_fields = ["item"]


@admin.register(SearchQueryPoll)
class SearchQueryPollAdmin(admin.ModelAdmin):
    """When each NAVER query was last asked (at most once per 30 minutes)."""

    list_display = ["source", "query", "last_asked_at"]
    search_fields = ["query"]
    raw_id_fields = ["source"]


@admin.register(Backfill)
class BackfillAdmin(admin.ModelAdmin):
    """The daily 03:30 (Asia/Seoul) backfills: their reads are FetchLogs of kind backfill."""

    list_display = ["day", "requested_at", "sources"]
    date_hierarchy = "requested_at"


@admin.register(NewsletterAddress)
class NewsletterAddressAdmin(admin.ModelAdmin):
    list_display = ["local_part", "user", "label", "created_at", "revoked_at"]
    search_fields = ["local_part", "user__email", "label"]
    raw_id_fields = ["user", "source"]


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    """What became of each received message; its raw text is not shown (it is a reader's mail)."""

    list_display = ["subject", "address", "status", "sender_email", "received_at", "dkim"]
    list_filter = ["status"]
    search_fields = ["subject", "sender_email", "address__local_part"]
    raw_id_fields = ["address", "item"]
    exclude = ["raw"]
