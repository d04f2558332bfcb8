"""Each brief's narrative as one item in the reading apps, in a feed "Briefs": listed, synced,
read and starred through the Google Reader API and Fever, and only by its reader."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from digests.models import Run
from digests.narrative.markdown import render
from inbox.listing import badge_counts
from tests.inbox.test_reader_apps import (
    LONG,
    READ,
    READING_LIST,
    STARRED,
    FeverClient,
    GReader,
    app_password,
    deliver,
)

BRIEFS = "feed/briefs"
BASE = 2**40


@pytest.fixture
def briefs(alice, now):
    """Alice: a PG brief of 4 items, then a Rust brief of 3 an hour later, both narrated."""
    pg = deliver(alice, now, "PG", "PostgreSQL", 4, narrative=True)
    rust = deliver(alice, now + timedelta(hours=1), "Rust", "Rust", 3, narrative=True)
    assert pg.narrative_md and rust.narrative_md
    return pg, rust


def brief_id(run) -> int:
    return BASE + run.pk


def test_each_brief_is_an_item_of_the_briefs_feed(alice, briefs):
    pg, rust = briefs
    app = GReader("alice@example.com", app_password(alice))
    feeds = {s["id"]: s["title"] for s in app.json("subscription/list")["subscriptions"]}
    assert feeds[BRIEFS] == "Briefs"
    counts = {c["id"]: c["count"] for c in app.json("unread-count")["unreadcounts"]}
    assert counts[BRIEFS] == 2 and counts[READING_LIST] == 9

    assert app.all_ids(s=BRIEFS) == [str(brief_id(rust)), str(brief_id(pg))]
    body = app.json(f"stream/contents/{BRIEFS}")
    assert [i["id"] for i in body["items"]] == [
        f"{LONG}{brief_id(rust):016x}",
        f"{LONG}{brief_id(pg):016x}",
    ]
    item = body["items"][0]
    assert item["title"].startswith("Rust · ")
    assert str(render(rust.narrative_md)) in item["summary"]["content"]
    assert item["canonical"][0]["href"] == f"http://testserver/inbox/runs/{rust.pk}/"
    assert item["origin"]["streamId"] == BRIEFS and READ not in item["categories"]
    assert app.all_ids(s=f"feed/{pg.subscription_id}") == [
        str(pk) for pk in pg.items.order_by("-pk").values_list("pk", flat=True)
    ]


@pytest.mark.parametrize("order", [{}, {"r": "o"}])
def test_the_reading_list_walks_briefs_and_items_once_each(alice, briefs, order):
    pg, rust = briefs
    app = GReader("alice@example.com", app_password(alice))
    expected = {str(brief_id(pg)), str(brief_id(rust))}
    expected |= {str(pk) for run in briefs for pk in run.items.values_list("pk", flat=True)}
    for n in (1, 2, 4, 20):
        walked = app.all_ids(s=READING_LIST, n=n, **order)
        assert len(walked) == 9 and set(walked) == expected, n
    contents, continuation = [], None
    while True:
        page = app.json(
            f"stream/contents/{READING_LIST}",
            {"n": 2, **order, **({"c": continuation} if continuation else {})},
        )
        contents += [i["id"] for i in page["items"]]
        if not (continuation := page.get("continuation")):
            break
    assert len(set(contents)) == 9


def test_a_brief_is_read_starred_and_marked_in_the_app(alice, bob, briefs, now):
    pg, rust = briefs
    app = GReader("alice@example.com", app_password(alice))
    with time_machine.travel(now + timedelta(hours=2), tick=False):
        assert app.post("edit-tag", {"i": f"{LONG}{brief_id(pg):016x}", "a": READ}).content == b"OK"
        assert app.post("edit-tag", {"i": str(brief_id(rust)), "a": STARRED}).content == b"OK"
    pg.refresh_from_db()
    assert pg.narrative_read_at == now + timedelta(hours=2)
    assert app.all_ids(s=BRIEFS, xt=READ) == [str(brief_id(rust))]
    assert app.all_ids(s=STARRED) == [str(brief_id(rust))]
    assert STARRED in app.json(f"stream/contents/{STARRED}")["items"][0]["categories"]
    # The items' own states are untouched by the briefs'.
    assert badge_counts(alice).unread == 7 and badge_counts(alice).saved == 0

    app.post("edit-tag", {"i": str(brief_id(pg)), "a": "user/-/state/com.google/kept-unread"})
    app.post("edit-tag", {"i": str(brief_id(rust)), "r": STARRED})
    assert app.all_ids(s=STARRED) == [] and len(app.all_ids(s=BRIEFS, xt=READ)) == 2

    assert app.post("mark-all-as-read", {"s": BRIEFS}).content == b"OK"
    assert app.all_ids(s=BRIEFS, xt=READ) == [] and badge_counts(alice).unread == 7
    assert len(app.all_ids(s=READING_LIST, xt=READ)) == 7

    # Bob's app can neither read nor mark Alice's briefs.
    bobs = GReader("bob@example.com", app_password(bob))
    assert bobs.post("stream/items/contents", {"i": str(brief_id(pg))}).json()["items"] == []
    refused = bobs.post(
        "edit-tag", {"i": str(brief_id(pg)), "a": "user/-/state/com.google/kept-unread"}
    )
    assert refused.status_code == 400 and refused.content.decode().startswith("i:")
    assert Run.objects.filter(narrative_read_at__isnull=True).count() == 0


def test_a_refused_edit_changes_neither_items_nor_briefs(alice, bob, briefs):
    pg, _rust = briefs
    bob_run = deliver(bob, pg.scheduled_at, "Bob's", "Kernel", 1, narrative=True)
    app = GReader("alice@example.com", app_password(alice))
    item = str(pg.items.first().pk)
    refused = app.post("edit-tag", {"i": [item, str(brief_id(bob_run))], "a": READ})
    assert refused.status_code == 400
    assert badge_counts(alice).unread == 7
    assert not Run.objects.filter(narrative_read_at__isnull=False).exists()


def test_a_fever_client_gets_and_marks_briefs(alice, briefs):
    pg, rust = briefs
    fever = FeverClient(alice, app_password(alice))
    assert {"id": BASE, "title": "Briefs"}.items() <= fever("feeds")["feeds"][-1].items()
    unread = [int(i) for i in fever("unread_item_ids")["unread_item_ids"].split(",")]
    assert unread[-2:] == [brief_id(pg), brief_id(rust)] and len(unread) == 9

    # A since_id walk keeps to items (briefs' ids would end it); with_ids and max_id serve briefs.
    seen, since = [], 0
    while page := fever("items", since_id=since)["items"]:
        seen += [item["id"] for item in page]
        since = page[-1]["id"]
    assert len(seen) == 7 and since < BASE
    missing = ",".join(str(i) for i in unread if i not in seen)
    fetched = fever("items", with_ids=missing)["items"]
    assert [(i["id"], i["feed_id"], i["is_read"]) for i in fetched] == [
        (brief_id(pg), BASE, 0),
        (brief_id(rust), BASE, 0),
    ]
    assert str(render(pg.narrative_md)) in fetched[0]["html"]
    newest = fever("items", max_id=2 * BASE)["items"]
    assert [i["id"] for i in newest][:3] == [brief_id(rust), brief_id(pg), seen[-1]]
    assert fever("items")["total_items"] == 9

    fever("mark", mark="item", **{"as": "read"}, id=brief_id(pg))
    fever("mark", mark="item", **{"as": "saved"}, id=brief_id(rust))
    assert fever("saved_item_ids")["saved_item_ids"] == str(brief_id(rust))
    fever("mark", mark="feed", **{"as": "read"}, id=BASE)
    assert fever("unread_item_ids")["unread_item_ids"].count(",") == 6
    assert badge_counts(alice).unread == 7
    refused = fever.call("mark", mark="item", **{"as": "read"}, id=BASE + 10**6)
    assert refused.status_code == 400 and refused.json()["error"].startswith("id:")


def test_fever_item_pages_keep_the_protocols_id_rules_with_briefs_in_them(alice, briefs):
    """Fever: `since_id` gives ids above it, ascending; `max_id` ids below it, descending, and
    0 "initially" (the newest); `with_ids` those ids. Briefs' ids (2**40 + the run's) are above
    every item's, so a `since_id` below them walks the items only: a brief in that walk would
    move the client's highest id past every item delivered later. A `since_id` that is a
    brief's (a client that keeps the highest id it got from `with_ids`) walks the newer
    briefs, never nothing."""
    fever = FeverClient(alice, app_password(alice))

    def ids(**query) -> list[int]:
        return [item["id"] for item in fever("items", **query)["items"]]

    everything = sorted(int(i) for i in fever("unread_item_ids")["unread_item_ids"].split(","))
    items = [i for i in everything if i < BASE]
    brief_ids = [i for i in everything if i >= BASE]
    assert len(items) == 7 and brief_ids == [brief_id(run) for run in briefs]

    assert ids() == items  # no argument: the oldest, as since_id=0
    for since in [0, *items, BASE - 1, BASE, *brief_ids, 2 * BASE]:
        got = ids(since_id=since)
        assert got == sorted(got) and all(i > since for i in got), since
        below_briefs = since < BASE
        assert got == [i for i in (items if below_briefs else brief_ids) if i > since], since

    for before in [0, *everything, BASE, 2 * BASE]:
        got = ids(max_id=before)
        assert got == [i for i in reversed(everything) if not before or i < before], before

    for wanted in [everything[:2], brief_ids, [items[3], brief_ids[1]], everything]:
        assert ids(with_ids=",".join(map(str, wanted))) == sorted(wanted)


def test_reading_a_brief_on_its_page_marks_it_read_in_the_apps(client, alice, bob, briefs, now):
    pg, rust = briefs
    app = GReader("alice@example.com", app_password(alice))
    assert len(app.all_ids(s=BRIEFS, xt=READ)) == 2

    # Bob cannot open Alice's brief, and trying reads nothing for her.
    client.force_login(bob)
    assert client.get(f"/inbox/runs/{pg.pk}/").status_code == 404
    assert app.all_ids(s=BRIEFS, xt=READ) == [str(brief_id(rust)), str(brief_id(pg))]

    client.force_login(alice)
    opened = now + timedelta(hours=3)
    with time_machine.travel(opened, tick=False):
        assert client.get(f"/inbox/runs/{pg.pk}/").status_code == 200
    assert app.all_ids(s=BRIEFS, xt=READ) == [str(brief_id(rust))]
    fever = FeverClient(alice, app_password(alice))
    assert str(brief_id(pg)) not in fever("unread_item_ids")["unread_item_ids"].split(",")
    # A second visit keeps the first reading's time; the brief's items stay unread.
    with time_machine.travel(opened + timedelta(days=1), tick=False):
        client.get(f"/inbox/runs/{pg.pk}/")
    pg.refresh_from_db()
    assert pg.narrative_read_at == opened
    assert badge_counts(alice).unread == 7
