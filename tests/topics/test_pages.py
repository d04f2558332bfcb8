"""Public pages: what visitors and search engines see, what they never see, and caching."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from defusedxml import ElementTree as ET
from django.urls import reverse

from digests.models import Subscription
from tests.factories import add_item
from tests.topics.test_services import published
from topics import editions, publishing
from topics.models import Report, Topic

SITE = "http://testserver.example"
EVIL_TITLE = '</script><script>alert(1)</script> "Quotes" & <b>tags</b>'


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = SITE


@pytest.fixture
def topic(alice, now):
    topic = published(alice, now, title="Databases Daily", description="The week in PostgreSQL")
    source = topic.sources.first()
    add_item("PostgreSQL 18 released", now=now, source=source)
    add_item(EVIL_TITLE + " PostgreSQL", now=now, source=source, age_hours=3)
    editions.produce_edition(topic.pk, now=now)
    return topic


def jsonld_of(html: str) -> dict:
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert match, "no JSON-LD on the page"
    return json.loads(match.group(1))


def test_topic_page_has_seo_metadata_and_collection_jsonld(client, topic):
    response = client.get(topic.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert "<title>Databases Daily · Tidings</title>" in html
    assert f'<link rel="canonical" href="{SITE}/topics/databases-daily">' in html
    assert '<meta property="og:title" content="Databases Daily">' in html
    assert '<meta name="description" content="The week in PostgreSQL">' in html
    data = jsonld_of(html)
    assert data["@type"] == "CollectionPage"
    assert data["url"] == f"{SITE}/topics/databases-daily"
    assert data["mainEntity"]["itemListElement"][0]["url"].startswith(f"{SITE}/topics/")


def test_edition_page_by_date_and_id_with_article_jsonld(client, topic, now):
    edition = topic.editions.get()
    by_date = client.get(f"/topics/{topic.slug}/editions/{edition.edition_date:%Y-%m-%d}")
    by_id = client.get(f"/topics/{topic.slug}/editions/{edition.pk}")
    assert by_date.status_code == by_id.status_code == 200
    data = jsonld_of(by_date.content.decode())
    assert data["@type"] == "Article"
    assert {"headline", "datePublished", "url", "publisher"} <= set(data)
    assert data["url"] == f"{SITE}{edition.get_absolute_url()}"
    assert client.get(f"/topics/{topic.slug}/editions/2001-01-01").status_code == 404


def test_feed_titles_are_escaped_in_title_meta_and_jsonld(client, alice, now):
    topic = published(alice, now, title=EVIL_TITLE)
    add_item("PostgreSQL story", now=now, source=topic.sources.first())
    editions.produce_edition(topic.pk, now=now)
    for url in [topic.get_absolute_url(), topic.editions.get().get_absolute_url()]:
        html = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "<b>tags</b>" not in html
        assert jsonld_of(html)["@context"] == "https://schema.org"
        scripts = re.findall(r"<script[^>]*>", html)
        inline = [tag for tag in scripts if "src=" not in tag]
        assert inline == ['<script type="application/ld+json">'], "no script from a title"


def test_sitemap_lists_public_pages_only_with_absolute_urls(client, topic, bob, now):
    hidden = published(bob, now, title="Soon deleted")
    publishing.delete(bob, hidden, now=now)
    response = client.get("/sitemap.xml")
    root = ET.fromstring(response.content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locations = [loc.text for loc in root.findall("s:url/s:loc", ns)]
    assert f"{SITE}/topics/databases-daily" in locations
    assert f"{SITE}{topic.editions.get().get_absolute_url()}" in locations
    assert all(loc.startswith(SITE) for loc in locations)
    assert not any("soon-deleted" in loc for loc in locations)
    assert root.find("s:url/s:lastmod", ns) is not None


def test_robots_txt_allows_public_and_names_the_sitemap(client):
    body = client.get("/robots.txt").content.decode()
    for line in ["Disallow: /admin/", "Disallow: /api/", "Disallow: /inbox/", "Allow: /topics"]:
        assert line in body
    assert f"Sitemap: {SITE}/sitemap.xml" in body


def test_atom_feed_of_a_topic(client, topic):
    response = client.get(f"/topics/{topic.slug}/feed")
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    entries = root.findall("{http://www.w3.org/2005/Atom}entry")
    assert len(entries) == 1


@pytest.mark.parametrize("state", ["private", "taken_down", "deleted"])
def test_hidden_topics_never_leak(client, alice, bob, topic, state):
    if state == "private":
        Topic.objects.filter(pk=topic.pk).update(visibility="private")
    else:
        Topic.objects.filter(pk=topic.pk).update(status=state)
    edition = topic.editions.get()
    expected = 410 if state == "deleted" else 404
    assert client.get(topic.get_absolute_url()).status_code == expected
    assert client.get(edition.get_absolute_url()).status_code == expected
    assert client.get(f"/topics/{topic.slug}/feed").status_code == 404
    assert topic.slug not in client.get("/sitemap.xml").content.decode()
    assert topic.slug not in client.get("/topics").content.decode()
    assert topic.slug not in client.get("/topics?q=Databases").content.decode()
    assert client.get(f"/api/v1/public/topics/{topic.slug}").status_code == 404
    assert topic.slug not in client.get("/api/v1/public/topics").content.decode()
    assert (
        client.get(f"/api/v1/public/topics/{topic.slug}/editions/{edition.pk}").status_code == 404
    )
    client.force_login(bob)
    assert client.get(topic.get_absolute_url()).status_code == expected
    client.force_login(alice)
    assert client.get(topic.get_absolute_url()).status_code == 200, "the owner still sees it"


def test_topic_list_sorts_filters_and_paginates_with_stable_urls(client, alice, bob, now):
    for number in range(3):
        published(alice if number < 2 else bob, now, title=f"Topic {number} news")
    Topic.objects.filter(title="Topic 2 news").update(follower_count=9, locale="ko")
    page = client.get("/topics?sort=followed").content.decode()
    assert page.index("Topic 2 news") < page.index("Topic 0 news")
    korean = client.get("/topics?locale=ko").content.decode()
    assert "Topic 2 news" in korean and "Topic 0 news" not in korean
    assert f'<link rel="canonical" href="{SITE}/topics?sort=followed">' in page
    assert client.get("/topics?page=99").status_code == 404


def test_anonymous_pages_are_cached_with_etags_and_invalidated_by_a_new_edition(
    client, topic, now, django_capture_on_commit_callbacks
):
    first = client.get(topic.get_absolute_url())
    assert "public" in first["Cache-Control"] and first["ETag"]
    again = client.get(topic.get_absolute_url(), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    source = topic.sources.first()
    add_item("PostgreSQL 19 announced", now=now + timedelta(days=1), source=source)
    with django_capture_on_commit_callbacks(execute=True):
        editions.produce_edition(topic.pk, now=now + timedelta(days=1))
    fresh = client.get(topic.get_absolute_url(), HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200
    assert "PostgreSQL 19 announced" in fresh.content.decode()


def test_a_visitor_follows_signs_in_and_lands_with_the_subscription(client, alice, bob, topic):
    response = client.post(f"/topics/{topic.slug}/follow")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Subscription.objects.filter(owner=bob).exists()
    client.force_login(bob)  # the login view keeps the session's remembered intent
    landed = client.get(f"/topics/{topic.slug}/follow")
    subscription = Subscription.objects.get(owner=bob)
    assert subscription.followed_topic == topic
    assert landed["Location"] == reverse("digests:detail", args=[subscription.pk])
    client.get(f"/topics/{topic.slug}/follow")
    assert Subscription.objects.filter(owner=bob).count() == 1


def test_a_bare_follow_link_creates_nothing(client, bob, topic):
    client.force_login(bob)
    response = client.get(f"/topics/{topic.slug}/follow")
    assert response.status_code == 302
    assert not Subscription.objects.filter(owner=bob).exists()


def test_reports_are_recorded_and_rate_limited(client, topic):
    for _ in range(5):
        response = client.post(f"/topics/{topic.slug}/report", {"reason": "spam"})
        assert response.status_code == 302
    refused = client.post(f"/topics/{topic.slug}/report", {"reason": "spam"})
    assert refused.status_code == 400
    assert Report.objects.filter(topic=topic).count() == 5
    bad = client.post(f"/topics/{topic.slug}/report", {"reason": "boring"})
    assert "reason" in bad.context["form"].errors


def test_publishing_from_the_console_warns_and_needs_confirmation(client, alice, now):
    topic = published(alice, now)
    subscription = topic.published_from
    client.force_login(alice)
    page = client.get(f"/topics/publish/{subscription.pk}/")
    assert "Public topics are indexable." in page.content.decode()
    form = {"title": "Second topic", "visibility": "public", "cron": "0 9 * * *", "timezone": "UTC"}
    refused = client.post(f"/topics/publish/{subscription.pk}/", form)
    assert refused.status_code == 400
    assert "confirm_public" in refused.context["form"].errors
    done = client.post(f"/topics/publish/{subscription.pk}/", {**form, "confirm_public": "on"})
    assert done.status_code == 302
    assert Topic.objects.filter(title="Second topic", owner=alice).exists()


def test_admin_takedown_asks_for_a_reason_and_audits(admin_client, topic):
    url = reverse("admin:topics_topic_changelist")
    form = {"action": "take_down", "_selected_action": [topic.pk]}
    asked = admin_client.post(url, form)
    assert asked.status_code == 200 and b"Reason" in asked.content
    admin_client.post(url, {**form, "apply": "1", "reason": "Spam"})
    topic.refresh_from_db()
    assert topic.status == Topic.Status.TAKEN_DOWN
    assert topic.moderation.get().reason == "Spam"


def test_public_api_lists_and_shows_topics_and_editions(client, topic):
    listing = client.get("/api/v1/public/topics").json()
    assert [t["slug"] for t in listing["results"]] == ["databases-daily"]
    detail = client.get(f"/api/v1/public/topics/{topic.slug}")
    assert detail["Cache-Control"] == "public, max-age=300"
    edition_id = detail.json()["editions"][0]["id"]
    edition = client.get(f"/api/v1/public/topics/{topic.slug}/editions/{edition_id}").json()
    assert edition["items"][0]["title"] == "PostgreSQL 18 released"
    assert "full_text" not in json.dumps(edition)
    assert client.get("/api/v1/public/topics?sort=random").status_code == 400


def test_follow_and_fork_through_the_api(client, bob, topic):
    from inbox.tokens import issue_token

    _token, secret = issue_token(bob, "test")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    followed = client.post(f"/api/v1/topics/{topic.slug}/follow", {}, "application/json", **auth)
    assert followed.status_code == 201
    again = client.post(f"/api/v1/topics/{topic.slug}/follow", {}, "application/json", **auth)
    assert again.status_code == 200 and again.json()["id"] == followed.json()["id"]
    refused = client.post(
        f"/api/v1/topics/{topic.slug}/follow", {"source_ids": [1]}, "application/json", **auth
    )
    assert refused.status_code == 400
    assert "fork" in refused.json()["error"]["fields"]["source_ids"]
    forked = client.post(f"/api/v1/topics/{topic.slug}/fork", {}, "application/json", **auth)
    assert forked.status_code == 201


def test_public_pages_cost_a_constant_number_of_queries(
    client, topic, now, django_assert_num_queries
):
    def render_uncached(url):
        from django.core.cache import cache

        cache.clear()
        with django_assert_num_queries(expected[url]):
            assert client.get(url).status_code == 200

    edition = topic.editions.get()
    expected = {topic.get_absolute_url(): 3, edition.get_absolute_url(): 5, "/topics": 3}
    for url in expected:
        render_uncached(url)
    source = topic.sources.first()
    for day in range(1, 4):
        later = now + timedelta(days=day)
        for n in range(5):
            add_item(f"PostgreSQL news {day}-{n}", now=later, source=source)
        editions.produce_edition(topic.pk, now=later)
    published(topic.owner, now, title="Another topic")
    for url in expected:
        render_uncached(url)


def test_cached_pages_are_served_before_the_database_and_carry_no_csrf_token(
    client, topic, django_assert_num_queries
):
    first = client.get(topic.get_absolute_url())
    assert b"csrfmiddlewaretoken" not in first.content
    assert first["X-Frame-Options"] == "DENY"
    with django_assert_num_queries(0):
        again = client.get(topic.get_absolute_url())
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert again["X-Frame-Options"] == "DENY"


def test_a_visitor_with_a_message_never_fills_the_shared_cache(client, topic):
    client.post(f"/topics/{topic.slug}/report", {"reason": "spam"})
    with_message = client.get(topic.get_absolute_url()).content.decode()
    assert "An administrator will look at it" in with_message
    stranger = type(client)()
    assert (
        "An administrator will look at it"
        not in stranger.get(topic.get_absolute_url()).content.decode()
    )


def test_a_signed_in_follow_needs_the_csrf_token(bob, topic):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(bob)
    assert browser.post(f"/topics/{topic.slug}/follow").status_code == 403
    assert not Subscription.objects.filter(owner=bob).exists()
    anonymous = Client(enforce_csrf_checks=True)
    assert anonymous.post(f"/topics/{topic.slug}/follow").status_code == 302


def cached(path: str) -> bool:
    from django.core.cache import cache

    from topics import page_cache

    return cache.get(page_cache.page_key(path, "en")) is not None


def test_the_page_cache_keeps_only_the_parameters_a_page_reads(client, topic):
    """Any ?z=N used to be one more entry in the shared cache: a stranger could fill Redis."""
    for n in range(5):
        assert client.get(f"{topic.get_absolute_url()}?z={n}").status_code == 200
        assert client.get(f"/topics?z={n}&sort=latest").status_code == 200
        assert not cached(f"{topic.get_absolute_url()}?z={n}")
        assert not cached(f"/topics?sort=latest&z={n}")
    client.get(topic.get_absolute_url())
    client.get("/topics?sort=latest")
    assert cached(topic.get_absolute_url()) and cached("/topics?sort=latest")
    # The default spelled out, a page number in another spelling, a search: rendered, not kept.
    for path in ["/topics?sort=trending", "/topics?page=01", "/topics?q=postgres"]:
        assert client.get(path).status_code == 200
        assert not cached(path.replace("page=01", "page=1"))
        assert not cached(path)


def test_parameters_in_another_order_share_the_cached_page(
    client, topic, django_assert_num_queries
):
    client.get(f"/topics?sort=latest&locale={topic.locale}")
    with django_assert_num_queries(0):
        again = client.get(f"/topics?locale={topic.locale}&sort=latest")
    assert again.status_code == 200


def test_a_strangers_query_never_reaches_a_page_served_to_everyone(client, topic):
    client.get(f"{topic.get_absolute_url()}?next=/evil-marker")
    stranger = type(client)()
    assert "evil-marker" not in stranger.get(topic.get_absolute_url()).content.decode()


def test_every_public_page_is_stored_and_served_from_the_cache(
    client, topic, django_assert_num_queries
):
    """The cache looks only at the paths public pages have (topics.http_cache.is_public_path):
    each of the four views wrapped in `public_page` must have one, or it is never stored."""
    edition = topic.editions.get()
    by_date = f"/topics/{topic.slug}/editions/{edition.edition_date:%Y-%m-%d}"
    pages = ["/", "/topics", topic.get_absolute_url(), edition.get_absolute_url(), by_date]
    for path in pages:
        assert client.get(path).status_code == 200
        assert cached(path), path
        with django_assert_num_queries(0):
            assert client.get(path).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/subscriptions/%00",
        "/api/v1/topics/%0Aslug/follow/x",
        "/topics/%00",
        "/topics/a%0Ab",
        "/topics?locale=%00&sort=latest",
        "/topics?sort=%0A",
        "/topics/" + "a" * 300,  # a key over memcached's 250 bytes
        "/%20/x",
    ],
)
def test_any_path_gets_its_normal_answer_without_a_cache_key_warning(client, db, path):
    """CI logged CacheKeyWarning for `:1:topics:page:1:en:/api/v1/subscriptions/\\x00`: the
    raw path was the key, which memcached refuses (control characters, spaces, over 250)."""
    import warnings

    from django.core.cache.backends.base import CacheKeyWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        first = client.get(path)
        again = client.get(path)
    assert first.status_code in (200, 400, 404)
    assert again.status_code == first.status_code


def test_api_and_private_paths_never_touch_the_public_page_cache(client, topic, monkeypatch):
    from django.core.cache import cache as real_cache

    from topics import http_cache

    asked = []

    class Spy:
        def __getattr__(self, name):
            return getattr(real_cache, name)

        def get(self, key, *args, **kwargs):
            asked.append(("get", key))
            return real_cache.get(key, *args, **kwargs)

        def set(self, key, *args, **kwargs):
            asked.append(("set", key))
            return real_cache.set(key, *args, **kwargs)

    monkeypatch.setattr(http_cache, "cache", Spy())
    for path in [
        "/api/v1/public/topics",
        f"/api/v1/public/topics/{topic.slug}",
        "/api/v1/subscriptions/%00",
        "/inbox/",
        "/accounts/login/",
        f"/topics/{topic.slug}/feed",
        "/sitemap.xml",
    ]:
        client.get(path)
        assert not [key for _, key in asked if key.startswith("topics:page:")], path
    client.get(topic.get_absolute_url())
    assert [verb for verb, key in asked if key.startswith("topics:page:")] == ["get", "set"]


def test_api_requests_skip_the_public_page_cache(alice, topic, monkeypatch):
    """No API view is stored as a public page, so a token's request (no session cookie) does
    not look one up: two cache reads fewer on every API call."""
    from django.core.cache import cache

    from tests.conftest import api_client_for

    api = api_client_for(alice)
    reads = []
    original = cache.get

    def spy(key, *args, **kwargs):
        reads.append(key)
        return original(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get", spy)
    assert api.get("/api/v1/public/topics").status_code == 200
    assert api.get("/api/v1/subscriptions").status_code == 200
    assert not [key for key in reads if key.startswith("topics:page")]
    from django.test import Client

    Client().get(topic.get_absolute_url())  # a public page still looks
    assert [key for key in reads if key.startswith("topics:page")]
