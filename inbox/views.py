"""The Inbox: delivered items newest first, a run's page, item actions, API tokens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, Q
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from digests.models import Run, RunItem
from inbox.account_views import safe_next
from inbox.models import ApiToken, UserContentState
from inbox.states import ACTIONS, UnknownAction, apply_action, states_by_hash
from inbox.tokens import TokenError, issue_token, revoke_token

PAGE_SIZE = 30
FILTERS = ("all", "unread", "saved", "not_interested")


def _with_states(user, run_items):
    states = states_by_hash(user, {ri.canonical_url_hash for ri in run_items})
    for run_item in run_items:
        run_item.state = states.get(run_item.canonical_url_hash)
    return run_items


def _parse_cursor(value: str) -> tuple[int, int] | None:
    run_id, _, rank = value.partition(".")
    if run_id.isdigit() and rank.isdigit():
        return int(run_id), int(rank)
    return None


@login_required
def index(request):
    current = request.GET.get("show", "all")
    if current not in FILTERS:
        current = "all"
    items = RunItem.objects.filter(run__user=request.user).select_related("run__subscription")
    state = UserContentState.objects.filter(
        user=request.user, canonical_url_hash=OuterRef("canonical_url_hash")
    )
    if current == "unread":
        items = items.exclude(Exists(state.filter(read_at__isnull=False)))
    elif current == "saved":
        items = items.filter(Exists(state.filter(saved_at__isnull=False)))
    elif current == "not_interested":
        items = items.filter(Exists(state.filter(not_interested_at__isnull=False)))
    if current != "not_interested":
        items = items.exclude(Exists(state.filter(not_interested_at__isnull=False)))
    after = _parse_cursor(request.GET.get("after", ""))
    if after:
        run_id, rank = after
        items = items.filter(Q(run_id__lt=run_id) | Q(run_id=run_id, rank__gt=rank))
    # Newest brief first, and inside a brief its own order (best first).
    page = list(items.order_by("-run_id", "rank")[: PAGE_SIZE + 1])
    has_more = len(page) > PAGE_SIZE
    page = _with_states(request.user, page[:PAGE_SIZE])
    next_cursor = f"{page[-1].run_id}.{page[-1].rank}" if has_more else None
    return render(
        request,
        "inbox/index.html",
        {
            "items": page,
            "current": current,
            "filters": FILTERS,
            "next_cursor": next_cursor,
        },
    )


@login_required
def run_detail(request, run_id: int):
    run = get_object_or_404(
        Run.objects.select_related("subscription"), pk=run_id, user=request.user
    )
    items = _with_states(request.user, list(run.items.order_by("rank")))
    return render(request, "inbox/run.html", {"run": run, "items": items})


@login_required
@require_POST
def item_action(request, run_item_id: int, action: str):
    run_item = get_object_or_404(RunItem, pk=run_item_id, run__user=request.user)
    try:
        apply_action(request.user, run_item, action, now=timezone.now())
    except UnknownAction as exc:
        return HttpResponseBadRequest(str(exc))
    return redirect(safe_next(request, "inbox:index"))


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
            _token, new_token = issue_token(request.user, request.POST.get("name", ""))
        except TokenError as exc:
            messages.error(request, exc.message)
    return render(
        request,
        "inbox/tokens.html",
        {
            "tokens": ApiToken.objects.filter(user=request.user),
            "new_token": new_token,
            "actions": ACTIONS,
        },
    )
