"""The Inbox pages: delivered items, a run's page, item actions, preferences, API tokens.

Thin callers of inbox.listing, inbox.states, inbox.preferences and inbox.tokens. Item actions
answer an htmx request with the re-rendered item (and the nav counts, out of band), and a plain
form POST with a redirect back to where the user was: the Inbox works without JavaScript.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.compiled_query import PLACEHOLDER_ID, CompiledQuery
from digests.models import Run, RunItem, Subscription
from digests.narrative.language import shown_locale, shown_overview
from inbox import item_markup
from inbox import reading as reading_service
from inbox.account_views import safe_next
from inbox.forms import InboxFilterForm, PreferencesForm
from inbox.listing import Cursor, badge_counts, inbox_page_rows, with_states
from inbox.models import ApiToken
from inbox.page_cache import cached_page, render_page
from inbox.portability.console import data_context
from inbox.preferences import (
    PreferenceError,
    current_language_choice,
    preference_for,
    update_preferences,
)
from inbox.push_devices import (
    PushDeviceError,
    devices_of,
    push_enabled,
    register_device,
    remove_device,
)
from inbox.readerapi import briefs
from inbox.states import ACTIONS, UnknownAction, apply_action
from inbox.tokens import TokenError, issue_token, revoke_token

FILTERS = ("all", "unread", "saved", "not_interested")


def user_zone(request) -> str:
    preference = getattr(request, "preference", None)
    return preference.timezone if preference else "UTC"


def item_context() -> dict:
    """What every item of a page shares, resolved once per page instead of once per item (a
    page of 30 items would otherwise reverse 120 URLs and translate 330 labels)."""
    return {"inbox_urls": item_markup.url_prefixes(), "labels": item_markup.labels()}


def _query(params, **changes) -> str:
    """The current query string with some parameters changed (None drops one); empty values
    are left out so URLs stay short and stable."""
    merged = {key: params.get(key, "") for key in params}
    merged.update(changes)
    kept = [(key, value) for key, value in merged.items() if value not in (None, "")]
    return "?" + urlencode(kept) if kept else "?"


# The filter's choices, on every Inbox page: compiled once (config/compiled_query.py).
_FILTER_SUBSCRIPTIONS = CompiledQuery(
    lambda owner_id: (
        Subscription.objects.alive().filter(owner_id=owner_id).only("id", "name").order_by("name")
    ),
    PLACEHOLDER_ID,
)


@login_required
def index(request):
    return cached_page(request, lambda: _index(request))


def _index(request) -> tuple[str, dict, bool]:
    subscriptions = _FILTER_SUBSCRIPTIONS.all(request.user.pk)
    form = InboxFilterForm(request.GET, subscriptions=subscriptions)
    form.is_valid()  # refused fields are shown with their errors and left out of the filter
    inbox_filter = form.inbox_filter()
    after = Cursor.parse(request.GET.get("after", ""))
    page = inbox_page_rows(request.user, inbox_filter, after=after, zone=user_zone(request))
    params = {k: v for k, v in request.GET.items() if k != "after"}
    ever_delivered = bool(page.items) or (
        after is None and RunItem.objects.filter(run__user=request.user).exists()
    )
    context = {
        "form": form,
        "subscriptions": subscriptions,
        "filter_values": {
            "q": request.GET.get("q", ""),
            "subscription": inbox_filter.subscription_id,
            "from": request.GET.get("from", ""),
            "to": request.GET.get("to", ""),
        },
        "items": page.items,
        "current": inbox_filter.show,
        # The page is named after its tab: "Not interested" is not the Inbox.
        "heading": _("Inbox")
        if inbox_filter.show == "all"
        else dict(form.fields["show"].choices)[inbox_filter.show],
        "filters": FILTERS,
        "tabs": [
            (value, label, _query(params, show=None if value == "all" else value))
            for value, label in form.fields["show"].choices
        ],
        "next_cursor": page.next_cursor,
        "next_url": _query(params, after=str(page.next_cursor)) if page.next_cursor else "",
        "first_url": _query(params) if after else "",
        "clear_url": _query({"show": params.get("show", "")}),
        "is_filtered": form.is_filtered,
        "has_subscriptions": bool(subscriptions),
        "ever_delivered": ever_delivered,
        "return_to": request.get_full_path(),
        "nav": "saved" if inbox_filter.show == "saved" else "inbox",
        **item_context(),
    }
    return "inbox/index.html", context, not form.errors


@login_required
def run_detail(request, run_id: int):
    run = get_object_or_404(
        Run.objects.select_related("subscription"), pk=run_id, user=request.user
    )
    briefs.mark_opened(request.user, run, now=timezone.now())
    run_items = with_states(request.user, list(run.items.order_by("rank")))
    for run_item in run_items:
        run_item.subscription_name = run.subscription.name
    items = [item_markup.item_row(run_item) for run_item in run_items]
    return render_page(
        request,
        "inbox/run.html",
        {
            "run": run,
            "overview": shown_overview(run, shown_locale(run.subscription)),
            "items": items,
            "return_to": request.get_full_path(),
            "nav": "inbox",
            **item_context(),
        },
    )


@login_required
def read_item(request, run_item_id: int):
    """The in-app reader (inbox/reading.py): the item's text here, marked read."""
    reading = reading_service.read_item(request.user, run_item_id, now=timezone.now())
    return render_page(
        request,
        "inbox/reader.html",
        {
            "reading": reading,
            "item": reading.run_item,
            "return_to": reverse("inbox:index") + f"#item-{run_item_id}",
            "nav": "inbox",
            **item_context(),
        },
    )


@login_required
@require_POST
def item_action(request, run_item_id: int, action: str | None = None):
    """One action on one item: named in the URL (API-like callers, older pages) or by the
    clicked button of the item's form (`action=` in the body)."""
    action = action or request.POST.get("action", "")
    run_item = get_object_or_404(
        RunItem.objects.select_related("run__subscription"), pk=run_item_id, run__user=request.user
    )
    try:
        state = apply_action(request.user, run_item, action, now=timezone.now())
    except UnknownAction as exc:
        return HttpResponseBadRequest(str(exc))
    # The forms send the page they are on with the item's anchor, so without JavaScript the
    # redirect lands the reader back on the item they acted on.
    return_to = safe_next(request, "inbox:index")
    if not request.htmx:
        return redirect(return_to)
    run_item.state = state
    run_item.subscription_name = run_item.run.subscription.name
    return render_page(
        request,
        "inbox/_item_response.html",
        {
            "item": item_markup.item_row(run_item),
            "show_run": request.POST.get("show_run") == "1",
            "return_to": return_to.split("#", 1)[0],
            "badges": badge_counts(request.user),
            **item_context(),
        },
    )


@login_required
def preferences(request):
    return preferences_page(request)


def preferences_page(request, *, new_code: dict | None = None):
    """The preferences form and the "Your data" part (inbox/portability/views.py), with a
    transfer code just made shown once."""
    preference = preference_for(request.user)
    # A transfer code's POST shows this page too; it is not a preferences form.
    posted = request.POST if request.method == "POST" and new_code is None else None
    form = PreferencesForm(
        posted,
        initial={
            "language": current_language_choice(preference),
            "timezone": preference.timezone,
        },
    )
    if form.is_bound and form.is_valid():
        try:
            saved = update_preferences(
                request.user,
                language=form.cleaned_data["language"],
                timezone=form.cleaned_data["timezone"],
                browser_language=translation.get_language_from_request(request),
            )
        except PreferenceError as exc:
            for field, message in exc.errors.items():
                form.add_error(field if field in form.fields else None, message)
        else:
            # Said in the language just chosen, like the page that follows.
            translation.activate(saved.ui_locale)
            messages.success(request, _("Preferences saved."))
            return redirect("inbox:preferences")
    return render(
        request,
        "inbox/preferences.html",
        {
            "form": form,
            "preference": preference,
            "nav": "preferences",
            "push_enabled": push_enabled(),
            "push_public_key": settings.TIDINGS_VAPID_PUBLIC_KEY,
            "push_devices": devices_of(request.user),
            "new_code": new_code,
            **data_context(request.user, now=timezone.now()),
        },
    )


PUSH_BODY_MAX_BYTES = 8 * 1024


@login_required
@require_POST
def push_device_add(request):
    """The preferences page's script hands over this browser's push subscription (its
    `PushSubscription.toJSON()`); answers JSON, refusals in the API's error shape."""
    try:
        if len(request.body) > PUSH_BODY_MAX_BYTES:
            raise ValueError
        data = json.loads(request.body or b"{}")
        keys = data.get("keys") or {}
        if not isinstance(data, dict) or not isinstance(keys, dict):
            raise ValueError
        fields = [data.get("endpoint"), keys.get("p256dh"), keys.get("auth"), data.get("label")]
        if not all(isinstance(v, str) for v in fields[:3]) or not isinstance(fields[3], str | None):
            raise ValueError
    except (ValueError, AttributeError):
        message = _("Send the browser's push subscription as JSON.")
        return JsonResponse(
            {"error": {"code": "invalid", "message": message, "fields": {}}}, status=400
        )
    try:
        device, created = register_device(
            request.user,
            endpoint=fields[0],
            p256dh=fields[1],
            auth=fields[2],
            label=fields[3] or "",
            now=timezone.now(),
        )
    except PushDeviceError as exc:
        body = {"error": {"code": exc.code, "message": exc.message, "fields": exc.errors}}
        return JsonResponse(body, status=exc.status_code)
    return JsonResponse({"id": device.pk, "created": created}, status=201 if created else 200)


@login_required
@require_POST
def push_device_remove(request, device_id: int):
    if remove_device(request.user, device_id):
        messages.success(request, _("That device gets no more push notifications."))
    return redirect("inbox:preferences")


@login_required
def tokens(request):
    new_token = None
    if request.method == "POST":
        if "revoke" in request.POST:
            token_id = request.POST.get("revoke", "")
            if token_id.isdigit() and revoke_token(request.user, int(token_id), now=timezone.now()):
                messages.success(request, _("Token revoked. Clients using it are refused now."))
            return redirect("inbox:tokens")
        try:
            _token, new_token = issue_token(
                request.user,
                request.POST.get("name", ""),
                request.POST.get("scope", ApiToken.Scope.WRITE),
            )
        except TokenError as exc:
            messages.error(request, exc.message)
    return render(
        request,
        "inbox/tokens.html",
        {
            "tokens": ApiToken.objects.filter(user=request.user),
            "new_token": new_token,
            "actions": ACTIONS,
            "scopes": ApiToken.Scope.choices,
            "reader_url": request.build_absolute_uri("/api/greader/"),
            "nav": "tokens",
        },
    )
