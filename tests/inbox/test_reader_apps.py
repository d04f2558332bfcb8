"""Reading apps: the Google Reader API (/api/greader/) and Fever (/api/fever/), driven the way
the apps drive them, as the protocols are published (the request shapes libgreader, FreshRSS's
and Miniflux's tests send), not from our implementation. Alice syncs; Bob is another user whose
app must never reach her items."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from digests.models import SubscriptionSource
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.listing import InboxFilter, badge_counts, inbox_page
from inbox.models import ApiToken, UserContentState
from inbox.tokens import issue_token
from ingest.library.folders import create_folder, move_source
from ingest.library.sources import add_to_library
from ingest.models import Source
from tests.conftest import api_client_for
from tests.factories import add_item

BASE = "/api/greader/"
API = BASE + "reader/api/0/"
FEVER = "/api/fever/"
READING_LIST = "user/-/state/com.google/reading-list"
READ = "user/-/state/com.google/read"
STARRED = "user/-/state/com.google/starred"
LONG = "tag:google.com,2005:reader/item/"
BRIEFS = "feed/briefs"
BRIEFS_FEVER = 2**40  # the Briefs feed's Fever id; brief items' ids are 2**40 + the run's id


def deliver(user, now, name: str, interest: str, count: int, *, narrative: bool = False):
    """A brief of `count` items; with `narrative`, its narrative is an item of its own too."""
    for n in range(count):
        add_item(f"{interest} note {n}", now=now, age_hours=n + 1)
    subscription = create_subscription(
        user,
        {
            "name": name,
            "interests": [interest],
            "cron": "0 8 * * *",
            "narrative_enabled": narrative,
        },
        now=now,
    )
    return runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)


@pytest.fixture
def runs(alice, now):
    """Alice: a PostgreSQL brief of 4 items, then a Rust brief of 3 an hour later."""
    return deliver(alice, now, "PG", "PostgreSQL", 4), deliver(
        alice, now + timedelta(hours=1), "Rust", "Rust", 3
    )


def app_password(user) -> str:
    return issue_token(user, "NetNewsWire", ApiToken.Scope.READER)[1]


class GReader:
    """A Google Reader client as libgreader is one: ClientLogin, then GoogleLogin auth."""

    def __init__(self, email: str, password: str):
        self.http = Client()
        response = self.http.post(
            BASE + "accounts/ClientLogin", {"Email": email, "Passwd": password}
        )
        assert response.status_code == 200, response.content
        lines = dict(line.split("=", 1) for line in response.content.decode().split())
        self.headers = {"Authorization": f"GoogleLogin auth={lines['Auth']}"}
        self.token = self.get("token").content.decode()

    def get(self, path: str, params=None):
        return self.http.get(API + path, params or {}, headers=self.headers)

    def post(self, path: str, data):
        return self.http.post(API + path, {**data, "T": self.token}, headers=self.headers)

    def json(self, path: str, params=None):
        response = self.get(path, {"output": "json", **(params or {})})
        assert response.status_code == 200, response.content
        return response.json()

    def all_ids(self, **params) -> list[str]:
        """stream/items/ids, following the continuation."""
        ids, continuation = [], None
        while True:
            page = self.json(
                "stream/items/ids", {**params, **({"c": continuation} if continuation else {})}
            )
            ids += [ref["id"] for ref in page["itemRefs"]]
            continuation = page.get("continuation")
            if not continuation:
                return ids


def titles(body) -> list[str]:
    return [item["title"] for item in body["items"]]


def test_a_full_sync_ends_with_what_the_console_shows(client, alice, runs, now):
    pg, rust = runs
    password = app_password(alice)
    with time_machine.travel(now + timedelta(hours=2), tick=False):
        app = GReader("Alice@Example.com", password)
        assert len(app.token) == 57
        assert app.json("user-info")["userEmail"] == "alice@example.com"
        feeds = {s["title"]: s["id"] for s in app.json("subscription/list")["subscriptions"]}
        assert feeds == {
            "PG": f"feed/{pg.subscription_id}",
            "Rust": f"feed/{rust.subscription_id}",
            "Briefs": "feed/briefs",
        }
        assert {"id": STARRED} in app.json("tag/list")["tags"]
        counts = {c["id"]: c["count"] for c in app.json("unread-count")["unreadcounts"]}
        assert counts == {feeds["PG"]: 4, feeds["Rust"]: 3, READING_LIST: 7}

        # Unread ids, two at a time, newest first; then their contents by short id.
        unread = app.all_ids(s=READING_LIST, xt=READ, n=2)
        assert len(unread) == 7 == len(set(unread))
        body = app.post("stream/items/contents", {"i": unread})
        assert body.status_code == 200, body.content
        items = body.json()["items"]
        assert [item["id"] for item in items] == [f"{LONG}{int(i):016x}" for i in unread]
        assert titles(body.json())[:3] == ["Rust note 2", "Rust note 1", "Rust note 0"]
        first = items[0]
        assert first["origin"] == {
            "streamId": feeds["Rust"],
            "title": "Rust",
            "htmlUrl": f"http://testserver/subscriptions/{rust.subscription_id}/",
        }
        assert first["canonical"][0]["href"].startswith("https://")
        assert READ not in first["categories"] and STARRED not in first["categories"]

        # stream/contents with continuation walks the same items, oldest first with r=o.
        seen, continuation = [], ""
        while True:
            page = app.json(
                f"stream/contents/{READING_LIST}",
                {"n": 3, "r": "o", **({"c": continuation} if continuation else {})},
            )
            seen += titles(page)
            continuation = page.get("continuation")
            if not continuation:
                break
        assert seen == list(reversed(titles(body.json())))

        # Read one (long id), star another (short id), then mark PG read up to its delivery.
        rust_first, rust_second = items[0]["id"], unread[1]
        assert app.post("edit-tag", {"i": rust_first, "a": READ}).content == b"OK"
        assert app.post("edit-tag", {"i": rust_second, "a": STARRED}).content == b"OK"
        usec = int(pg.scheduled_at.timestamp() * 1_000_000)
        assert app.post("mark-all-as-read", {"s": feeds["PG"], "ts": usec}).content == b"OK"

        assert app.all_ids(s=READING_LIST, xt=READ) == [unread[1], unread[2]]
        assert app.all_ids(s=STARRED) == [rust_second]
        starred = app.json(f"stream/contents/{STARRED}")["items"]
        assert [i["title"] for i in starred] == ["Rust note 1"]
        assert STARRED in starred[0]["categories"]

    # The console's own services see the same state.
    assert badge_counts(alice).unread == 2 and badge_counts(alice).saved == 1
    unread_titles = [i.title for i in inbox_page(alice, InboxFilter(show="unread")).items]
    assert sorted(unread_titles) == ["Rust note 0", "Rust note 1"]
    client.force_login(alice)
    page = client.get("/inbox/?show=saved").content.decode()
    assert "Rust note 1" in page and "Rust note 2" not in page

    # Kept unread and unstar undo it.
    with time_machine.travel(now + timedelta(hours=3), tick=False):
        app.post("edit-tag", {"i": rust_first, "a": "user/-/state/com.google/kept-unread"})
        app.post("edit-tag", {"i": rust_second, "r": STARRED})
    assert badge_counts(alice).unread == 3 and badge_counts(alice).saved == 0


def test_mark_all_as_read_leaves_what_came_after_the_timestamp(alice, runs, now):
    pg, _rust = runs
    app = GReader("alice@example.com", app_password(alice))
    usec = int(pg.scheduled_at.timestamp() * 1_000_000)
    assert app.post("mark-all-as-read", {"s": READING_LIST, "ts": usec}).content == b"OK"
    assert badge_counts(alice).unread == 3
    assert app.post("mark-all-as-read", {"s": READING_LIST}).content == b"OK"
    assert badge_counts(alice).unread == 0


def test_ot_keeps_items_delivered_since_and_ids_work_in_user_id_form(alice, runs):
    pg, rust = runs
    app = GReader("alice@example.com", app_password(alice))
    since = int(rust.scheduled_at.timestamp())
    stream = f"user/{alice.pk}/state/com.google/reading-list"
    assert len(app.all_ids(s=stream, ot=since)) == 3
    assert len(app.all_ids(s=stream, nt=since)) == 4
    assert len(app.all_ids(s=f"feed/{pg.subscription_id}")) == 4


def test_another_users_items_are_invisible_through_both(alice, bob, runs, now):
    pg, _rust = runs
    deliver(bob, now, "Bob's", "Kernel", 2)
    alice_ids = [str(i) for i in pg.items.values_list("pk", flat=True)]
    app = GReader("bob@example.com", app_password(bob))
    assert len(app.all_ids(s=READING_LIST)) == 2
    assert app.all_ids(s=f"feed/{pg.subscription_id}") == []
    assert app.post("stream/items/contents", {"i": alice_ids}).json()["items"] == []
    refused = app.post("edit-tag", {"i": alice_ids[0], "a": READ})
    assert refused.status_code == 400 and b"Not items of your Inbox" in refused.content
    assert app.post("mark-all-as-read", {"s": f"feed/{pg.subscription_id}"}).content == b"OK"
    assert badge_counts(alice).unread == 7

    fever = FeverClient(bob, app_password(bob))
    assert len(fever("items")["items"]) == 2
    assert fever("items", with_ids=",".join(alice_ids))["items"] == []
    assert fever.call("mark", mark="item", **{"as": "read"}, id=alice_ids[0]).status_code == 400
    fever("mark", mark="feed", **{"as": "read"}, id=pg.subscription_id)
    assert badge_counts(alice).unread == 7
    assert not UserContentState.objects.filter(user=alice, read_at__isnull=False).exists()


def test_login_refuses_the_account_password_other_tokens_and_revoked_passwords(alice, runs):
    http = Client()
    login = BASE + "accounts/ClientLogin"
    account_password = {"Email": "alice@example.com", "Passwd": "correct horse battery staple"}
    assert http.post(login, account_password).status_code == 401
    write_token = issue_token(alice, "script")[1]
    assert (
        http.post(login, {"Email": "alice@example.com", "Passwd": write_token}).status_code == 401
    )
    password = app_password(alice)
    assert http.post(login, {"Email": "bob@example.com", "Passwd": password}).status_code == 401
    response = http.get(
        API + "user-info", headers={"Authorization": f"GoogleLogin auth={write_token}"}
    )
    assert response.status_code == 401 and response["X-Reader-Google-Bad-Token"] == "true"
    # An app password is no key to the JSON API.
    bearer = api_client_for(alice)
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {password}")
    assert bearer.get("/api/v1/inbox/items").status_code == 401
    ApiToken.objects.filter(scope=ApiToken.Scope.READER).update(revoked_at=runs[0].scheduled_at)
    assert http.post(login, {"Email": "alice@example.com", "Passwd": password}).status_code == 401


def test_wrong_passwords_are_throttled(alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    http = Client()
    guesses = [
        http.post(BASE + "accounts/ClientLogin", {"Email": "alice@example.com", "Passwd": "x"})
        for _ in range(4)
    ]
    assert [r.status_code for r in guesses] == [401, 401, 401, 429]
    assert int(guesses[-1]["Retry-After"]) > 0


def test_apps_share_the_api_request_allowance(alice, runs, settings):
    app = GReader("alice@example.com", app_password(alice))
    fever = FeverClient(alice, app_password(alice))
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "token": "3/min",
        },
    }
    # The app's login already asked for its token: two more requests fit in the minute.
    assert [app.get("user-info").status_code for _ in range(3)] == [200, 200, 429]
    assert int(app.get("user-info")["Retry-After"]) > 0
    assert [fever.call().status_code for _ in range(4)] == [200, 200, 200, 429]


MALFORMED = [
    ("stream/items/ids", {"s": READING_LIST, "n": "abc"}, "n:"),
    ("stream/items/ids", {"s": READING_LIST, "n": "0"}, "n:"),
    ("stream/items/ids", {"s": READING_LIST, "n": "99999999"}, "n:"),
    ("stream/items/ids", {"s": READING_LIST, "c": "x1"}, "c:"),
    ("stream/items/ids", {"s": READING_LIST, "ot": "-5"}, "ot:"),
    ("stream/items/ids", {"s": READING_LIST, "ot": "9" * 30}, "ot:"),
    ("stream/items/ids", {"s": READING_LIST, "r": "sideways"}, "r:"),
    ("stream/items/ids", {"s": "user/-/labels/news"}, "s:"),
    ("stream/items/ids", {}, "s:"),
    ("stream/items/ids", {"s": READING_LIST, "xt": "feed/x"}, "xt:"),
    ("stream/contents/feed/99999999999999999999999", {}, "s:"),
    ("stream/contents/feed/١", {}, "s:"),
    ("stream/items/contents", {}, "i:"),
    ("stream/items/contents", {"i": "tag:google.com,2005:reader/item/xyz"}, "i:"),
    ("stream/items/contents", {"i": "٣"}, "i:"),
]


@pytest.mark.parametrize(("path", "params", "field"), MALFORMED)
def test_malformed_reader_parameters_get_a_400_naming_them(alice, runs, path, params, field):
    app = GReader("alice@example.com", app_password(alice))
    response = app.get(path, params)
    assert response.status_code == 400, response.content
    assert response.content.decode().startswith(field)


def test_a_nul_character_is_refused_before_the_protocol_sees_it(alice, runs):
    app = GReader("alice@example.com", app_password(alice))
    response = app.get("stream/items/ids", {"s": "feed/\x00"})
    assert response.status_code == 400 and '"s"' in response.content.decode()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"i": "1", "a": "user/-/label/news"}, "a:"),
        ({"i": "1", "r": "user/-/state/com.google/like"}, "r:"),
        ({"i": "1"}, "a or r:"),
        ({"a": READ}, "i:"),
        ({"i": [str(n) for n in range(501)], "a": READ}, "i:"),
    ],
)
def test_malformed_edits_change_nothing(alice, runs, data, field):
    app = GReader("alice@example.com", app_password(alice))
    response = app.post("edit-tag", data)
    assert response.status_code == 400 and response.content.decode().startswith(field)
    assert badge_counts(alice).unread == 7
    assert app.post("mark-all-as-read", {"s": READING_LIST, "ts": "soon"}).status_code == 400
    assert badge_counts(alice).unread == 7


FEED_XML = """<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback news</title>
<link>http://localhost/</link><item><title>First post</title><link>http://localhost/1</link>
</item></channel></rss>"""


def test_quickadd_adds_a_source_to_the_library_as_the_console_does(alice, runs, fixture_server):
    app = GReader("alice@example.com", app_password(alice))
    url = fixture_server.add("/feed.xml", FEED_XML, content_type="application/rss+xml")
    response = app.post("subscription/quickadd", {"quickadd": url})
    assert response.status_code == 200, response.content
    assert response.json()["streamName"] == "Loopback news"
    assert list(alice.library.values_list("source__url", flat=True)) == [url]
    assert app.json("stream/items/ids", {"s": response.json()["streamId"]})["itemRefs"] == []
    again = app.post("subscription/edit", {"ac": "subscribe", "s": f"feed/{url}"})
    assert again.status_code == 200 and alice.library.count() == 1

    missing = app.post("subscription/quickadd", {"quickadd": fixture_server.url("/nothing")})
    assert missing.status_code == 400 and missing.content.decode().startswith("quickadd:")
    for data in ({"ac": "unsubscribe", "s": f"feed/{runs[0].subscription_id}"}, {"ac": "edit"}):
        refused = app.post("subscription/edit", data)
        assert refused.status_code == 400 and refused.content.decode().startswith("ac:")
    assert alice.library.count() == 1 and alice.subscriptions.count() == 2


def _queries(call, n: int) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert call(n).status_code == 200
    return len(captured.captured_queries)


def test_queries_per_page_do_not_grow_with_the_page(alice, now):
    """With briefs and folders too: a page costs the same whatever its length or place."""
    pg = deliver(alice, now, "PG", "PostgreSQL", 12, narrative=True)
    deliver(alice, now + timedelta(hours=1), "More", "PostgreSQL", 0, narrative=True)
    source = Source.objects.create(type="feed", config_hash="x", url="https://pg.example/")
    SubscriptionSource.objects.create(subscription_id=pg.subscription_id, source=source)
    folder = create_folder(alice, "Databases", now=now)
    move_source(alice, add_to_library(alice, source).pk, folder.pk)
    app = GReader("alice@example.com", app_password(alice))
    ids = app.all_ids(s=READING_LIST)
    assert len(ids) == 13
    fever = FeverClient(alice, app_password(alice))
    calls = {
        "ids": lambda n: app.get("stream/items/ids", {"s": READING_LIST, "n": n}),
        "ids after a brief": lambda n: app.get(
            "stream/items/ids", {"s": READING_LIST, "n": n, "c": ids[0]}
        ),
        "contents": lambda n: app.get(f"stream/contents/{READING_LIST}", {"n": n}),
        "label": lambda n: app.get("stream/contents/user/-/label/Databases", {"n": n}),
        "items": lambda n: app.post("stream/items/contents", {"i": ids[:n]}),
        "fever": lambda n: fever.call("items", with_ids=",".join(ids[:n])),
        "fever max_id": lambda n: fever.call("items", max_id=ids[0] + "0"),
    }
    for name, call in calls.items():
        call(1)  # warm: the first use of an app password records it (once a minute)
        small, large = _queries(call, 2), _queries(call, 12)
        assert small == large <= 7, (name, small, large)


class FeverClient:
    """A hand-rolled Fever client: POST api_key, ask with query flags."""

    def __init__(self, user, password: str):
        self.http = Client()
        self.key = hashlib.md5(f"{user.email}:{password}".encode()).hexdigest()  # noqa: S324

    def call(self, *flags, **params):
        query = "&".join(["api", *flags, *(f"{k}={v}" for k, v in params.items())])
        return self.http.post(f"{FEVER}?{query}", {"api_key": self.key})

    def __call__(self, *flags, **params) -> dict:
        response = self.call(*flags, **params)
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["api_version"] == 3 and body["auth"] == 1
        return body


def test_a_fever_client_syncs_and_marks(alice, runs, now):
    pg, rust = runs
    fever = FeverClient(alice, app_password(alice))
    assert fever()["auth"] == 1
    groups = fever("groups")
    feed_ids = {int(i) for i in groups["feeds_groups"][0]["feed_ids"].split(",")}
    assert feed_ids == {pg.subscription_id, rust.subscription_id, BRIEFS_FEVER}
    assert {f["title"] for f in fever("feeds")["feeds"]} == {"PG", "Rust", "Briefs"}

    unread = [int(i) for i in fever("unread_item_ids")["unread_item_ids"].split(",")]
    assert len(unread) == 7
    # Page forward with since_id, as Reeder does, then back with max_id.
    seen, since = [], 0
    while page := fever("items", since_id=since)["items"]:
        seen += [item["id"] for item in page]
        since = page[-1]["id"]
    assert seen == sorted(unread)
    assert [i["id"] for i in fever("items", max_id=seen[-1])["items"]] == seen[-2::-1]
    item = fever("items", with_ids=seen[0])["items"][0]
    assert (item["feed_id"], item["is_read"], item["is_saved"]) == (pg.subscription_id, 0, 0)
    assert fever("items")["total_items"] == 7

    with time_machine.travel(now + timedelta(hours=2), tick=False):
        fever("mark", mark="item", **{"as": "read"}, id=seen[0])
        fever("mark", mark="item", **{"as": "saved"}, id=seen[1])
        fever("mark", mark="feed", **{"as": "read"}, id=rust.subscription_id)
    assert fever("saved_item_ids")["saved_item_ids"] == str(seen[1])
    assert badge_counts(alice).unread == 3 and badge_counts(alice).saved == 1
    assert fever("items", with_ids=seen[1])["items"][0]["is_saved"] == 1

    # The whole group, but only what was delivered before the PG brief's time + 1 s.
    before = int(pg.scheduled_at.timestamp()) + 1
    fever("mark", mark="group", **{"as": "read"}, id=1, before=before)
    assert fever("unread_item_ids")["unread_item_ids"] == ""
    fever("mark", mark="item", **{"as": "unread"}, id=seen[0])
    assert fever("unread_item_ids")["unread_item_ids"] == str(seen[0])


def test_fever_refuses_a_wrong_key_with_auth_0_and_bad_parameters_with_400(alice, runs):
    bad = Client().post(f"{FEVER}?api&items", {"api_key": "0" * 32})
    assert bad.status_code == 200 and bad.json() == {"api_version": 3, "auth": 0}
    fever = FeverClient(alice, app_password(alice))
    for flags, params, field in [
        (["items"], {"since_id": "abc"}, "since_id:"),
        (["items"], {"max_id": "-1"}, "max_id:"),
        (["items"], {"with_ids": "1,a"}, "with_ids:"),
        (["items"], {"with_ids": ",".join(["1"] * 51)}, "with_ids:"),
        (["mark"], {"mark": "item", "as": "liked", "id": "1"}, "as:"),
        (["mark"], {"mark": "feed", "as": "read", "id": "x"}, "id:"),
        (["mark"], {"mark": "feed", "as": "read", "id": "1", "before": "x"}, "before:"),
        (["mark"], {"mark": "kindling", "as": "read", "id": "1"}, "mark:"),
    ]:
        response = fever.call(*flags, **params)
        assert response.status_code == 400, (params, response.content)
        assert response.json()["error"].startswith(field)
    assert badge_counts(alice).unread == 7


def test_create_app_password_prints_one_that_logs_in(alice, runs, capsys):
    call_command("create_app_password", "alice@example.com")
    password = capsys.readouterr().out.strip().splitlines()[-1]
    assert GReader("alice@example.com", password).json("user-info")["userId"] == str(alice.pk)


def test_an_app_password_made_on_the_tokens_page_logs_in(client, alice, runs):
    client.force_login(alice)
    page = client.post("/inbox/tokens/", {"name": "Reeder", "scope": "reader"})
    text = page.content.decode()
    assert "http://testserver/api/greader/" in text
    password = next(w for w in text.split('"') if w.startswith("tid_") and len(w) > 30)
    assert GReader("alice@example.com", password).json("user-info")["userEmail"] == alice.email
    assert FeverClient(alice, password)("unread_item_ids")["unread_item_ids"].count(",") == 6
