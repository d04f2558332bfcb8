"""Governance in the admin: topics with takedown and restore (each asks for a reason and
leaves a ModerationAction), the reports queue, the domain block list, editions."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from topics import publishing
from topics.models import (
    BlockedDomain,
    Edition,
    EditionItem,
    ModerationAction,
    PublishEvent,
    Report,
    Topic,
)


class ModerationReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason (kept in the audit trail)"), widget=forms.Textarea)


class ModerationActionInline(admin.TabularInline):
    model = ModerationAction
    extra = 0
    can_delete = False
    fields = ["created_at", "action", "actor", "reason"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


def _moderate(modeladmin, request, queryset, *, verb: str, service):
    """An admin action with an intermediate page: the reason is required."""
    if "apply" in request.POST:
        form = ModerationReasonForm(request.POST)
        if form.is_valid():
            now = timezone.now()
            for topic in queryset:
                service(topic, actor=request.user, reason=form.cleaned_data["reason"], now=now)
            count = queryset.count()
            done = ngettext("%(verb)s: %(count)d topic.", "%(verb)s: %(count)d topics.", count)
            modeladmin.message_user(
                request, done % {"verb": verb, "count": count}, messages.SUCCESS
            )
            return None
    else:
        form = ModerationReasonForm()
    return render(
        request,
        "admin/topics/moderate.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": _("%(verb)s topics") % {"verb": verb},
            "topics": queryset,
            "form": form,
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
        },
    )


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = [
        "title",
        "slug",
        "owner",
        "visibility",
        "status",
        "follower_count",
        "trending_score",
        "last_edition_at",
    ]
    list_filter = ["status", "visibility", "locale"]
    search_fields = ["title", "slug", "owner__email"]
    raw_id_fields = ["owner", "published_from", "sources"]
    readonly_fields = ["follower_count", "trending_score", "quality_score", "deleted_at"]
    inlines = [ModerationActionInline]
    actions = ["take_down", "restore"]

    @admin.action(description=_("Take down selected topics"))
    def take_down(self, request, queryset):
        return _moderate(self, request, queryset, verb=_("Take down"), service=publishing.take_down)

    @admin.action(description=_("Restore selected topics"))
    def restore(self, request, queryset):
        return _moderate(self, request, queryset, verb=_("Restore"), service=publishing.restore)


class EditionItemInline(admin.TabularInline):
    model = EditionItem
    extra = 0
    fields = ["rank", "title", "url", "overall"]
    readonly_fields = fields

    def get_queryset(self, request):
        # Admins see restricted items too (the public never does).
        return EditionItem.every.all()


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = [
        "topic",
        "edition_date",
        "status",
        "item_count",
        "published_at",
        "attempts",
        "lease_expires_at",
    ]
    list_filter = ["status"]
    raw_id_fields = ["topic"]
    inlines = [EditionItemInline]


@admin.register(EditionItem)
class EditionItemAdmin(admin.ModelAdmin):
    list_display = ["title", "edition", "rank", "overall"]
    raw_id_fields = ["edition", "item"]
    search_fields = ["title", "url"]

    def get_queryset(self, request):
        return EditionItem.every.all()


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["topic", "reason", "created_at", "resolved_at"]
    list_filter = ["reason", ("resolved_at", admin.EmptyFieldListFilter)]
    raw_id_fields = ["topic", "edition", "reporter"]
    readonly_fields = ["reporter_key"]


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    list_display = ["topic", "action", "actor", "created_at"]
    list_filter = ["action"]
    raw_id_fields = ["topic", "actor"]

    def has_change_permission(self, request, obj=None):
        return False  # the audit trail is append-only

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(BlockedDomain)
class BlockedDomainAdmin(admin.ModelAdmin):
    list_display = ["domain", "reason", "created_at"]
    search_fields = ["domain"]


@admin.register(PublishEvent)
class PublishEventAdmin(admin.ModelAdmin):
    list_display = ["user", "topic", "created_at"]
    raw_id_fields = ["user", "topic"]
