"""Delivery pages: the public one-click unsubscribe, and the console's email preview, webhook
actions and delivery retry. Thin callers of the delivery services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from digests.delivery import endpoints, service, unsubscribe
from digests.delivery.addresses import recipient_for
from digests.delivery.brief import brief_for_run
from digests.delivery.email import render_brief_email
from digests.models import Delivery, Run, Subscription, WebhookEndpoint
from digests.tasks import enqueue_delivery

# The session key under which a webhook secret waits for its one showing.
NEW_SECRET_KEY = "digests.new_webhook_secret"  # noqa: S105 — a session key name


def remember_new_secret(request, subscription_id: int, secret: str | None) -> None:
    if secret:
        request.session[NEW_SECRET_KEY] = {"subscription": subscription_id, "secret": secret}


def pop_new_secret(request, subscription_id: int) -> str | None:
    stored = request.session.get(NEW_SECRET_KEY)
    if stored and stored.get("subscription") == subscription_id:
        del request.session[NEW_SECRET_KEY]
        return stored.get("secret")
    return None


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


def _owned(request, subscription_id: int) -> Subscription:
    return get_object_or_404(
        Subscription.objects.alive().select_related("owner"), pk=subscription_id, owner=request.user
    )


@login_required
def email_preview(request, subscription_id: int):
    """The email of a run as it is (or would be) sent: the latest brief with items, or ?run=."""
    subscription = _owned(request, subscription_id)
    runs = Run.objects.filter(
        subscription=subscription, status=Run.Status.SUCCEEDED, delivered_count__gt=0
    ).select_related("subscription")
    run_id = request.GET.get("run", "")
    run = (
        runs.filter(pk=run_id).first()
        if run_id.isdigit()
        else runs.order_by("-scheduled_at", "-id").first()
    )
    rendered = None
    recipient = recipient_for(subscription)
    if run is not None:
        rendered = render_brief_email(
            brief_for_run(run), recipient=recipient, subject_template=subscription.email_subject
        )
    return render(
        request,
        "digests/email_preview.html",
        {"subscription": subscription, "run": run, "email": rendered, "recipient": recipient},
    )


@login_required
@require_POST
def webhook_action(request, subscription_id: int, action: str):
    subscription = _owned(request, subscription_id)
    endpoint = get_object_or_404(WebhookEndpoint, subscription=subscription)
    now = timezone.now()
    if action == "rotate":
        remember_new_secret(request, subscription.pk, endpoints.rotate_secret(endpoint, now=now))
        messages.success(
            request, _("New secret made. The old one keeps signing for 24 hours as well.")
        )
    elif action == "test":
        delivery = service.send_test_event(endpoint, now=now)
        if delivery.status == Delivery.Status.SENT:
            messages.success(
                request,
                _("Test event delivered: the endpoint answered %(code)s.")
                % {"code": delivery.response_code},
            )
        else:
            messages.error(
                request, _("The test event failed: %(error)s") % {"error": delivery.last_error}
            )
    elif action in ("enable", "disable"):
        endpoints.set_enabled(endpoint, action == "enable", now=now)
        messages.success(
            request, _("Webhook turned on.") if action == "enable" else _("Webhook turned off.")
        )
    else:
        return redirect("digests:detail", subscription.pk)
    return redirect("digests:detail", subscription.pk)


@login_required
@require_POST
def delivery_retry(request, subscription_id: int, delivery_id: int):
    subscription = _owned(request, subscription_id)
    delivery = get_object_or_404(Delivery, pk=delivery_id, subscription=subscription)
    try:
        service.retry_delivery(delivery, now=timezone.now())
    except service.DeliveryStateError as exc:
        messages.error(request, exc.message)
    else:
        enqueue_delivery(delivery.pk)
        messages.success(request, _("Sending it again."))
    return redirect("digests:detail", subscription.pk)
