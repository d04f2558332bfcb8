"""Console pages for subscriptions: thin callers of digests.subscriptions.service and the runner."""

from __future__ import annotations

import math

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from billing import charges, estimates, prices
from billing.limits import TierLimitError
from config.api.throttling import wait_before_another
from config.csp import csp_allow_inline_styles
from digests.ai import llm
from digests.delivery import endpoints, service
from digests.delivery.addresses import recipient_for
from digests.delivery.brief import brief_for_run
from digests.delivery.email import render_brief_email
from digests.models import Delivery, Run, Subscription, WebhookEndpoint
from digests.runs import runner
from digests.schedules.next_run import ScheduleError, next_runs
from digests.subscriptions import service as subscriptions
from digests.subscriptions.forms import (
    LENGTH_LABELS,
    SubscriptionForm,
    draft_data,
    initial_for,
    redisplayed,
    sections_apply,
)
from digests.tasks import enqueue_delivery, enqueue_run
from digests.textwatch import apprise
from digests.textwatch.models import AppriseTarget
from inbox.models import UserPreference
from ingest.models import UserSource

RUN_HISTORY = 50

# The runner stores these sentences in English on the run; they are marked here so the
# catalogs carry them and pages show them translated (`{% translate run.empty_reason %}`).
RUNNER_SENTENCES = (
    gettext_noop("No items from your sources or topic in the content window yet."),
    gettext_noop("Items were found, but none scored above your minimum score."),
    gettext_noop("Everything that matched was already delivered to you."),
)


def _user_timezone(request) -> str:
    preference = getattr(request, "preference", None) or (
        UserPreference.objects.filter(user=request.user).first()
    )
    return preference.timezone if preference else "UTC"


def _owned(request, subscription_id: int) -> Subscription:
    return get_object_or_404(
        Subscription.objects.alive().select_related("owner"), pk=subscription_id, owner=request.user
    )


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


@login_required
def subscription_list(request):
    last_run = Run.objects.filter(subscription=OuterRef("pk")).order_by("-scheduled_at", "-id")
    items = (
        Subscription.objects.alive()
        .filter(owner=request.user)
        .annotate(
            last_run_id=Subquery(last_run.values("id")[:1]),
            last_run_status=Subquery(last_run.values("status")[:1]),
            last_run_delivered=Subquery(last_run.values("delivered_count")[:1]),
        )
        .order_by("name", "id")
    )
    return render(request, "digests/list.html", {"subscriptions": items})


def _cost_estimate(request, form, now) -> estimates.Estimate | None:
    """What the subscription in the form would cost, shown before it is created: for the
    values posted, else the form's defaults (the page's script updates it as they change)."""
    data = form.cleaned_data if form.is_bound and form.is_valid() else {}
    cron = data.get("cron") or form.fields["cron"].initial
    zone = data.get("timezone") or form.initial.get("timezone") or "UTC"
    source_ids = [int(i) for i in data.get("source_ids") or []]
    try:
        return estimates.estimate(
            request.user, cron=cron, timezone=zone, source_ids=source_ids, now=now
        )
    except (ScheduleError, estimates.EstimateSourceError):
        return None


DRAFT_ACTIONS = ("suggest", "auto", "preview")


def _terms(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _draft(request, form_fields, instance: Subscription | None = None) -> tuple[dict, dict]:
    """A form not saved yet: interests suggested from its topic and/or a preview of what it
    would deliver now (the draft panel's buttons, or htmx when a field changes). Returns the
    panel's context and the form's initial values to show again."""
    action = request.POST.get("draft")
    typed = _terms(request.POST.get("interests", ""))
    # "auto" (the topic changed): fill the interests only when the reader has not written
    # their own — they are empty or still the last suggestion.
    suggest = action == "suggest" or (
        action == "auto" and (not typed or typed == _terms(request.POST.get("suggested", "")))
    )
    # Model suggestions count against their own allowance; past it the extractor answers.
    needs_model = llm.is_configured() and (suggest or not typed)
    use_model = not needs_model or wait_before_another(request, "interests") is None
    now = timezone.now()
    panel: dict = {"action": action}
    try:
        draft = subscriptions.draft(
            request.user,
            draft_data(request.POST),
            now=now,
            instance=instance,
            suggest=suggest,
            use_model=use_model,
        )
    except subscriptions.SubscriptionInputError as exc:
        panel["errors"] = list(exc.errors.values())
        return panel, redisplayed(request.POST, form_fields)
    changes = {}
    if draft.suggestion is not None and suggest:
        changes["interests"] = ", ".join(draft.subscription.interests)
        changes["negative_keywords"] = ", ".join(draft.subscription.negative_keywords)
        panel["suggested"] = changes["interests"]
        panel["suggestion"] = draft.suggestion
    else:
        panel["suggested"] = request.POST.get("suggested", "")
    wait = wait_before_another(request, "subscription_preview")
    if wait is not None:
        panel["retry_minutes"] = math.ceil(wait / 60)
    else:
        panel["selection"] = runner.preview(
            draft.subscription, now=now, source_ids=draft.source_ids
        )
    return panel, redisplayed(request.POST, form_fields, **changes)


@login_required
def subscription_new(request):
    library = list(UserSource.objects.filter(user=request.user).select_related("source"))
    now = timezone.now()
    if request.method == "POST" and request.POST.get("template"):
        try:
            subscription = subscriptions.create_from_template(
                request.user,
                request.POST["template"],
                now=now,
                timezone=_user_timezone(request),
                source_ids=[us.source_id for us in library],
            )
        except (subscriptions.SubscriptionInputError, TierLimitError) as exc:
            messages.error(request, "; ".join(exc.errors.values()))
            return redirect("digests:new")
        messages.success(
            request,
            _("Subscription created. Press “Run now” for a first brief, or wait for its schedule."),
        )
        return redirect("digests:detail", subscription.pk)
    show_sections = sections_apply(library)
    form = SubscriptionForm(
        request.POST or None,
        library=library,
        initial={"timezone": _user_timezone(request)},
        draft_url=request.path,
        sections=show_sections,
    )
    # A template uses the whole library (as the one-click creation below does).
    template_run_cost = prices.upper_bound_for_sources([us.source_id for us in library])
    draft_panel = None
    if request.method == "POST" and request.POST.get("draft") in DRAFT_ACTIONS:
        draft_panel, initial = _draft(request, form.fields)
        form = SubscriptionForm(
            library=library, initial=initial, draft_url=request.path, sections=show_sections
        )
    valid = draft_panel is None and request.method == "POST" and form.is_valid()
    estimate = _cost_estimate(request, form, now)  # before a refusal takes fields out of it
    zone = form.initial.get("timezone") or _user_timezone(request)
    if valid:
        try:
            subscription = subscriptions.create_subscription(
                request.user, form.service_data(), now=now
            )
        except (subscriptions.SubscriptionInputError, TierLimitError) as exc:
            for field, message in exc.errors.items():
                form.add_error(field if field in form.fields else None, message)
        else:
            remember_new_secret(request, subscription.pk, subscription.webhook_secret)
            messages.success(request, _("Subscription created."))
            return redirect("digests:detail", subscription.pk)
    return render(
        request,
        "digests/new.html",
        {
            "form": form,
            "templates": [
                {
                    "key": t.key,
                    "name": t.name,
                    "topic": t.topic,
                    "cron": t.cron,
                    "length_label": LENGTH_LABELS.get(t.length, t.length),
                    "run_cost": template_run_cost,
                    "month_cost": template_run_cost
                    * estimates.runs_per_month(t.cron, zone, now=now),
                }
                for t in subscriptions.TEMPLATES.values()
            ],
            "timezone": zone,
            "estimate": estimate,
            "draft": draft_panel,
        },
    )


@login_required
def subscription_edit(request, subscription_id: int):
    subscription = _owned(request, subscription_id)
    library = list(UserSource.objects.filter(user=request.user).select_related("source"))
    show_sections = sections_apply(library, keep=bool(subscription.sections))
    in_library = {user_source.source_id for user_source in library}
    # Sources the form cannot list (a followed topic's, a pack's, the demo's): saving keeps them.
    kept = [
        source_id
        for source_id in subscription.subscriptionsource_set.values_list("source_id", flat=True)
        if source_id not in in_library
    ]
    targets = list(AppriseTarget.objects.filter(owner=request.user))
    form = SubscriptionForm(
        request.POST or None,
        library=library,
        max_items=subscription.max_items,
        draft_url=request.path,
        sections=show_sections,
        kept_source_ids=kept,
        apprise_targets=targets,
    )
    draft_panel = None
    if request.method != "POST":
        form.initial = initial_for(subscription, form.fields)
        form.initial["apprise_targets"] = [
            str(pk) for pk in subscription.apprise_routes.values_list("target_id", flat=True)
        ]
    elif request.POST.get("draft") in DRAFT_ACTIONS:
        draft_panel, initial = _draft(request, form.fields, instance=subscription)
        form = SubscriptionForm(
            library=library,
            max_items=subscription.max_items,
            initial=initial,
            draft_url=request.path,
            sections=show_sections,
            apprise_targets=targets,
        )
    if request.method == "POST" and draft_panel is None and form.is_valid():
        try:
            with transaction.atomic():  # the settings and the routes, or neither
                subscriptions.update_subscription(
                    subscription, form.service_data(), now=timezone.now()
                )
                chosen = form.apprise_targets_chosen()
                if chosen is not None:
                    apprise.set_routes(request.user, subscription, chosen)
        except (subscriptions.SubscriptionInputError, TierLimitError) as exc:
            for field, message in exc.errors.items():
                form.add_error(field if field in form.fields else None, message)
        else:
            remember_new_secret(request, subscription.pk, subscription.webhook_secret)
            messages.success(request, _("Changes saved."))
            return redirect("digests:detail", subscription.pk)
    return render(
        request,
        "digests/edit.html",
        {"form": form, "subscription": subscription, "draft": draft_panel},
    )


@login_required
def subscription_detail(request, subscription_id: int):
    subscription = _owned(request, subscription_id)
    now = timezone.now()
    upcoming = []
    if subscription.cron and subscription.status == Subscription.Status.ACTIVE:
        try:
            upcoming = next_runs(subscription.cron, subscription.timezone, now, 5)
        except ScheduleError:
            upcoming = []
    runs = list(
        charges.with_credits(subscription.runs.order_by("-scheduled_at", "-id")).prefetch_related(
            "deliveries"
        )[:RUN_HISTORY]
    )
    webhook = WebhookEndpoint.objects.filter(subscription=subscription).first()
    return render(
        request,
        "digests/detail.html",
        {
            "subscription": subscription,
            "runs": runs,
            "email_recipient": recipient_for(subscription) if subscription.email_enabled else "",
            "webhook": webhook,
            "apprise_targets": AppriseTarget.objects.filter(routes__subscription=subscription),
            "webhook_secret": pop_new_secret(request, subscription.pk),
            "test_events": Delivery.objects.filter(
                subscription=subscription, event=Delivery.Event.TEST
            )[:5]
            if webhook
            else [],
            "upcoming": upcoming,
            "run_cost_max": prices.upper_bound(subscription),
            "has_pending_run": any(run.status in ("pending", "running") for run in runs),
        },
    )


@login_required
@require_POST
def subscription_run_now(request, subscription_id: int):
    subscription = _owned(request, subscription_id)
    try:
        run = subscriptions.request_manual_run(subscription, now=timezone.now())
    except TierLimitError as exc:
        messages.error(request, exc.message)
        return redirect("digests:detail", subscription.pk)
    enqueue_run(run.pk)
    messages.success(request, _("Run started. Its items will appear in your Inbox."))
    return redirect("digests:detail", subscription.pk)


@login_required
@require_POST
def run_retry(request, subscription_id: int, run_id: int):
    subscription = _owned(request, subscription_id)
    run = get_object_or_404(Run, pk=run_id, subscription=subscription)
    try:
        subscriptions.retry_run(run, now=timezone.now())
    except (subscriptions.RunStateError, TierLimitError) as exc:
        messages.error(request, exc.message)
    else:
        enqueue_run(run.pk)
        messages.success(request, _("Retrying the run under the same id."))
    return redirect("digests:detail", subscription.pk)


@login_required
def subscription_preview(request, subscription_id: int):
    subscription = _owned(request, subscription_id)
    # A preview runs the whole selection pipeline: limited like the API's preview.
    wait = wait_before_another(request, "subscription_preview")
    if wait is not None:
        response = render(
            request,
            "digests/preview.html",
            {"subscription": subscription, "retry_minutes": math.ceil(wait / 60)},
            status=429,
        )
        response["Retry-After"] = str(math.ceil(wait))
        return response
    selection = runner.preview(subscription, now=timezone.now())
    return render(
        request, "digests/preview.html", {"subscription": subscription, "selection": selection}
    )


@login_required
@require_POST
def subscription_state(request, subscription_id: int, change: str):
    subscription = _owned(request, subscription_id)
    now = timezone.now()
    if change == "pause":
        subscriptions.pause(subscription)
        messages.success(request, _("Paused. No runs until you resume it."))
    elif change == "resume":
        try:
            subscriptions.resume(subscription, now=now)
        except TierLimitError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Resumed."))
    elif change == "delete":
        subscriptions.soft_delete(subscription, now=now)
        messages.success(request, _("Subscription deleted."))
        return redirect("digests:list")
    return redirect("digests:detail", subscription.pk)


# --- Delivery: the email preview, webhook actions, retrying a delivery ---------------------


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
    response = render(
        request,
        "digests/email_preview.html",
        {"subscription": subscription, "run": run, "email": rendered, "recipient": recipient},
    )
    # The mail's styles are all inline (mail clients drop <style>), and the preview's srcdoc
    # frame lives under this page's policy: inline styles, never scripts, on this page only.
    return csp_allow_inline_styles(response)


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
