"""The public one-click unsubscribe page (no login: the signed link is the proof)."""

from __future__ import annotations

from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from digests.delivery import unsubscribe


@csrf_exempt  # RFC 8058: the mail provider POSTs without a session; the signature is the proof
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe_page(request, token: str):
    """GET shows what the link would do and a button (a GET never changes anything: mail
    scanners open links); POST — the button, or a mail client's one-click — does it."""
    try:
        if request.method == "POST":
            outcome, link = unsubscribe.unsubscribe(token, now=timezone.now())
        else:
            link = unsubscribe.open_link(token)
            outcome = None if unsubscribe.receives(link) else unsubscribe.Outcome.NOT_RECEIVING
    except unsubscribe.InvalidLink:
        return render(request, "digests/unsubscribe.html", {"invalid": True}, status=400)
    return render(
        request,
        "digests/unsubscribe.html",
        {
            "subscription": link.subscription,
            "address": link.address,
            "outcome": outcome.value if outcome else "",
            "email_on": bool(link.subscription and link.subscription.email_enabled),
        },
    )
