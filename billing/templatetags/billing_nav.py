"""The console header's plan, balance and period: one query per request, and only on pages
that show the header to a signed-in user."""

from __future__ import annotations

from django import template
from django.utils import timezone

from billing.accounts import ensure_account
from billing.models import Account

register = template.Library()


@register.simple_tag(takes_context=True)
def billing_account(context) -> Account | None:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    if getattr(request, "billing_account", None) is None:
        request.billing_account = ensure_account(user, now=timezone.now())
    return request.billing_account
