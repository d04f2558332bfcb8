"""The owner's side of public topics: publish a subscription (with the indexable-page warning
and a preview), list, edit and delete one's topics."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from billing import limits
from billing.limits import TierLimitError
from digests.models import Subscription
from topics import publishing, seo
from topics.forms import PublishForm
from topics.models import Topic
from topics.publishing import PublishInput, TopicInputError


def _form_errors(form: PublishForm, exc: TopicInputError | TierLimitError) -> None:
    for field, message in exc.errors.items():
        form.add_error(field if field in form.fields else None, message)


@login_required
def my_topics(request):
    topics = (
        Topic.objects.filter(owner=request.user)
        .exclude(status=Topic.Status.DELETED)
        .order_by("title")
    )
    return render(request, "topics/mine.html", {"topics": topics})


@login_required
def publish(request, subscription_id: int):
    subscription = get_object_or_404(
        Subscription.objects.alive(), pk=subscription_id, owner=request.user
    )
    now = timezone.now()
    paid = limits.may_keep_private(request.user.pk, now=now)
    initial = {
        "title": subscription.name,
        "cron": subscription.cron or "0 8 * * *",
        "timezone": subscription.timezone,
        "visibility": Topic.Visibility.PUBLIC,
    }
    form = PublishForm(request.POST or None, initial=initial, paid=paid)
    if request.method == "POST" and form.is_valid():
        data = PublishInput(**{k: v for k, v in form.cleaned_data.items() if k != "confirm_public"})
        try:
            topic = publishing.publish(request.user, subscription, data, now=now)
        except (TopicInputError, TierLimitError) as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Published. Its first edition comes on schedule."))
            return redirect(topic.get_absolute_url())
    slug_preview = publishing._unique_slug(form["title"].value() or subscription.name)
    return render(
        request,
        "topics/publish.html",
        {
            "form": form,
            "subscription": subscription,
            "paid": paid,
            "preview_url": seo.absolute(f"/topics/{slug_preview}"),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def edit(request, slug: str):
    topic = get_object_or_404(
        Topic.objects.exclude(status=Topic.Status.DELETED), slug=slug, owner=request.user
    )
    initial = {
        "title": topic.title,
        "description": topic.description,
        "visibility": topic.visibility,
        "cron": topic.cron,
        "timezone": topic.timezone,
        "confirm_public": True,
    }
    paid = limits.may_keep_private(request.user.pk, now=timezone.now())
    # A topic made private on a paid plan stays editable after a downgrade.
    form = PublishForm(
        request.POST or None,
        initial=initial,
        paid=paid or topic.visibility == Topic.Visibility.PRIVATE,
    )
    if request.method == "POST" and form.is_valid():
        data = PublishInput(**{k: v for k, v in form.cleaned_data.items() if k != "confirm_public"})
        try:
            publishing.update(request.user, topic, data, now=timezone.now())
        except (TopicInputError, TierLimitError) as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Saved and published again."))
            return redirect(topic.get_absolute_url())
    return render(
        request,
        "topics/edit.html",
        {"form": form, "topic": topic},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def delete(request, slug: str):
    topic = get_object_or_404(Topic, slug=slug, owner=request.user)
    publishing.delete(request.user, topic, now=timezone.now())
    messages.success(request, _("Deleted. The page is gone and followers stop receiving it."))
    return redirect("topics:mine")
