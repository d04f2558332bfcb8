"""Site crawls: polite, bounded, same-site walks that turn article pages into pool items."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from inbox.tokens import issue_token
from ingest.crawl import service as crawl
from ingest.crawl.service import add_site_crawl
from ingest.fetching import fetch
from ingest.library.input import SourceInputError
from ingest.models import ContentItem, ContentItemSource, FetchLog, Source, UserSource
from ingest.refresh.pipeline import claim_due_sources, refresh_source

pytestmark = pytest.mark.django_db

ROBOTS = "User-agent: *\nDisallow: /private/\n"


def listing(title: str, *links: str) -> str:
    items = "".join(f'<li><h2><a href="{href}">{href}</a></h2></li>' for href in links)
    return f"<html><head><title>{title}</title></head><body><ul>{items}</ul></body></html>"


def article(title: str, body: str = "") -> str:
    text = body or f"{title} is explained here at length. " * 20
    return (
        "<html><head>"
        f"<title>{title} | Example</title>"
        '<meta property="og:type" content="article">'
        f'<meta property="og:title" content="{title}">'
        '<meta property="article:published_time" content="2026-11-19T10:00:00Z">'
        "</head><body><nav><a href='/'>Home</a></nav>"
        f"<article><h1>{title}</h1><p>{text}</p><p>{text}</p></article>"
        "</body></html>"
    )


@pytest.fixture
def site(fixture_server):
    """A small site: a home page listing, a blog listing with a second page, articles, pages
    that answer 403 and 404, a robots-disallowed path, and links that leave the site."""
    port = fixture_server.port
    fixture_server.add("/robots.txt", ROBOTS, Content_Type="text/plain")
    fixture_server.add(
        "/",
        listing(
            "Example home",
            "/post-1",
            "/blog/",
            "/private/secret",
            "/tag/news",
            "/forbidden",
            "/gone",
            "/logo.png",
            "http://other.example/page",
            f"http://127.0.0.1:{port}/internal",
            "http://169.254.169.254/latest/meta-data/",
            "/redirect-inside",
            "/post-1#comments",
        ),
        Content_Type="text/html; charset=utf-8",
    )
    fixture_server.add(
        "/blog/",
        listing("Blog", "/blog/post-2", "/blog/post-3", "/blog/page-2", "/forbidden"),
        Content_Type="text/html",
    )
    fixture_server.add(
        "/blog/page-2", listing("Blog, page 2", "/blog/post-4"), Content_Type="text/html"
    )
    for path, title in [
        ("/post-1", "First post"),
        ("/blog/post-2", "Second post"),
        ("/blog/post-3", "Third post"),
        ("/blog/post-4", "Fourth post"),
        ("/private/secret", "Secret"),
        ("/internal", "Internal"),
    ]:
        fixture_server.add(path, article(title), Content_Type="text/html")
    fixture_server.add("/tag/news", listing("Tagged: news", "/post-1"), Content_Type="text/html")
    fixture_server.add("/forbidden", "no", status=403, Content_Type="text/plain")
    fixture_server.add("/redirect-inside", status=302, Location=f"http://127.0.0.1:{port}/internal")
    return fixture_server


def requested(server) -> list[str]:
    return [path for path, _headers in server.requests]


def make_source(server, **overrides) -> Source:
    config = {
        "url": server.url("/"),
        "include": [],
        "exclude": [],
        "max_depth": 2,
        "limit": 50,
        **overrides,
    }
    return Source.objects.create(
        type="crawl", config=config, config_hash="c" * 64, url=config["url"]
    )


def titles(source: Source) -> set[str]:
    return set(ContentItem.objects.filter(sources=source).values_list("title", flat=True))


def test_a_first_round_records_the_articles_it_finds_as_a_baseline(site, now):
    source = make_source(site)

    outcome = refresh_source(source, now=now)

    assert outcome.ok, outcome.error
    assert titles(source) == {"First post", "Second post", "Third post"}
    assert set(ContentItemSource.objects.values_list("baseline", flat=True)) == {True}
    item = ContentItem.objects.get(title="First post")
    assert item.canonical_url == site.url("/post-1")
    assert item.published_at.isoformat() == "2026-11-19T10:00:00+00:00"
    assert "explained here at length" in item.content_html
    assert "<nav>" not in item.content_html
    source.refresh_from_db()
    assert source.title == "Example home"
    # The start page's response schedules the next check, like a feed's.
    assert source.next_refresh_at == now + timedelta(minutes=60)


def test_listing_pages_are_followed_but_never_become_items(site, now):
    source = make_source(site)
    refresh_source(source, now=now)
    assert "/blog/" in requested(site) and "/blog/page-2" in requested(site)
    assert not ContentItem.objects.filter(title__in=["Example home", "Blog", "Blog, page 2"])


def test_robots_txt_is_honoured(site, now):
    refresh_source(make_source(site), now=now)
    assert "/robots.txt" in requested(site)
    assert "/private/secret" not in requested(site)
    assert not ContentItem.objects.filter(title="Secret").exists()


def test_robots_txt_is_cached_per_host(site, now):
    refresh_source(make_source(site), now=now)
    second = Source.objects.create(
        type="crawl", config={"url": site.url("/blog/")}, config_hash="d" * 64
    )
    refresh_source(second, now=now)
    assert requested(site).count("/robots.txt") == 1


def test_a_robots_txt_that_cannot_be_read_skips_the_round_with_a_back_off(site, now):
    site.add("/robots.txt", "down", status=503)
    source = make_source(site)

    outcome = refresh_source(source, now=now)

    assert not outcome.ok
    assert "robots.txt answered HTTP 503" in outcome.error
    assert requested(site) == ["/robots.txt"]
    source.refresh_from_db()
    assert source.next_refresh_at == now + timedelta(minutes=5)
    # Not cached: the next round asks again.
    site.add("/robots.txt", ROBOTS, Content_Type="text/plain")
    assert refresh_source(source, now=now + timedelta(minutes=5)).ok


def test_a_missing_robots_txt_allows_everything(site, now):
    site.add("/robots.txt", "", status=404)
    refresh_source(make_source(site), now=now)
    assert "/private/secret" in requested(site)


def test_include_and_exclude_patterns_choose_the_paths_followed(site, now):
    source = make_source(site, include=["/blog/"], exclude=["/blog/page-*"])

    refresh_source(source, now=now)

    assert titles(source) == {"Second post", "Third post"}
    assert "/post-1" not in requested(site)
    assert "/blog/page-2" not in requested(site)


def test_max_depth_bounds_how_far_links_are_followed(site, now):
    deep = make_source(site, max_depth=3)
    refresh_source(deep, now=now)
    assert "Fourth post" in titles(deep)  # / -> /blog/ -> /blog/page-2 -> /blog/post-4

    site.requests.clear()
    shallow = Source.objects.create(
        type="crawl",
        config={"url": site.url("/"), "max_depth": 1},
        config_hash="e" * 64,
        url=site.url("/"),
    )
    refresh_source(shallow, now=now)
    assert "/blog/" in requested(site)
    assert "/blog/post-2" not in requested(site)
    assert titles(shallow) == {"First post"}


def test_the_page_limit_caps_fetches_per_round(site, now):
    source = make_source(site, limit=3)
    refresh_source(source, now=now)
    pages = [path for path in requested(site) if path != "/robots.txt"]
    assert pages == ["/", "/post-1", "/blog/"]


def test_forbidden_and_missing_pages_are_skipped_and_never_refetched_in_the_round(site, now):
    source = make_source(site)

    outcome = refresh_source(source, now=now)

    assert outcome.ok  # a 403 or 404 on one page does not fail the site
    assert requested(site).count("/forbidden") == 1  # linked twice, asked once
    assert requested(site).count("/gone") == 1
    # 403, 404 and the redirect into loopback (refused): skipped pages, counted in the log.
    assert FetchLog.objects.get(source=source).failed == 3


def test_a_site_that_refuses_page_after_page_is_left_alone_for_the_round(fixture_server, now):
    paths = [f"/story-{n}" for n in range(20)]
    fixture_server.add("/", listing("Walled", *paths), Content_Type="text/html")
    for path in paths:
        fixture_server.add(path, "no", status=403)

    outcome = refresh_source(make_source(fixture_server), now=now)

    assert outcome.ok
    pages = [path for path in requested(fixture_server) if path.startswith("/story-")]
    assert pages == paths[: crawl.MAX_CONSECUTIVE_FAILURES]


def test_links_off_the_site_and_into_refused_addresses_are_never_fetched(site, now, monkeypatch):
    asked: list[str] = []
    real_fetch = fetch.fetch

    def spy(url, **kwargs):
        asked.append(url)
        return real_fetch(url, **kwargs)

    monkeypatch.setattr(fetch, "fetch", spy)

    refresh_source(make_source(site), now=now)

    assert asked and all(url.startswith(f"http://localhost:{site.port}/") for url in asked)
    # Neither the 127.0.0.1 link nor the same-site redirect into loopback got through.
    assert "/redirect-inside" in requested(site)
    assert "/internal" not in requested(site)
    assert "/logo.png" not in requested(site)


def test_after_the_baseline_only_new_pages_are_fetched_and_delivered(site, now):
    source = make_source(site)
    refresh_source(source, now=now)
    site.add(
        "/blog/",
        listing("Blog", "/blog/post-5", "/blog/post-2", "/blog/post-3", "/blog/page-2"),
        Content_Type="text/html",
    )
    site.add("/blog/post-5", article("Fifth post"), Content_Type="text/html")
    site.requests.clear()

    outcome = refresh_source(source, now=now + timedelta(hours=2))

    assert outcome.counts.inserted == 1
    assert "/blog/post-5" in requested(site)
    assert "/post-1" not in requested(site)  # already seen: not fetched again
    assert "/blog/post-2" not in requested(site)
    new = ContentItemSource.objects.get(item__title="Fifth post")
    assert new.baseline is False
    assert ContentItemSource.objects.filter(baseline=True).count() == 3


def test_a_baseline_cut_short_by_the_limit_goes_on_until_the_site_is_walked(site, now):
    source = make_source(site, include=["/blog/"], limit=3)  # /, /blog/ and one more
    for hours in (0, 2, 4):
        refresh_source(source, now=now + timedelta(hours=hours))
    assert titles(source) == {"Second post", "Third post"}
    assert set(ContentItemSource.objects.values_list("baseline", flat=True)) == {True}

    site.add("/blog/", listing("Blog", "/blog/post-5", "/blog/post-2"), Content_Type="text/html")
    site.add("/blog/post-5", article("Fifth post"), Content_Type="text/html")
    refresh_source(source, now=now + timedelta(hours=6))

    assert ContentItemSource.objects.get(item__title="Fifth post").baseline is False


def test_pages_that_answered_4xx_are_not_asked_again_next_round(site, now):
    source = make_source(site)
    refresh_source(source, now=now)
    site.requests.clear()
    refresh_source(source, now=now + timedelta(hours=2))
    assert "/" in requested(site)
    assert "/forbidden" not in requested(site)
    assert "/gone" not in requested(site)


def test_a_crawl_delay_in_robots_txt_spaces_the_requests(site, now, monkeypatch):
    site.add("/robots.txt", "User-agent: *\nCrawl-delay: 4\n", Content_Type="text/plain")
    waits: list[float] = []
    monkeypatch.setattr(crawl, "sleep", waits.append)

    refresh_source(make_source(site, limit=3), now=now)

    assert len(waits) == 2  # before the second and the third page
    assert all(3.5 < wait <= 4 for wait in waits)


def test_a_round_stops_at_its_deadline(site, now, monkeypatch):
    monkeypatch.setattr(crawl, "ROUND_DEADLINE_SECONDS", 0)
    outcome = refresh_source(make_source(site), now=now)
    assert outcome.ok
    assert [path for path in requested(site) if path != "/robots.txt"] == ["/"]


def test_a_start_page_that_fails_is_a_failed_refresh_with_back_off(site, now):
    site.add("/", "gone", status=404)
    source = make_source(site)
    outcome = refresh_source(source, now=now)
    assert not outcome.ok
    source.refresh_from_db()
    assert source.consecutive_failures == 1
    assert source.next_refresh_at == now + timedelta(minutes=5)


def test_a_start_page_that_now_redirects_to_another_site_is_not_crawled(site, now):
    site.add("/", status=301, Location=f"http://127.0.0.1:{site.port}/blog/")
    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost", "127.0.0.1")):
        outcome = refresh_source(make_source(site), now=now)
    assert not outcome.ok
    assert "redirects to another site" in outcome.error
    assert "/blog/post-2" not in requested(site)


# --- Adding a crawl ---------------------------------------------------------------------------


def test_adding_a_crawl_checks_the_site_once_and_schedules_it_now(site, alice, now):
    user_source, created = add_site_crawl(
        alice, site.url("/"), include=["/blog/"], exclude=["/tag/"], max_depth=3, now=now
    )
    assert created
    source = user_source.source
    assert source.type == "crawl"
    assert source.config == {
        "url": site.url("/"),
        "include": ["/blog/"],
        "exclude": ["/tag/"],
        "max_depth": 3,
        "limit": 50,
    }
    assert source.title == "Example home"
    assert source.next_refresh_at == now
    assert claim_due_sources(now=now) == [source]
    assert requested(site) == ["/robots.txt", "/"]

    again, created_again = add_site_crawl(
        alice, site.url("/"), include=["/blog/"], exclude=["/tag/"], max_depth=3, now=now
    )
    assert (again, created_again) == (user_source, False)
    assert len(requested(site)) == 2  # an existing crawl is not checked again


def test_bad_settings_are_refused_naming_every_field_and_nothing_is_saved(alice, now):
    with pytest.raises(SourceInputError) as refused:
        add_site_crawl(
            alice, "", include=["blog"], exclude="/a b", max_depth=9, limit=1000, now=now
        )
    assert set(refused.value.errors) == {"url", "include", "exclude", "max_depth", "limit"}
    assert "“/”" in refused.value.errors["include"]
    assert refused.value.errors["max_depth"] == "Must be from 1 to 5; got 9."
    assert refused.value.errors["limit"] == "Must be from 2 to 500; got 1000."
    assert not Source.objects.exists()


def test_a_site_that_robots_txt_closes_is_refused(site, alice, now):
    site.add("/robots.txt", "User-agent: Tidings\nDisallow: /\n", Content_Type="text/plain")
    with pytest.raises(SourceInputError) as refused:
        add_site_crawl(alice, site.url("/"), now=now)
    assert refused.value.errors == {
        "url": "The site's robots.txt does not allow Tidings to read this page."
    }
    assert not Source.objects.exists()


def test_a_refused_address_is_refused_before_any_request(alice, now):
    with pytest.raises(SourceInputError) as refused:
        add_site_crawl(alice, "http://169.254.169.254/", now=now)
    assert "never fetches from" in refused.value.errors["url"]


def test_the_console_adds_a_crawl(site, client, alice):
    client.force_login(alice)
    page = client.get(reverse("ingest:list"))
    assert reverse("ingest:crawl-add").encode() in page.content
    assert client.get(reverse("ingest:crawl-add")).status_code == 200

    response = client.post(
        reverse("ingest:crawl-add"),
        {
            "url": site.url("/"),
            "include": "/blog/\n/news/",
            "exclude": "",
            "max_depth": "2",
            "limit": "20",
        },
    )

    assert response.status_code == 302
    source = UserSource.objects.get(user=alice).source
    assert source.config["include"] == ["/blog/", "/news/"]
    assert source.config["limit"] == 20


def test_the_console_shows_errors_next_to_their_fields(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("ingest:crawl-add"), {"url": "ftp://example.com/", "max_depth": "0", "limit": "50"}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "Only http and https" in form.errors["url"][0]
    assert form.errors["max_depth"] == ["Must be from 1 to 5; got 0."]
    assert not Source.objects.exists()


def test_the_api_adds_a_crawl_and_reports_field_errors(site, alice):
    api = APIClient()
    _row, token = issue_token(alice, "tests")
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    created = api.post("/api/v1/sources/crawls", {"url": site.url("/"), "limit": 10}, format="json")
    refused = api.post(
        "/api/v1/sources/crawls", {"url": site.url("/"), "exclude": ["tag"]}, format="json"
    )

    assert created.status_code == 201
    assert created.json()["type"] == "crawl"
    assert created.json()["config"]["limit"] == 10
    assert refused.status_code == 400
    assert list(refused.json()["error"]["fields"]) == ["exclude"]
    assert Source.objects.count() == 1
