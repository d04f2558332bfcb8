"""Public pages: the front page, the topic directory, a topic, an edition, robots.txt, and the
Follow / Fork / Report actions strangers reach from them. Private, taken-down and deleted
topics answer 404 (deleted: 410) to everyone but their owner."""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import EmptyPage, Paginator
from django.db.models import Q
from django.http import Http404, HttpResponse, HttpResponseGone
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from billing.limits import TierLimitError
from config.client_address import client_address, throttle_bucket
from digests.subscriptions.service import SubscriptionInputError
from topics import following, seo
from topics.forms import ReportForm
from topics.http_cache import cache_as, public_page
from topics.models import MAX_EDITIONS_LISTED, Edition, Report, Topic

TOPICS_PER_PAGE = 20
SORTS = {
    "trending": ("-trending_score", "-last_edition_at", "id"),
    "latest": ("-last_edition_at", "id"),
    "followed": ("-follower_count", "-trending_score", "id"),
    "quality": ("-quality_score", "-trending_score", "id"),
}
REPORTS_PER_HOUR = 5
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class TopicGone(Exception):
    pass


def _is_owner(request, topic: Topic) -> bool:
    return request.user.is_authenticated and topic.owner_id == request.user.pk


def _visible_topic(request, slug: str) -> Topic:
    topic = Topic.objects.filter(slug=slug).select_related("owner", "published_from").first()
    if topic is None:
        raise Http404
    if topic.is_listed or _is_owner(request, topic):
        return topic
    if topic.status == Topic.Status.DELETED:
        raise TopicGone
    raise Http404


def _gone(request) -> HttpResponse:
    return HttpResponseGone(
        render(request, "topics/gone.html", status=410).content, content_type="text/html"
    )


def published_editions(topic: Topic):
    return Edition.objects.filter(
        topic=topic, status=Edition.Status.SUCCEEDED, published_at__isnull=False
    ).order_by("-published_at", "-id")


@public_page
def home(request):
    if request.user.is_authenticated:
        return redirect("inbox:index")
    trending = list(Topic.objects.listed().order_by(*SORTS["trending"])[:6])
    latest = list(
        Edition.objects.filter(
            topic__in=Topic.objects.listed(),
            status=Edition.Status.SUCCEEDED,
            published_at__isnull=False,
        )
        .select_related("topic")
        .order_by("-published_at", "-id")[:8]
    )
    return render(
        request,
        "topics/home.html",
        {
            "trending": trending,
            "latest": latest,
            "canonical": seo.absolute(reverse("home")),
            "jsonld": seo.topics_list_jsonld("Tidings", reverse("home"), trending),
        },
    )


def _clean_choice(value: str, choices, default: str) -> str:
    return value if value in choices else default


@public_page
def topic_list(request):
    sort = _clean_choice(request.GET.get("sort", ""), SORTS, "trending")
    locales = sorted(set(Topic.objects.listed().values_list("locale", flat=True)))
    locale = _clean_choice(request.GET.get("locale", ""), locales, "")
    query = " ".join(request.GET.get("q", "").split())[:100]
    topics = Topic.objects.listed().order_by(*SORTS[sort])
    if locale:
        topics = topics.filter(locale=locale)
    if query:
        topics = topics.filter(Q(title__icontains=query) | Q(description__icontains=query))
    paginator = Paginator(topics, TOPICS_PER_PAGE)
    try:
        page = paginator.page(request.GET.get("page", 1))
    except (EmptyPage, ValueError, TypeError):
        raise Http404 from None

    def url_for(**changes) -> str:
        params = {"sort": sort, "locale": locale, "q": query, "page": page.number, **changes}
        defaults = {"sort": "trending", "locale": "", "q": "", "page": 1}
        kept = {k: v for k, v in params.items() if v != defaults[k]}
        return reverse("topics:list") + (f"?{urlencode(kept)}" if kept else "")

    # The page as named here (defaults left out) is what the shared cache may keep; a search
    # is never kept (one entry per string typed).
    cache_as(request, None if query else url_for())
    return render(
        request,
        "topics/list.html",
        {
            "page": page,
            "topics": list(page.object_list),
            "sort": sort,
            "sorts": [(key, url_for(sort=key, page=1)) for key in SORTS],
            "locale": locale,
            "locales": [(code, url_for(locale=code, page=1)) for code in ["", *locales]],
            "query": query,
            "previous_url": url_for(page=page.previous_page_number())
            if page.has_previous()
            else "",
            "next_url": url_for(page=page.next_page_number()) if page.has_next() else "",
            "canonical": seo.absolute(url_for()),
            "jsonld": seo.topics_list_jsonld(_("Public topics"), url_for(), list(page.object_list)),
        },
    )


@public_page
def topic_detail(request, slug: str):
    try:
        topic = _visible_topic(request, slug)
    except TopicGone:
        return _gone(request)
    editions = list(published_editions(topic)[:MAX_EDITIONS_LISTED])
    for edition in editions:
        edition.topic = topic
    follow = (
        following.existing_follow(request.user, topic) if request.user.is_authenticated else None
    )
    response = render(
        request,
        "topics/detail.html",
        {
            "topic": topic,
            "editions": editions,
            "latest": editions[0] if editions else None,
            "latest_items": list(editions[0].items.all()[:10]) if editions else [],
            "follow": follow,
            "is_owner": _is_owner(request, topic),
            "canonical": seo.absolute(topic.get_absolute_url()),
            "feed_url": seo.absolute(reverse("topics:feed", args=[topic.slug])),
            "description": seo.topic_description(topic),
            "jsonld": seo.topic_jsonld(topic, editions),
        },
    )
    response.last_modified = topic.last_edition_at or topic.updated_at
    return response


def _edition_for(topic: Topic, key: str) -> Edition:
    editions = published_editions(topic)
    if key.isdigit():
        edition = editions.filter(pk=int(key)).first()
    elif _DATE.match(key):
        try:
            edition = editions.filter(edition_date=date.fromisoformat(key)).first()
        except ValueError:
            edition = None
    else:
        edition = None
    if edition is None:
        raise Http404
    edition.topic = topic  # its URL needs the slug: no query per link
    return edition


@public_page
def edition_detail(request, slug: str, key: str):
    try:
        topic = _visible_topic(request, slug)
    except TopicGone:
        return _gone(request)
    edition = _edition_for(topic, key)
    items = list(edition.items.all())
    neighbours = published_editions(topic)
    newer = neighbours.filter(published_at__gt=edition.published_at).last()
    older = neighbours.filter(published_at__lt=edition.published_at).first()
    for neighbour in (newer, older):
        if neighbour is not None:
            neighbour.topic = topic
    response = render(
        request,
        "topics/edition.html",
        {
            "topic": topic,
            "edition": edition,
            "items": items,
            "newer": newer,
            "older": older,
            "canonical": seo.absolute(edition.get_absolute_url()),
            "description": seo.edition_description(topic, edition, items),
            "jsonld": seo.edition_jsonld(topic, edition, items),
        },
    )
    response.last_modified = edition.finished_at or edition.published_at
    return response


def robots_txt(request):
    lines = [
        "User-agent: *",
        "Allow: /$",
        "Allow: /topics",
        "Disallow: /inbox/",
        "Disallow: /subscriptions/",
        "Disallow: /sources/",
        "Disallow: /accounts/",
        "Disallow: /admin/",
        "Disallow: /api/",
        "Disallow: /topics/*/follow",
        "Disallow: /topics/*/fork",
        "Disallow: /topics/*/report",
        "",
        f"Sitemap: {seo.absolute(reverse('sitemap'))}",
        "",
    ]
    response = HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


PENDING_FOLLOW = "topics:pending_follow"


@csrf_exempt
def follow(request, slug: str):
    """A visitor's POST only remembers the intent and sends them to log in (or sign up) — it
    changes nothing, so the cached public page needs no CSRF token for it; they come back here
    (GET) and the follow is made from the remembered intent. A bare GET link never creates
    anything. A signed-in user's POST follows at once, CSRF-checked as usual."""
    try:
        topic = _visible_topic(request, slug)
    except TopicGone:
        return _gone(request)
    if not request.user.is_authenticated:
        if request.method == "POST":
            request.session[PENDING_FOLLOW] = topic.slug
        return redirect_to_login(request.path)
    if request.method == "POST":
        return csrf_protect(_follow_now)(request, topic)
    if request.session.get(PENDING_FOLLOW) != topic.slug:
        return redirect(topic.get_absolute_url())
    return _follow_now(request, topic)


def _follow_now(request, topic: Topic):
    request.session.pop(PENDING_FOLLOW, None)
    try:
        subscription = following.follow(request.user, topic, now=timezone.now())
    except (SubscriptionInputError, TierLimitError) as exc:
        messages.error(request, " ".join(exc.errors.values()))
        return redirect(topic.get_absolute_url())
    messages.success(
        request,
        _("You follow %(title)s. Its next editions arrive in your Inbox.") % {"title": topic.title},
    )
    return redirect("digests:detail", subscription.pk)


@login_required
@require_POST
def fork(request, slug: str):
    try:
        topic = _visible_topic(request, slug)
    except TopicGone:
        return _gone(request)
    try:
        subscription = following.fork(request.user, topic, now=timezone.now())
    except (SubscriptionInputError, TierLimitError) as exc:
        messages.error(request, " ".join(exc.errors.values()))
        return redirect(topic.get_absolute_url())
    messages.success(request, _("Forked: this copy and its sources are yours to change."))
    return redirect("digests:detail", subscription.pk)


def _reporter_key(request) -> str:
    address = throttle_bucket(client_address(request))
    return hashlib.sha256(f"{settings.SECRET_KEY}:{address}".encode()).hexdigest()


def report(request, slug: str):
    try:
        topic = _visible_topic(request, slug)
    except TopicGone:
        return _gone(request)
    edition = None
    if request.GET.get("edition", "").isdigit():
        edition = published_editions(topic).filter(pk=int(request.GET["edition"])).first()
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        now = timezone.now()
        key = _reporter_key(request)
        recent = Report.objects.filter(reporter_key=key, created_at__gt=now - timedelta(hours=1))
        if recent.count() >= REPORTS_PER_HOUR:
            form.add_error(None, _("Too many reports from here in the last hour; try later."))
        else:
            Report.objects.create(
                topic=topic,
                edition=edition,
                reason=form.cleaned_data["reason"],
                message=form.cleaned_data["message"],
                reporter=request.user if request.user.is_authenticated else None,
                reporter_key=key,
                created_at=now,
            )
            messages.success(request, _("Thank you. An administrator will look at it."))
            return redirect(topic.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "topics/report.html",
        {"topic": topic, "edition": edition, "form": form},
        status=status,
    )
