"""The combination cache in the Django admin: entries with the hit-rate figures above the
list, a "Clear the cache" page (one key, entries created before a date, expired, or all), and
the per-kind counters. Imported by digests/admin.py, which is what registers it."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from digests.ai import combination_cache
from digests.models import CombinationCacheCounter, CombinationCacheEntry


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.1f} %"


class ExpiredFilter(admin.SimpleListFilter):
    title = _("expiry")
    parameter_name = "expired"

    def lookups(self, request, model_admin):
        return [("yes", _("Expired")), ("no", _("Not expired"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "yes":
            return queryset.filter(expires_at__lte=now)
        if self.value() == "no":
            return queryset.filter(expires_at__gt=now)
        return queryset


class ClearCacheForm(forms.Form):
    SCOPES = [
        ("key", _("The entry with this key")),
        ("before", _("Entries created before this date (00:00 UTC)")),
        ("expired", _("Expired entries")),
        ("all", _("All entries")),
    ]
    scope = forms.ChoiceField(label=_("Clear"), choices=SCOPES, widget=forms.RadioSelect)
    key = forms.CharField(label=_("Key"), required=False, max_length=64)
    before = forms.DateField(
        label=_("Created before"), required=False, help_text=_("YYYY-MM-DD, in UTC.")
    )

    def clean(self):
        data = super().clean()
        scope = data.get("scope")
        if scope == "key" and not data.get("key"):
            self.add_error("key", _("Enter the key of the entry to clear."))
        if scope == "before" and not data.get("before"):
            self.add_error("before", _("Enter the date: entries created before it are cleared."))
        return data

    def clear_arguments(self) -> dict:
        """combination_cache.clear()'s arguments for the chosen scope."""
        scope = self.cleaned_data["scope"]
        return {
            "key": self.cleaned_data["key"] if scope == "key" else "",
            "before": self.cleaned_data["before"] if scope == "before" else None,
            "expired": scope == "expired",
            "everything": scope == "all",
        }


@admin.register(CombinationCacheEntry)
class CombinationCacheEntryAdmin(admin.ModelAdmin):
    list_display = [
        "short_key",
        "kind",
        "state",
        "hits",
        "tokens",
        "created_at",
        "last_hit_at",
        "expires_at",
        "expired",
    ]
    list_filter = ["kind", "state", ExpiredFilter]
    search_fields = ["^key"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "key",
        "kind",
        "state",
        "value",
        "inputs",
        "group",
        "input_tokens",
        "output_tokens",
        "hits",
        "created_at",
        "last_hit_at",
        "expires_at",
    ]

    @admin.display(description=_("key"), ordering="key")
    def short_key(self, entry: CombinationCacheEntry) -> str:
        return f"{entry.key[:16]}…"

    @admin.display(description=_("tokens"))
    def tokens(self, entry: CombinationCacheEntry) -> int:
        return entry.input_tokens + entry.output_tokens

    @admin.display(description=_("expired"), boolean=True)
    def expired(self, entry: CombinationCacheEntry) -> bool:
        return entry.expires_at <= timezone.now()

    # Entries are made by the cache only; an admin reads, deletes, or clears them.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_urls(self):
        clear = path(
            "clear/",
            self.admin_site.admin_view(self.clear_view),
            name="digests_combinationcacheentry_clear",
        )
        return [clear, *super().get_urls()]

    def changelist_view(self, request, extra_context=None):
        figures = combination_cache.stats(now=timezone.now())
        labels = dict(CombinationCacheEntry.Kind.choices)
        rows = [
            {"label": labels.get(kind, kind), **kind_figures}
            for kind, kind_figures in figures["by_kind"].items()
        ]
        for row in [*rows, figures]:
            row["hit_rate_display"] = _percent(row["hit_rate"])
        extra_context = {
            **(extra_context or {}),
            "cache_stats": figures,
            "cache_stats_rows": rows,
            "can_clear_cache": self.has_delete_permission(request),
        }
        return super().changelist_view(request, extra_context)

    def clear_view(self, request):
        if not self.has_delete_permission(request):
            raise PermissionDenied
        form = ClearCacheForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                deleted = combination_cache.clear(now=timezone.now(), **form.clear_arguments())
            except combination_cache.ClearError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                self.message_user(
                    request,
                    ngettext(
                        "Cleared %(count)d combination cache entry.",
                        "Cleared %(count)d combination cache entries.",
                        deleted,
                    )
                    % {"count": deleted},
                    messages.SUCCESS,
                )
                return redirect("admin:digests_combinationcacheentry_changelist")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Clear the combination cache"),
            "form": form,
        }
        return TemplateResponse(request, "admin/digests/combinationcacheentry/clear.html", context)


@admin.register(CombinationCacheCounter)
class CombinationCacheCounterAdmin(admin.ModelAdmin):
    list_display = ["kind", "hits", "misses", "hit_rate", "tokens_saved"]
    readonly_fields = ["kind", "hits", "misses", "tokens_saved"]
    actions = ["reset"]

    @admin.display(description=_("hit rate"))
    def hit_rate(self, counter: CombinationCacheCounter) -> str:
        total = counter.hits + counter.misses
        return _percent(counter.hits / total if total else None)

    @admin.action(description=_("Reset the selected counters to zero"), permissions=["delete"])
    def reset(self, request, queryset):
        reset = queryset.update(hits=0, misses=0, tokens_saved=0)
        self.message_user(
            request,
            ngettext("Reset %(count)d counter.", "Reset %(count)d counters.", reset)
            % {"count": reset},
            messages.SUCCESS,
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
