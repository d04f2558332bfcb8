"""The Inbox as a user meets it: what each item shows, every filter and their stable URLs,
cursor pages, the nav counts, actions with and without JavaScript (htmx), the run page, empty
states that say what to do next, and query counts that do not grow with the page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from digests.models import Run
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserContentState
from ingest.models import ContentItem
from tests.factories import add_item

HTMX = {"HTTP_HX_REQUEST": "true"}


def deliver(user, titles, *, now, name="Databases", interests=("PostgreSQL",), **options):
    """A subscription of `user` and one executed run delivering an item per title."""
    for n, title in enumerate(titles):
        add_item(title, now=now, age_hours=1 + n / 10, description=f"{title}. More text.")
    subscription = create_subscription(
        user,
        {"name": name, "interests": list(interests), "cron": "0 8 * * *", **options},
        now=now,
    )
    return run_again(subscription, now=now)


def run_again(subscription, *, now):
    run = request_manual_run(subscription, now=now)
    return runner.execute_run(run.pk, now=now)


def titles(response) -> list[str]:
    return [item["title"] for item in response.context["items"]]


def inbox(client, query: str = ""):
    return client.get(reverse("inbox:index") + query)


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def three(alice, now):
    return deliver(alice, [f"PostgreSQL note {n}" for n in range(3)], now=now)


def test_an_item_shows_title_summary_source_time_reason_and_its_actions(console, alice, now):
    add_item("PostgreSQL 18 ships", now=now, description="Async I/O lands. It is fast.")
    ContentItem.objects.update(site_name="PG Weekly")
    subscription = create_subscription(
        alice, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = run_again(subscription, now=now)
    with time_machine.travel(now, tick=False):
        body = inbox(console).content.decode()
    item = run.items.get()
    assert 'href="https://news.example/' in body and "PostgreSQL 18 ships" in body
    assert "Async I/O lands. It is fast." in body
    assert "PG Weekly" in body
    # Published 2 hours before now: the time in Alice's zone, and how long ago beside it (a
    # relative time is never shown alone).
    assert "2\xa0hours ago" in body
    assert '<time datetime="2026-11-20T08:00:00+01:00" title="Europe/Berlin">' in body
    assert "20 Nov 2026, 08:00 CET" in body
    assert "Why selected:" in body and "matches PostgreSQL in the title" in body
    assert f'action="{reverse("inbox:item_act", args=[item.pk])}"' in body
    for action in ("read", "save", "not_interested"):
        assert f'name="action" value="{action}"' in body
    assert f'href="{reverse("inbox:run", args=[run.pk])}">Databases</a>' in body


def test_newest_brief_first_then_each_brief_in_its_own_order(console, alice, three, now):
    later = now + timedelta(hours=2)
    add_item("PostgreSQL later", now=later, age_hours=0)
    run_again(three.subscription, now=later)
    first_brief = list(three.items.order_by("rank").values_list("title", flat=True))
    assert sorted(first_brief) == [f"PostgreSQL note {n}" for n in range(3)]
    assert titles(inbox(console)) == ["PostgreSQL later", *first_brief]


def act(client, item, action, **extra):
    return client.post(
        reverse("inbox:item_action", args=[item.pk, action]), extra.pop("data", {}), **extra
    )


def test_unread_saved_and_not_interested_filters(console, three):
    first, second, third = three.items.order_by("rank")
    act(console, first, "read")
    act(console, second, "save")
    act(console, third, "not_interested")
    assert titles(inbox(console, "?show=unread")) == [second.title]
    assert titles(inbox(console, "?show=saved")) == [second.title]
    assert titles(inbox(console, "?show=not_interested")) == [third.title]
    assert titles(inbox(console)) == [first.title, second.title]


def test_text_filter_looks_at_title_and_source(console, alice, now):
    run = deliver(alice, ["PostgreSQL vacuum", "PostgreSQL indexes"], now=now)
    run.items.filter(title="PostgreSQL indexes").update(source_name="Planet PG")
    assert titles(inbox(console, "?q=VACUUM")) == ["PostgreSQL vacuum"]
    assert titles(inbox(console, "?q=planet")) == ["PostgreSQL indexes"]
    assert titles(inbox(console, "?q=nothing-like-this")) == []
    body = inbox(console, "?q=planet").content.decode()
    assert 'name="q" id="id_q" maxlength="200" value="planet"' in body


def test_subscription_filter(console, alice, now):
    deliver(alice, ["PostgreSQL only"], now=now)
    rust = deliver(alice, ["Rust only"], now=now, name="Rust", interests=("Rust",))
    assert titles(inbox(console, f"?subscription={rust.subscription_id}")) == ["Rust only"]
    page = inbox(console).content.decode()
    assert f'<option value="{rust.subscription_id}">Rust</option>' in page


def test_date_range_counts_the_users_local_days(console, alice, now):
    # Alice lives in Europe/Berlin: 23:30 UTC on 20 Nov is already 21 Nov for her.
    late = datetime(2026, 11, 20, 23, 30, tzinfo=UTC)
    deliver(alice, ["PostgreSQL late"], now=late)
    deliver(alice, ["Rust early"], now=now, name="Rust", interests=("Rust",))
    assert titles(inbox(console, "?from=2026-11-21&to=2026-11-21")) == ["PostgreSQL late"]
    assert titles(inbox(console, "?to=2026-11-20")) == ["Rust early"]
    assert titles(inbox(console, "?from=2026-11-22")) == []


def test_an_items_answer_to_an_action_keeps_the_readers_time_zone(console, three):
    item = three.items.order_by("rank").first()
    page = inbox(console).content.decode()
    shown = re.search(rf'id="item-{item.pk}".*?(<time [^>]*>[^<]*</time>)', page, re.S)[1]
    assert 'title="Europe/Berlin"' in shown  # Alice's zone
    body = act(console, item, "save", data={"next": "/inbox/"}, **HTMX).content.decode()
    assert shown in body  # not the same instant in UTC


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?from=yesterday", "Enter a valid date."),
        ("?from=2026-11-20&to=2026-11-19", "The end date must be on or after the start date."),
        ("?show=everything", "Select a valid choice."),
        ("?subscription=abc", "Select a valid choice."),
        ("?q=" + "x" * 201, "at most 200 characters"),
    ],
)
def test_a_refused_filter_is_named_and_left_out(console, three, query, message):
    response = inbox(console, query)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert len(titles(response)) == 3  # the other filters (none) still apply


def test_cursor_pages_keep_the_filters_and_walk_every_item_once(console, alice, now):
    run = deliver(alice, [f"PostgreSQL bulk {n}" for n in range(30)], now=now, max_items=30)
    run_two = deliver(
        alice, [f"Rust bulk {n}" for n in range(10)], now=now, name="Rust", interests=("Rust",)
    )
    first_read = run.items.order_by("rank").first()
    act(console, first_read, "read")
    first = inbox(console, "?show=unread&q=bulk")
    assert len(titles(first)) == 30
    next_url = first.context["next_url"]
    assert "show=unread" in next_url and "q=bulk" in next_url and "after=" in next_url
    # Reading an item of page 1 before turning the page moves nothing on page 2.
    act(console, run_two.items.order_by("rank").first(), "read")
    second = inbox(console, next_url)
    seen = titles(first) + titles(second)
    assert len(seen) == len(set(seen)) == 39  # 40 delivered, one read before page 1
    assert first_read.title not in seen
    assert second.context["next_url"] == ""
    assert second.context["first_url"].startswith("?show=unread")


def test_tab_links_keep_the_other_filters(console, three):
    body = inbox(console, f"?q=note&subscription={three.subscription_id}").content.decode()
    assert f'href="?q=note&amp;subscription={three.subscription_id}&amp;show=saved"' in body
    assert f'href="?q=note&amp;subscription={three.subscription_id}"' in body  # "All"


def test_the_nav_counts_unread_and_saved_items(console, three):
    first, second, _third = three.items.order_by("rank")
    assert nav_counts(inbox(console)) == (3, 0)
    act(console, first, "read")
    act(console, second, "save")
    assert nav_counts(inbox(console)) == (2, 1)
    act(console, second, "not_interested")
    assert nav_counts(inbox(console)) == (1, 1)


def nav_counts(response) -> tuple[int, int]:
    body = response.content.decode()
    found = dict(re.findall(r'id="nav-(unread|saved)"[^>]*><span aria-hidden="true">(\d+)<', body))
    return int(found["unread"]), int(found["saved"])


def test_without_javascript_an_action_redirects_back_to_the_same_item(console, three):
    item = three.items.order_by("rank").first()
    page = inbox(console, "?show=unread&q=note").content.decode()
    back = f"/inbox/?show=unread&amp;q=note#item-{item.pk}"
    assert f'name="next" value="{back}"' in page  # each form carries its way back
    response = act(console, item, "save", data={"next": back.replace("&amp;", "&")})
    assert response.status_code == 302
    assert response["Location"] == f"/inbox/?show=unread&q=note#item-{item.pk}"
    state = UserContentState.objects.get(canonical_url_hash=item.canonical_url_hash)
    assert state.saved_at is not None
    page = console.get(response["Location"]).content.decode()
    assert "Unsave" in visible_labels(page, item.pk)


def test_the_form_names_the_action_with_the_clicked_button(console, three):
    item = three.items.order_by("rank").first()
    url = reverse("inbox:item_act", args=[item.pk])
    response = console.post(url, {"action": "save", "next": f"/inbox/#item-{item.pk}"})
    assert response["Location"] == f"/inbox/#item-{item.pk}"
    state = UserContentState.objects.get(canonical_url_hash=item.canonical_url_hash)
    assert state.saved_at is not None
    assert console.post(url, {"action": "boom"}).status_code == 400
    assert console.post(url, {}).status_code == 400


def test_an_action_never_redirects_off_site(console, three):
    item = three.items.first()
    response = act(console, item, "read", data={"next": "https://evil.example/"})
    assert response["Location"] == "/inbox/"


def visible_labels(body: str, item_id: int) -> list[str]:
    """The labels a user sees on an item's buttons (each button carries both, one hidden)."""
    article = body[body.index(f'id="item-{item_id}"') :]
    actions = article[article.index('class="item-actions"') : article.index("</article>")]
    return re.findall(r"<span>([^<]+)</span>", actions)


def test_with_htmx_an_action_answers_the_item_and_the_new_counts(console, three):
    item = three.items.order_by("rank").first()
    response = act(console, item, "save", data={"next": "/inbox/", "show_run": "1"}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("<article")
    assert f'id="item-{item.pk}"' in body
    assert visible_labels(body, item.pk) == ["Mark read", "Unsave", "Not interested"]
    assert re.search(r'id="nav-saved" hx-swap-oob="true"><span aria-hidden="true">1<', body)
    assert re.search(r'id="nav-unread" hx-swap-oob="true"><span aria-hidden="true">3<', body)
    # The re-rendered buttons post back to the page the user is on, and keep its layout.
    assert f'name="next" value="/inbox/#item-{item.pk}"' in body
    assert f'href="{reverse("inbox:run", args=[three.pk])}"' in body

    undo = act(console, item, "unsave", data={"next": "/inbox/"}, **HTMX).content.decode()
    assert visible_labels(undo, item.pk) == ["Mark read", "Save", "Not interested"]


@pytest.mark.parametrize(
    ("action", "undo", "field", "labels"),
    [
        ("read", "unread", "read_at", ["Mark unread", "Save", "Not interested"]),
        ("save", "unsave", "saved_at", ["Mark read", "Unsave", "Not interested"]),
        (
            "not_interested",
            "interested",
            "not_interested_at",
            ["Mark read", "Save", "Undo not interested"],
        ),
    ],
)
def test_each_action_and_its_undo(console, three, action, undo, field, labels):
    item = three.items.first()
    body = act(console, item, action, **HTMX).content.decode()
    state = UserContentState.objects.get(canonical_url_hash=item.canonical_url_hash)
    assert getattr(state, field) is not None
    assert visible_labels(body, item.pk) == labels
    act(console, item, undo, **HTMX)
    state.refresh_from_db()
    assert getattr(state, field) is None


def test_state_follows_the_item_into_a_later_run(console, alice, now):
    run = deliver(alice, ["PostgreSQL again"], now=now, redelivery="cooldown", cooldown_days=1)
    act(console, run.items.get(), "save")
    later = run_again(run.subscription, now=now + timedelta(days=2))
    again = later.items.get()
    assert again.redelivered
    body = console.get(reverse("inbox:run", args=[later.pk])).content.decode()
    assert visible_labels(body, again.pk) == ["Mark read", "Unsave", "Not interested"]


def test_nobody_acts_on_someone_elses_item(client, bob, three):
    client.force_login(bob)
    assert act(client, three.items.first(), "save", **HTMX).status_code == 404
    assert not UserContentState.objects.filter(user=bob).exists()


def test_the_run_page_reads_narrative_then_items_then_sources(console, three):
    body = console.get(reverse("inbox:run", args=[three.pk])).content.decode()
    overview = body.index("Overview")
    first_item = body.index('id="item-')
    sources = body.index('id="run-sources"')
    assert overview < first_item < sources
    source_list = body[sources:]
    for n in range(3):
        assert f"PostgreSQL note {n}</a>" in source_list


def test_the_run_page_says_when_a_run_has_not_finished_or_failed(console, alice, now):
    subscription = create_subscription(
        alice, {"name": "Later", "interests": ["x"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    assert (
        "has not finished yet" in console.get(reverse("inbox:run", args=[run.pk])).content.decode()
    )
    Run.objects.filter(pk=run.pk).update(status="failed", error="RuntimeError: feed exploded")
    body = console.get(reverse("inbox:run", args=[run.pk])).content.decode()
    assert "This run failed:" in body and "RuntimeError: feed exploded" in body


def test_a_new_user_is_told_to_create_a_subscription(console):
    body = inbox(console).content.decode()
    assert "Welcome! Your Inbox is empty for now." in body
    assert f'href="{reverse("digests:new")}"' in body


def test_with_a_subscription_but_no_brief_the_user_is_told_to_run_it(console, alice, now):
    create_subscription(alice, {"name": "PG", "interests": ["x"], "cron": "0 8 * * *"}, now=now)
    body = inbox(console).content.decode()
    assert "Nothing delivered yet." in body and "Run now" in body


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?q=zebra", "Nothing matches these filters."),
        ("?show=saved", "Nothing saved yet."),
        ("?show=not_interested", "Nothing dismissed."),
    ],
)
def test_empty_views_say_why_and_what_next(console, three, query, message):
    assert message in inbox(console, query).content.decode()


def test_all_caught_up(console, three):
    for item in three.items.all():
        act(console, item, "read")
    assert "All caught up." in inbox(console, "?show=unread").content.decode()


def queries_for(client, url) -> int:
    client.get(url)  # warm the session and any per-process caches
    cache.clear()  # a rendered page, not the Inbox page cache's copy (tests/inbox/test_page_cache)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize(
    "query", ["", "?show=unread", "?show=saved&q=PostgreSQL", "?from=2026-11-01&to=2026-11-30"]
)
def test_the_inbox_costs_the_same_queries_for_1_or_30_items(
    console, alice, now, query, django_assert_num_queries
):
    run = deliver(alice, ["PostgreSQL single"], now=now, max_items=30)
    for item in run.items.all():
        act(console, item, "save")
    one = queries_for(console, reverse("inbox:index") + query)
    many = deliver(
        alice, [f"PostgreSQL many {n}" for n in range(29)], now=now, max_items=30, name="More"
    )
    for item in many.items.all():
        act(console, item, "save")
    with django_assert_num_queries(one):
        response = inbox(console, query)
    assert len(titles(response)) == 30
    assert one <= 9


def test_the_run_page_costs_the_same_queries_for_1_or_30_items(
    console, alice, now, django_assert_num_queries
):
    small = deliver(alice, ["PostgreSQL single"], now=now)
    one = queries_for(console, reverse("inbox:run", args=[small.pk]))
    big = deliver(
        alice,
        [f"Rust {n}" for n in range(30)],
        now=now,
        name="R",
        interests=("Rust",),
        max_items=30,
    )
    assert big.delivered_count == 30
    # The first visit also marks the brief read (one UPDATE); `one` was measured on a second.
    console.get(reverse("inbox:run", args=[big.pk]))
    cache.clear()
    with django_assert_num_queries(one):
        console.get(reverse("inbox:run", args=[big.pk]))


def test_an_action_costs_a_fixed_number_of_queries(console, three, django_assert_max_num_queries):
    item = three.items.first()
    # Session, user, preferences, the item; the state written in one savepoint (insert if
    # missing, update, the cached Inbox page's version); the state read back; the badges.
    with django_assert_max_num_queries(11):
        act(console, item, "save", **HTMX)


def test_htmx_and_the_shortcuts_are_served_from_this_site(console, three):
    body = inbox(console).content.decode()
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', body)
    assert "/static/vendor/htmx.min.js" in scripts
    assert "/static/js/inbox-keys.js" in scripts
    assert all(src.startswith("/static/") for src in scripts)
    assert finders.find("vendor/htmx.min.js") and finders.find("js/inbox-keys.js")
    with open(finders.find("vendor/htmx.min.js"), encoding="utf-8") as vendored:
        assert "Zero-Clause BSD" in vendored.readline()
    # The help overlay lists every shortcut.
    for key in ("j", "k", "o", "s", "m", "x", "?"):
        assert f"<kbd>{key}</kbd>" in body


def test_the_inbox_needs_a_login(client, db):
    response = client.get(reverse("inbox:index"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_saved_lists_an_item_once_at_its_latest_delivery(console, alice, now):
    run = deliver(alice, ["PostgreSQL twice"], now=now, redelivery="cooldown", cooldown_days=1)
    act(console, run.items.get(), "save")
    later = run_again(run.subscription, now=now + timedelta(days=2))
    assert len(titles(inbox(console))) == 2  # the Inbox shows both deliveries
    saved = inbox(console, "?show=saved").context["items"]
    assert [(item["title"], item["run_id"]) for item in saved] == [("PostgreSQL twice", later.pk)]
