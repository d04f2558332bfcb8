"""Console pages for newsletters (/sources/newsletters/): the addresses with a copy button,
new and revoke, held mail with "allow this sender", confirmations with their link, and an
issue's own page (the canonical address of its item)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ingest.library.input import SourceInputError
from ingest.models import ContentItem, InboundMessage, NewsletterAddress, UserSource
from ingest.newsletters import addresses
from ingest.newsletters.receiving import allow_sender, issue_url


def _subscriptions(user):
    from digests.models import Subscription

    return Subscription.objects.filter(owner=user, deleted_at=None).order_by("name", "pk")


@login_required
def newsletter_list(request):
    rows = list(NewsletterAddress.objects.filter(user=request.user))
    shown = (
        InboundMessage.objects.filter(
            address__user=request.user,
            status__in=[InboundMessage.Status.HELD, InboundMessage.Status.CONFIRMATION],
        )
        .defer("raw")
        .select_related("address")[:100]
    )
    return render(
        request,
        "ingest/newsletters.html",
        {
            "addresses": rows,
            "waiting": shown,
            "subscriptions": _subscriptions(request.user).only("pk", "name"),
            "section": "sources",
        },
    )


@login_required
@require_POST
def newsletter_add(request):
    subscription = None
    chosen = request.POST.get("subscription", "")
    if chosen.isdigit():
        subscription = _subscriptions(request.user).filter(pk=int(chosen)).first()
    try:
        if chosen and subscription is None:
            raise SourceInputError({"subscription_id": _("No such subscription of yours.")})
        address = addresses.create_address(
            request.user,
            now=timezone.now(),
            label=request.POST.get("label", ""),
            split_roundups=request.POST.get("split_roundups") == "on",
            subscription=subscription,
        )
    except SourceInputError as exc:
        for message in exc.errors.values():
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("Your new address is %(address)s. Subscribe to a newsletter with it.")
            % {"address": address.address},
        )
    return redirect("ingest:newsletters")


@login_required
@require_POST
def newsletter_revoke(request, address_id: int):
    address = get_object_or_404(NewsletterAddress, user=request.user, pk=address_id)
    addresses.revoke(address, now=timezone.now())
    messages.success(request, _("%(address)s is revoked.") % {"address": address.address})
    return redirect("ingest:newsletters")


@login_required
@require_POST
def newsletter_allow(request, message_id: int):
    row = get_object_or_404(
        InboundMessage.objects.defer("raw").select_related("address"),
        address__user=request.user,
        pk=message_id,
    )
    try:
        taken = allow_sender(row.address, row.sender_email, now=timezone.now())
    except SourceInputError as exc:
        for message in exc.errors.values():
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("%(sender)s is allowed; %(n)d held messages became items.")
            % {"sender": row.sender_email, "n": taken},
        )
    return redirect("ingest:newsletters")


@login_required
def newsletter_issue(request, source_id: int, key: str):
    """An issue as Tidings keeps it, for readers whose library has its source."""
    if not UserSource.objects.filter(user=request.user, source_id=source_id).exists():
        raise Http404
    address = get_object_or_404(NewsletterAddress, source_id=source_id)
    item = ContentItem.objects.filter(
        canonical_url=issue_url(address, key), sources__id=source_id
    ).first()
    if item is None:
        raise Http404
    return render(request, "ingest/newsletter_issue.html", {"item": item, "section": "sources"})
