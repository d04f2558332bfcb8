"""Billing in the Django admin: accounts (tier changes go through billing.tiers, credits only
through the ledger: a grant or adjustment with a reason), the ledger read-only, holds, and a
spend summary by operation kind and by user above the ledger list."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from billing import ledger, stats, tiers
from billing.models import Account, CreditHold, CreditTransaction, RetiredLedgerTotal


class CreditForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[
            (CreditTransaction.Kind.GRANT, _("Grant (adds credits)")),
            (CreditTransaction.Kind.ADJUSTMENT, _("Adjustment (adds or takes credits)")),
        ],
        widget=forms.RadioSelect,
    )
    amount = forms.IntegerField(
        label=_("Credits"), help_text=_("Negative to take credits away (adjustments only).")
    )
    reason = forms.CharField(
        label=_("Reason"), max_length=300, help_text=_("Written to the ledger.")
    )
    # One key per form shown: a double-submitted form posts once.
    key = forms.CharField(widget=forms.HiddenInput)


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "kind",
        "tier",
        "balance",
        "monthly_quota",
        "period_start",
        "period_end",
        "credit_link",
    ]
    list_filter = ["kind", "tier"]
    search_fields = ["user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    fields = [
        "user",
        "kind",
        "tier",
        "balance",
        "monthly_quota",
        "period_start",
        "period_end",
        "anchor_day",
        "created_at",
    ]
    # Credits move only through the ledger; the tier through billing.tiers (save_model).
    readonly_fields = [
        "user",
        "kind",
        "balance",
        "monthly_quota",
        "period_start",
        "period_end",
        "anchor_day",
        "created_at",
    ]

    def has_add_permission(self, request):
        return False  # opened at sign-up, or on first use

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("credits"))
    def credit_link(self, account: Account) -> str:
        url = reverse("admin:billing_account_credit", args=[account.pk])
        return format_html('<a href="{}">{}</a>', url, _("Grant or adjust"))

    def save_model(self, request, obj, form, change):
        if change and "tier" in form.changed_data:
            result = tiers.change_tier(obj.pk, obj.tier, now=timezone.now(), actor=request.user)
            if result.paused:
                self.message_user(
                    request,
                    ngettext(
                        "Paused %(count)d subscription that no longer fits the plan.",
                        "Paused %(count)d subscriptions that no longer fit the plan.",
                        len(result.paused),
                    )
                    % {"count": len(result.paused)},
                    messages.WARNING,
                )

    def get_urls(self):
        credit = path(
            "<int:account_id>/credit/",
            self.admin_site.admin_view(self.credit_view),
            name="billing_account_credit",
        )
        return [credit, *super().get_urls()]

    def credit_view(self, request, account_id: int):
        if not self.has_change_permission(request):
            raise PermissionDenied
        account = get_object_or_404(Account, pk=account_id)
        form = CreditForm(
            request.POST if request.method == "POST" else None,
            initial={"key": uuid.uuid4().hex},
        )
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                posted = ledger.grant_or_adjust(
                    account.pk,
                    kind=data["kind"],
                    amount=data["amount"],
                    reason=data["reason"],
                    actor=request.user,
                    now=timezone.now(),
                    key=f"admin:{account.pk}:{data['key']}",
                )
            except ledger.LedgerInputError as exc:
                for field, message in exc.errors.items():
                    form.add_error(field if field in form.fields else None, message)
            else:
                self.message_user(
                    request,
                    _("%(kind)s of %(amount)+d credits posted; the balance is %(balance)d.")
                    % {
                        "kind": posted.row.get_kind_display(),
                        "amount": posted.row.amount,
                        "balance": posted.row.balance_after,
                    },
                    messages.SUCCESS,
                )
                return redirect("admin:billing_account_change", account.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Grant or adjust credits: %(account)s") % {"account": account},
            "account": account,
            "form": form,
        }
        return TemplateResponse(request, "admin/billing/account/credit.html", context)


@admin.register(CreditTransaction)
class CreditTransactionAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "account",
        "kind",
        "amount",
        "balance_after",
        "run",
        "reason",
        "actor",
    ]
    list_filter = ["kind", "account__kind", "account__tier"]
    search_fields = ["account__user__email", "idempotency_key", "reason"]
    list_select_related = ["account__user", "actor"]
    date_hierarchy = "created_at"
    raw_id_fields = ["account", "run", "actor"]

    # The ledger is append-only: rows are read here, never added, changed or deleted.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        now = timezone.now()
        figures = stats.spend_stats(since=stats.month_start(now), until=now)
        labels = dict(CreditTransaction.Kind.choices)
        extra_context = {
            **(extra_context or {}),
            "spend": figures,
            "spend_by_kind": [
                {"label": labels.get(kind, kind), **row} for kind, row in figures["by_kind"].items()
            ],
        }
        return super().changelist_view(request, extra_context)


@admin.register(CreditHold)
class CreditHoldAdmin(admin.ModelAdmin):
    list_display = ["run", "account", "amount", "created_at", "expires_at"]
    list_select_related = ["account__user"]
    search_fields = ["account__user__email"]
    raw_id_fields = ["account", "run"]

    # Holds are the runs' own bookkeeping: shown for diagnosis, released by the runs.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(RetiredLedgerTotal)
class RetiredLedgerTotalAdmin(admin.ModelAdmin):
    """Deleted accounts' ledgers as anonymous monthly totals: read-only."""

    list_display = ["month", "tier", "kind", "amount", "rows", "accounts"]
    list_filter = ["tier", "kind", "month"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
