"""Source packs: curated data, one-click install in the console and the API, idempotent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ingest.canonical import canonicalize_url
from ingest.library.opml import check_feed_url, import_opml
from ingest.library.packs import (
    NAVER_NEEDS_CREDENTIALS,
    PACKS,
    PACKS_BY_KEY,
    PackError,
    install_pack,
    pack_states,
)
from ingest.models import Source, UserSource
from ingest.refresh.pipeline import claim_due_sources

KOREAN_KEYS = ["khan", "donga", "hankyung", "mk", "itdonga", "voa_ko", "naver_news_search"]


def library_urls(user) -> set[str]:
    return set(UserSource.objects.filter(user=user).values_list("source__url", flat=True))


# --- The data ---------------------------------------------------------------------------------


def test_the_required_packs_exist():
    assert {"ai", "engineering", "security", "korean-news"} <= set(PACKS_BY_KEY)


@pytest.mark.parametrize("key", ["ai", "engineering", "security"])
def test_topic_packs_hold_five_to_eight_feeds(key):
    assert 5 <= PACKS_BY_KEY[key].feed_count <= 8


def test_the_korean_pack_follows_seed_003():
    pack = PACKS_BY_KEY["korean-news"]
    assert [source.key for source in pack.sources] == KOREAN_KEYS
    assert pack.feed_count == 6
    feeds = [source for source in pack.sources if source.type == "feed"]
    # The seed's dedup priority: khan > donga > hankyung > mk > itdonga > voa_ko > naver.
    priorities = [source.priority for source in pack.sources]
    assert priorities == sorted(priorities, reverse=True)
    assert len(set(priorities)) == len(priorities)
    assert {source.refresh_interval_minutes for source in feeds} == {30}


@pytest.mark.parametrize(
    "source", [s for pack in PACKS for s in pack.sources if s.type == "feed"], ids=lambda s: s.key
)
def test_every_pack_feed_is_a_safe_canonical_https_address(source):
    assert source.url.startswith("https://")
    assert check_feed_url(source.url) == source.url
    assert canonicalize_url(source.url) == source.url


def test_pack_source_keys_and_urls_are_unique():
    sources = [s for pack in PACKS for s in pack.sources]
    assert len({s.key for s in sources}) == len(sources)
    assert len({s.url for s in sources if s.url}) == len([s for s in sources if s.url])


# --- Installing -------------------------------------------------------------------------------


def test_installing_a_pack_adds_its_feeds_due_now(alice, now):
    installed = install_pack(alice, "security", now=now)

    pack = PACKS_BY_KEY["security"]
    assert len(installed.added) == pack.feed_count
    assert installed.already_in_library == []
    assert library_urls(alice) == {source.url for source in pack.sources}
    for source in Source.objects.all():
        assert source.type == "feed"
        assert source.config == {"url": source.url}
        assert source.next_refresh_at == now
        assert source.status == "active"
    krebs = UserSource.objects.get(user=alice, source__url="https://krebsonsecurity.com/feed/")
    assert krebs.display_name == "Krebs on Security"
    assert krebs.source.title == "Krebs on Security"
    assert {s.pk for s in claim_due_sources(now=now)} == set(
        Source.objects.values_list("pk", flat=True)
    )


def test_installing_a_pack_twice_adds_nothing(alice, now):
    install_pack(alice, "korean-news", now=now)
    counts = (Source.objects.count(), UserSource.objects.count())

    again = install_pack(alice, "korean-news", now=now + timedelta(days=1))

    assert again.added == []
    assert len(again.already_in_library) == 7
    assert (Source.objects.count(), UserSource.objects.count()) == counts
    assert Source.objects.filter(next_refresh_at=now + timedelta(days=1)).count() == 0


def test_an_unknown_pack_is_refused_naming_the_field(alice, now):
    with pytest.raises(PackError) as caught:
        install_pack(alice, "sports", now=now)
    assert caught.value.field == "key"
    assert caught.value.code == "unknown_pack"
    assert "Unknown source pack 'sports'" in caught.value.message
    assert "ai, engineering, security, korean-news" in caught.value.message
    assert UserSource.objects.count() == 0


def test_the_naver_source_is_discovery_only_and_never_scheduled(alice, now):
    install_pack(alice, "korean-news", now=now)

    naver = Source.objects.get(type="search")
    assert naver.config == {"provider": "naver_news", "query": "속보"}
    assert naver.refresh_mode == "on_run"
    assert naver.status == "disabled"
    assert naver.next_refresh_at is None
    assert naver.last_error == NAVER_NEEDS_CREDENTIALS
    assert "NAVER" in naver.last_error
    assert "credentials" in naver.last_error
    claimed = claim_due_sources(now=now + timedelta(days=3650), limit=1000)
    assert naver not in claimed
    assert len(claimed) == 6


def test_a_naver_source_enabled_by_an_admin_is_still_not_claimed(alice, now):
    install_pack(alice, "korean-news", now=now)
    Source.objects.filter(type="search").update(status="active", next_refresh_at=now)
    assert Source.objects.get(type="search") not in claim_due_sources(now=now)


def test_a_pack_shares_sources_with_feeds_imported_by_opml(alice, bob, now):
    opml = (
        b'<?xml version="1.0"?><opml version="2.0"><head/><body>'
        b'<outline text="Donga, my way" xmlUrl="https://RSS.donga.com/total.xml?utm_source=x"/>'
        b"</body></opml>"
    )
    import_opml(alice, opml, now=now)

    installed = install_pack(alice, "korean-news", now=now)
    install_pack(bob, "korean-news", now=now)

    assert len(installed.added) == 6
    assert [us.display_name for us in installed.already_in_library] == ["Donga, my way"]
    assert Source.objects.count() == 7
    assert UserSource.objects.filter(user=bob).count() == 7


def test_installing_does_not_touch_other_users_libraries(alice, bob, now):
    install_pack(bob, "ai", now=now)
    bobs = list(UserSource.objects.filter(user=bob).order_by("pk").values())

    install_pack(alice, "ai", now=now)
    install_pack(alice, "engineering", now=now)

    assert list(UserSource.objects.filter(user=bob).order_by("pk").values()) == bobs
    assert [state.installed for state in pack_states(bob)] == [True, False, False, False]


def test_pack_states_count_what_the_user_already_has(alice, now, django_assert_num_queries):
    install_pack(alice, "ai", now=now)
    UserSource.objects.filter(user=alice).first().delete()

    with django_assert_num_queries(1):
        states = {state.pack.key: state for state in pack_states(alice)}

    ai = states["ai"]
    assert (ai.in_library, ai.total, ai.installed) == (6, 7, False)
    assert install_pack(alice, "ai", now=now).added[0].source.url
    assert {state.pack.key: state for state in pack_states(alice)}["ai"].installed


# --- Console ----------------------------------------------------------------------------------


def test_the_sources_page_lists_packs_with_install_buttons(client, alice):
    client.force_login(alice)
    response = client.get(reverse("ingest:list"))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Source packs" in body
    for pack in PACKS:
        assert str(pack.name) in body
        assert reverse("ingest:pack-install", args=[pack.key]) in body
    assert "7 feeds" in body
    assert "6 feeds" in body
    assert "plus a discovery-only search source" in body
    assert reverse("ingest:opml-import") in body
    assert reverse("ingest:opml-export") in body
    assert 'enctype="multipart/form-data"' in body


def test_the_console_installs_a_pack_in_one_click(client, alice):
    client.force_login(alice)
    response = client.post(reverse("ingest:pack-install", args=["engineering"]), follow=True)

    assert response.redirect_chain == [(reverse("ingest:list"), 302)]
    body = response.content.decode()
    assert "Installed Engineering: 7 sources added to your library." in body
    assert "Netflix TechBlog" in body
    assert len(library_urls(alice)) == 7
    engineering = {s.pack.key: s for s in response.context["packs"]}["engineering"]
    assert engineering.installed
    assert reverse("ingest:pack-install", args=["engineering"]) not in body
    assert "Installed</span>" in body


def test_the_console_install_twice_says_nothing_new(client, alice):
    client.force_login(alice)
    client.post(reverse("ingest:pack-install", args=["ai"]))
    response = client.post(reverse("ingest:pack-install", args=["ai"]), follow=True)
    assert "Every source of that pack is already in your library." in response.content.decode()
    assert UserSource.objects.filter(user=alice).count() == 7


def test_the_console_refuses_an_unknown_pack(client, alice):
    client.force_login(alice)
    response = client.post(reverse("ingest:pack-install", args=["sports"]), follow=True)
    assert "Unknown source pack" in response.content.decode()
    assert UserSource.objects.count() == 0


def test_the_console_install_needs_a_login_and_a_post(client, alice):
    response = client.post(reverse("ingest:pack-install", args=["ai"]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    client.force_login(alice)
    assert client.get(reverse("ingest:pack-install", args=["ai"])).status_code == 405
    assert UserSource.objects.count() == 0


def test_the_sources_page_query_count_does_not_grow_with_packs_installed(
    client, alice, now, django_assert_max_num_queries
):
    client.force_login(alice)
    with django_assert_max_num_queries(8) as before:
        client.get(reverse("ingest:list"))
    for pack in PACKS:
        install_pack(alice, pack.key, now=now)
    with django_assert_max_num_queries(len(before)):
        response = client.get(reverse("ingest:list"))
    assert "NAVER News Search" in response.content.decode()


# --- API --------------------------------------------------------------------------------------


def test_the_api_lists_packs_with_their_install_state(api, alice, now):
    install_pack(alice, "security", now=now)
    response = api.get("/api/v1/packs")
    assert response.status_code == 200
    packs = {pack["key"]: pack for pack in response.json()["results"]}
    assert list(packs) == [pack.key for pack in PACKS]
    assert packs["security"]["installed"] is True
    assert packs["ai"]["installed"] is False
    korean = packs["korean-news"]
    assert (korean["feed_count"], korean["source_count"], korean["in_library"]) == (6, 7, 0)
    naver = korean["sources"][-1]
    assert naver["type"] == "search"
    assert naver["discovery_only"] is True
    assert "credentials" in naver["note"]
    assert korean["sources"][0] == {
        "key": "khan",
        "title": "경향신문",
        "type": "feed",
        "url": "https://www.khan.co.kr/rss/rssdata/total_news.xml",
        "discovery_only": False,
        "note": "",
    }


def test_the_api_installs_a_pack_then_reports_nothing_new(api, alice):
    first = api.post("/api/v1/packs/ai/install")
    assert first.status_code == 201
    body = first.json()
    assert body["pack"] == "ai"
    assert len(body["added"]) == 7
    assert body["already_in_library"] == []
    assert {entry["url"] for entry in body["added"]} == library_urls(alice)

    second = api.post("/api/v1/packs/ai/install")
    assert second.status_code == 200
    assert second.json()["added"] == []
    assert len(second.json()["already_in_library"]) == 7
    assert UserSource.objects.filter(user=alice).count() == 7


def test_the_api_refuses_an_unknown_pack_with_the_error_shape(api, alice):
    response = api.post("/api/v1/packs/sports/install")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "unknown_pack"
    assert "Unknown source pack 'sports'" in error["fields"]["key"]
    assert UserSource.objects.count() == 0


def test_the_pack_api_needs_a_token(db):
    client = APIClient()
    assert client.get("/api/v1/packs").status_code == 401
    response = client.post("/api/v1/packs/ai/install")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert Source.objects.count() == 0
