"""Watched lists (`list` sources, SPEC §4.6): a listing page checked for links it never had.

Everything runs on real parts: pages served over HTTP on loopback, the real fetch client, the
real pool. "New" must mean new — the recorded ten-step fixture (testdata/watch_steps/) mixes
real news with reorders, timestamp churn, paging noise, a removed and a re-added post, and the
watcher must report exactly the new posts at every step.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ingest.library.sources import SourceError
from ingest.models import ContentItemSource, FetchLog, Source, UserSource
from ingest.pool.recent import recent_item_ids
from ingest.refresh.pipeline import DEGRADED_AFTER_FAILURES, refresh_source
from ingest.watch.listing import ListingError, extract_listing
from ingest.watch.service import add_list_watch, read_list
from tests.ingest.watch_steps import load_steps, new_urls

HOUR = timedelta(hours=1)
PATH, STEPS = load_steps()


def served(fixture_server, paths) -> set[str]:
    return {fixture_server.url(path) for path in paths}


# --- The recorded ten steps ---------------------------------------------------------------------


@pytest.mark.parametrize("selector", ["", "ul.posts h2 a"], ids=["heuristic", "selector"])
def test_every_step_reports_exactly_the_new_posts(fixture_server, alice, now, selector):
    url = fixture_server.add(PATH, STEPS[0].html, Content_Type="text/html; charset=utf-8")
    added = add_list_watch(alice, url, selector=selector, now=now)
    source = added.user_source.source
    assert added.refresh.ok and added.refresh.counts.seen == len(STEPS[0].on_page)
    assert new_urls(source, now) == set()  # the first look is a baseline

    for step in STEPS[1:]:
        at = now + step.number * HOUR
        fixture_server.add(PATH, step.html, Content_Type="text/html; charset=utf-8")
        outcome = refresh_source(source, now=at)
        assert outcome.ok, (step.number, outcome.error)
        assert new_urls(source, at) == served(fixture_server, step.new_paths), (
            f"step {step.number}: {step.what}"
        )

    all_news = {path for step in STEPS for path in step.new_paths}
    news_in_runs = recent_item_ids([source.pk], since=now - HOUR, limit=100)
    assert set(
        ContentItemSource.objects.filter(item_id__in=news_in_runs, source=source).values_list(
            "item__canonical_url", flat=True
        )
    ) == served(fixture_server, all_news)


def test_the_first_check_records_the_page_without_reaching_any_inbox(fixture_server, alice, now):
    url = fixture_server.add(PATH, STEPS[0].html)
    source = add_list_watch(alice, url, now=now).user_source.source

    sightings = ContentItemSource.objects.filter(source=source)
    assert sightings.count() == 8
    assert all(sightings.values_list("baseline", flat=True))
    assert recent_item_ids([source.pk], since=now - HOUR, limit=100) == []
    log = FetchLog.objects.get(source=source)
    assert (log.outcome, log.fetched, log.inserted) == ("ok", 8, 8)


def test_the_first_successful_check_after_failures_is_still_the_baseline(db, fixture_server, now):
    url = fixture_server.add(PATH, b"down for maintenance", status=503)
    source = Source.objects.create(
        type=Source.Type.LIST, config={"url": url, "selector": "", "render": "http"},
        config_hash="failing-first", url=url,
    )  # fmt: skip
    assert not refresh_source(source, now=now).ok
    assert not refresh_source(source, now=now + HOUR).ok

    fixture_server.add(PATH, STEPS[0].html)
    assert refresh_source(source, now=now + 2 * HOUR).ok
    assert new_urls(source, now + 2 * HOUR) == set()
    assert ContentItemSource.objects.filter(source=source, baseline=True).count() == 8


def test_an_unchanged_page_is_asked_for_conditionally(fixture_server, alice, now):
    url = fixture_server.add(PATH, STEPS[0].html, ETag='"v1"')
    source = add_list_watch(alice, url, now=now).user_source.source
    assert source.etag == '"v1"'

    fixture_server.add(PATH, b"", status=304, ETag='"v1"')
    outcome = refresh_source(source, now=now + HOUR)
    assert outcome.ok and outcome.not_modified
    assert fixture_server.requests[-1][1].get("If-None-Match") == '"v1"'
    assert new_urls(source, now + HOUR) == set()


def test_a_post_that_leaves_the_page_is_simply_gone(fixture_server, alice, now):
    url = fixture_server.add(PATH, STEPS[0].html)
    source = add_list_watch(alice, url, now=now).user_source.source
    fixture_server.add(PATH, STEPS[2].html)  # H dropped off, I is new
    refresh_source(source, now=now + HOUR)

    # Nothing is deleted and nothing is reported: the sighting of H stays, as the memory
    # that makes its return not news.
    assert ContentItemSource.objects.filter(source=source).count() == 9
    assert new_urls(source, now + HOUR) == served(
        fixture_server, ["/posts/night-bus-ferry-connection"]
    )


# --- Failures and health ------------------------------------------------------------------------


def test_a_selector_that_stops_matching_fails_with_its_reason_and_degrades(
    fixture_server, alice, client, now
):
    url = fixture_server.add(PATH, STEPS[0].html)
    source = add_list_watch(alice, url, selector="ul.posts h2 a", now=now).user_source.source
    redesigned = STEPS[0].html.replace(b'class="posts"', b'class="stories"')
    fixture_server.add(PATH, redesigned)

    outcome = refresh_source(source, now=now + HOUR)
    assert not outcome.ok
    assert outcome.error == "The selector 'ul.posts h2 a' matched no links on the page."
    source.refresh_from_db()
    assert source.last_error == outcome.error and source.status == "active"
    assert FetchLog.objects.filter(source=source, outcome="error").count() == 1

    for attempt in range(2, DEGRADED_AFTER_FAILURES + 2):
        refresh_source(source, now=now + attempt * HOUR)
    source.refresh_from_db()
    assert source.status == "degraded"

    client.force_login(alice)
    page = client.get(reverse("ingest:list")).content.decode()
    assert "Degraded" in page and "Watched list" in page
    assert "The selector &#x27;ul.posts h2 a&#x27; matched no links on the page." in page


def test_a_page_that_is_not_html_is_a_failure(db, fixture_server, now):
    url = fixture_server.add(PATH, b'{"posts": []}', Content_Type="application/json")
    source = Source.objects.create(
        type=Source.Type.LIST, config={"url": url}, config_hash="json", url=url
    )
    fetched = read_list(source)
    assert fetched.error == "The address serves application/json, not an HTML page."


# --- Adding a watch -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "options", "field", "code"),
    [
        ("", {}, "url", "required"),
        ("ftp://example.com/list", {}, "url", "refused_by_policy"),
        ("http://10.0.0.1/news", {}, "url", "refused_by_policy"),
        ("http://169.254.169.254/latest/", {}, "url", "refused_by_policy"),
        ("SERVED", {"selector": "ul["}, "selector", "invalid_selector"),
        ("SERVED", {"selector": "ul.news a"}, "selector", "no_match"),
        ("SERVED", {"render": "pdf"}, "render", "invalid_choice"),
        ("EMPTY", {}, "url", "no_items"),
    ],
)
def test_refused_watches_name_the_field_and_leave_nothing(
    fixture_server, alice, now, url, options, field, code
):
    if url == "SERVED":
        url = fixture_server.add(PATH, STEPS[0].html)
    elif url == "EMPTY":
        url = fixture_server.add("/empty", b"<html><body><p>No links here.</p></body></html>")
    with pytest.raises(SourceError) as refused:
        add_list_watch(alice, url, now=now, **options)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert refused.value.message
    assert not Source.objects.exists() and not UserSource.objects.exists()


def test_the_refusal_messages_say_what_to_change(fixture_server, alice, now):
    url = fixture_server.add(PATH, STEPS[0].html)
    with pytest.raises(SourceError) as no_match:
        add_list_watch(alice, url, selector="ul.news a", now=now)
    assert no_match.value.message == "The selector 'ul.news a' matched no links on the page."
    with pytest.raises(SourceError) as invalid:
        add_list_watch(alice, url, selector="ul[", now=now)
    assert invalid.value.message.startswith("The selector 'ul[' is not valid CSS")
    with pytest.raises(SourceError) as private:
        add_list_watch(alice, "http://10.0.0.1/news", now=now)
    assert "private" in private.value.message


def test_an_invalid_selector_is_refused_before_anything_is_fetched(fixture_server, alice, now):
    url = fixture_server.add(PATH, STEPS[0].html)
    with pytest.raises(SourceError):
        add_list_watch(alice, url, selector="li >> a", now=now)
    assert fixture_server.requests == []


def test_a_second_watcher_shares_the_list_without_a_new_baseline(fixture_server, alice, bob, now):
    url = fixture_server.add(PATH, STEPS[0].html)
    first = add_list_watch(alice, url, now=now)
    requests_so_far = len(fixture_server.requests)

    second = add_list_watch(bob, url, now=now + HOUR)
    assert second.created and second.refresh is None
    assert second.user_source.source == first.user_source.source
    assert len(fixture_server.requests) == requests_so_far

    again = add_list_watch(bob, url, now=now + HOUR)
    assert not again.created
    assert UserSource.objects.filter(user=bob).count() == 1


def test_a_different_selector_is_a_different_list(fixture_server, alice, now):
    url = fixture_server.add(PATH, STEPS[0].html)
    plain = add_list_watch(alice, url, now=now).user_source.source
    picked = add_list_watch(alice, url, selector="ul.posts h2 a", now=now).user_source.source
    assert plain != picked
    assert picked.config == {"url": url, "selector": "ul.posts h2 a", "render": "http"}
    assert picked.type == "list"


def test_items_carry_link_text_and_nearby_text_as_plain_text(fixture_server, alice, now):
    page = b"""<html><head><title>Changelog</title></head><body><main><ul class="releases">
      <li><a href="/r/2.4.0">Release 2.4.0 &lt;script&gt;alert(1)&lt;/script&gt;</a>
          <p>Faster <b>sync</b>; <time datetime="2026-11-18T10:00:00Z">18 Nov</time></p></li>
      <li><a href="/r/2.3.9?utm_source=x">Release 2.3.9 hotfix</a><p>Fixes a crash.</p></li>
    </ul></main></body></html>"""
    url = fixture_server.add("/changelog", page)
    source = add_list_watch(alice, url, now=now).user_source.source
    items = {
        s.item.canonical_url: s.item
        for s in ContentItemSource.objects.filter(source=source).select_related("item")
    }
    first = items[fixture_server.url("/r/2.4.0")]
    assert first.title == "Release 2.4.0 <script>alert(1)</script>"  # text, escaped when shown
    assert first.description == "Faster sync ; 18 Nov"
    assert first.content_html == ""
    assert first.published_at.isoformat() == "2026-11-18T10:00:00+00:00"
    assert fixture_server.url("/r/2.3.9") in items  # tracking parameters canonicalized away
    assert source.title == "Changelog"


@pytest.mark.parametrize("declared", ["header", "meta"])
def test_a_korean_listing_in_euc_kr_keeps_its_titles(fixture_server, alice, now, declared):
    page = (
        "<html><head>{meta}<title>경제 뉴스</title></head><body><ul class='news'>"
        "<li><a href='/article/20261120001'>금리 동결, 시장은 관망세로 돌아서</a></li>"
        "<li><a href='/article/20261120002'>수출 증가세 석 달째 이어져</a></li>"
        "</ul></body></html>"
    ).format(meta="<meta charset='euc-kr'>" if declared == "meta" else "")
    headers = {"Content_Type": "text/html; charset=EUC-KR"} if declared == "header" else {}
    url = fixture_server.add("/economy", page.encode("euc-kr"), **headers)
    source = add_list_watch(alice, url, now=now).user_source.source
    titles = set(
        ContentItemSource.objects.filter(source=source).values_list("item__title", flat=True)
    )
    assert titles == {"금리 동결, 시장은 관망세로 돌아서", "수출 증가세 석 달째 이어져"}
    assert source.title == "경제 뉴스"


# --- The heuristic on other page shapes ---------------------------------------------------------


def entry_paths(html: str, base="https://news.example/") -> list[str]:
    listing = extract_listing(html.encode(), base_url=base)
    return [entry.url.removeprefix(base.rstrip("/")) for entry in listing.entries]


def test_the_heuristic_reads_an_aggregator_table_by_its_titles():
    rows = "".join(
        f'<tr class="athing"><td class="title"><span class="titleline">'
        f'<a href="https://site{n}.example/story-{n}">A story about topic number {n}</a>'
        f'</span></td></tr><tr><td class="subtext"><span class="subline">'
        f'<a href="user?id=person{n}">person{n}</a> <a href="item?id={n}">{n} comments</a>'
        f"</span></td></tr>"
        for n in range(1, 11)
    )
    html = f"<html><body><table>{rows}</table><a href='news?p=2' rel='next'>More</a></body></html>"
    assert entry_paths(html) == [f"https://site{n}.example/story-{n}" for n in range(1, 11)]


def test_the_heuristic_groups_items_whose_classes_name_each_post():
    articles = "".join(
        f'<article id="post-{n}" class="post-{n} post type-post category-{cat} hentry">'
        f'<header class="entry-header"><h2 class="entry-title">'
        f'<a href="/2026/11/{n}/a-post-about-{cat}/">A post about {cat} number {n}</a></h2>'
        f"</header></article>"
        for n, cat in enumerate(["ferries", "tides", "boats", "ferries", "weather"], 1)
    )
    html = (
        '<html><body class="blog no-sidebar"><header id="masthead" class="site-header">'
        '<a href="/about/">About the harbour</a><a href="/contact/">Contact us today</a></header>'
        f'<main id="main" class="site-main">{articles}'
        '<nav class="navigation pagination"><a class="next" href="/page/2/">Next</a></nav>'
        '</main><footer class="site-footer"><a href="/privacy-policy/">Privacy policy page</a>'
        "</footer></body></html>"
    )
    assert entry_paths(html) == [
        "/2026/11/1/a-post-about-ferries/",
        "/2026/11/2/a-post-about-tides/",
        "/2026/11/3/a-post-about-boats/",
        "/2026/11/4/a-post-about-ferries/",
        "/2026/11/5/a-post-about-weather/",
    ]


def test_the_heuristic_prefers_the_list_over_a_larger_menu_of_section_links():
    menu = "".join(f'<div><a href="/category/{s}">{s}</a></div>' for s in "abcdefghijkl")
    items = "".join(
        f'<p><a href="/news/2026-11-{n:02d}-council">Council meeting notes for day {n}</a></p>'
        for n in range(1, 6)
    )
    html = f"<html><body><div>{menu}</div><div>{items}</div></body></html>"
    assert entry_paths(html) == [f"/news/2026-11-{n:02d}-council" for n in range(1, 6)]


def test_the_heuristic_never_takes_paging_links_for_items():
    html = """<html><body><ul>
      <li><a href="/stories/first-story-here">The first story is here</a></li>
      <li><a href="/stories/second-story-here">The second story is here</a></li>
      <li><a href="/?page=2">2</a></li><li><a href="/page/3">Older posts »</a></li>
      <li><a href="/?sort=top">Top stories this week</a></li>
    </ul></body></html>"""
    assert entry_paths(html) == ["/stories/first-story-here", "/stories/second-story-here"]


def test_a_page_without_any_list_of_links_is_reported():
    with pytest.raises(ListingError) as missing:
        extract_listing(
            b"<html><body><p>Just text.</p></body></html>", base_url="https://a.example/"
        )
    assert missing.value.field == "url"
    assert "No list of links was found" in missing.value.message


# --- Console and API ----------------------------------------------------------------------------


def test_the_console_watches_a_page_and_shows_its_health(fixture_server, client, alice):
    url = fixture_server.add(PATH, STEPS[0].html)
    client.force_login(alice)
    sources_page = client.get(reverse("ingest:list")).content.decode()
    assert reverse("ingest:watch") in sources_page

    form = client.get(reverse("ingest:watch"))
    assert form.status_code == 200 and 'name="selector"' in form.content.decode()

    response = client.post(reverse("ingest:watch"), {"url": url, "render": "http"}, follow=True)
    body = response.content.decode()
    assert "8 links are on the page now" in body
    assert "Harbor Notes — Latest posts" in body and "Watched list" in body
    source = Source.objects.get(type="list")
    assert source.next_refresh_at is not None and source.last_refresh_at is not None


def test_the_console_shows_a_refusal_next_to_its_field(fixture_server, client, alice):
    url = fixture_server.add(PATH, STEPS[0].html)
    client.force_login(alice)
    response = client.post(
        reverse("ingest:watch"), {"url": url, "selector": "ul.news a", "render": "http"}
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors == {"selector": ["The selector 'ul.news a' matched no links on the page."]}
    assert not Source.objects.exists()


def test_the_api_starts_a_watch(fixture_server, api):
    url = fixture_server.add(PATH, STEPS[0].html)
    response = api.post(
        "/api/v1/sources/lists", {"url": url, "selector": "ul.posts h2 a"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["type"] == "list" and body["status"] == "active"
    assert (body["selector"], body["render"], body["baseline_links"]) == (
        "ul.posts h2 a",
        "http",
        8,
    )
    assert body["next_refresh_at"] and body["last_error"] == ""

    again = api.post("/api/v1/sources/lists", {"url": url, "selector": "ul.posts h2 a"})
    assert again.status_code == 200 and again.json()["baseline_links"] is None


def test_the_api_refuses_with_the_common_error_shape(fixture_server, api):
    url = fixture_server.add(PATH, STEPS[0].html)
    response = api.post("/api/v1/sources/lists", {"url": url, "selector": "ul["}, format="json")
    assert response.status_code == 422  # well formed, but not a selector the server can use
    error = response.json()["error"]
    assert error["code"] == "invalid_selector"
    assert error["fields"]["selector"].startswith("The selector 'ul[' is not valid CSS")

    refused = api.post("/api/v1/sources/lists", {"url": "http://10.0.0.1/"}, format="json")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "refused_by_policy"
    assert not Source.objects.exists()


def test_the_api_needs_a_token(db):
    response = APIClient().post("/api/v1/sources/lists", {"url": "https://a.example/"})
    assert response.status_code in (401, 403)
