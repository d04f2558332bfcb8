"""The console's credits page: a thin caller of billing.ledger_pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone

from billing.ledger_pages import credits_page


@login_required
def credits(request):
    raw = request.GET.get("before", "")
    page = credits_page(
        request.user, now=timezone.now(), before=int(raw) if raw.isdigit() else None
    )
    request.billing_account = page.account  # the header shows it too: no second query
    return render(request, "billing/credits.html", {"page": page, "nav": "billing"})
