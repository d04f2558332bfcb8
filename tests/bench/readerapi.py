"""`readerapi`: a reading app's sync of a 10,000-item Inbox through the Google Reader API and
Fever, against reading the same items through our JSON API.

Data: tests/bench/inbox.py's: one user, 5 subscriptions, 500 runs of 20 items (30 % read,
5 % saved, 2 % not interested), plus other users so the tables are not the user's alone.

Flows, each through the whole Django stack with the test client (server time, no network):
- greader first sync (as NetNewsWire / ReadYou do it): ClientLogin, subscription/list,
  unread-count, then stream/items/ids of the reading list in pages of 250 (continuation), then
  stream/items/contents of those ids, 250 per request;
- greader incremental sync, after one more brief of 20 items: ids delivered since the first
  sync (ot), their contents, the unread ids and the starred ids;
- fever first sync: unread_item_ids, saved_item_ids, then items in pages of 50 (since_id),
  then the unread ids the walk did not bring (the briefs) by with_ids, 50 a request;
Every run has a narrative, so the reading apps get one more item per brief (500 at full size)
than the JSON API's item list.
- baseline: the JSON API's /api/v1/inbox/items, every page of 100 (its maximum), the same
  user and items.
Each request's queries are counted; a page's count must not depend on where it is (checks).
ratio = greader first sync ÷ JSON API walk.

Sizes (tests/bench/sizes.py): full = 10,000 items + 20 other users × 1,000; small = 2,000 +
5 × 500; smoke = 500 + 2 × 100.
"""

from __future__ import annotations

import hashlib
import time
from datetime import timedelta

from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext

from digests.models import Run
from inbox.listing import InboxFilter, filtered_items
from inbox.models import ApiToken
from inbox.readerapi.briefs import BASE as BRIEF_BASE
from inbox.tokens import issue_token
from tests.bench.inbox import ITEMS, NOW, OTHER_ITEMS, OTHER_USERS, PER_RUN, _deliver, _user

PAGE = 250
API = "/api/greader/reader/api/0/"
READING_LIST = "user/-/state/com.google/reading-list"


def _records_token_use(sql: str) -> bool:
    return sql.startswith('UPDATE "inbox_apitoken"')


class Meter:
    """Requests with their server time and query count, grouped by kind."""

    def __init__(self):
        self.seconds = 0.0
        self.queries: dict[str, set[int]] = {}
        self.requests = 0

    def __call__(self, kind: str, send):
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = send()
            self.seconds += time.perf_counter() - started
        assert response.status_code == 200, (kind, response.content[:300])
        # The app password's last use is recorded once a minute (inbox.tokens): a walk longer
        # than that meets it on some page, which is not that page's cost.
        queries = [q for q in captured.captured_queries if not _records_token_use(q["sql"])]
        self.queries.setdefault(kind, set()).add(len(queries))
        self.requests += 1
        return response

    def figures(self) -> dict:
        return {
            "seconds": round(self.seconds, 3),
            "requests": self.requests,
            "queries_per_request": {k: sorted(v) for k, v in self.queries.items()},
        }


def _greader_ids(meter, client, headers, **params) -> list[str]:
    ids, continuation = [], None
    while True:
        query = {"s": READING_LIST, "n": PAGE, **params}
        if continuation:
            query["c"] = continuation
        page = meter(
            "ids", lambda q=query: client.get(API + "stream/items/ids", q, headers=headers)
        )
        body = page.json()
        ids += [ref["id"] for ref in body["itemRefs"]]
        continuation = body.get("continuation")
        if not continuation:
            return ids


def _greader_contents(meter, client, headers, ids: list[str]) -> int:
    count = 0
    for start in range(0, len(ids), PAGE):
        batch = ids[start : start + PAGE]
        # A batch of briefs only has no Inbox item states to read: one query fewer.
        only_briefs = all(int(i) >= BRIEF_BASE for i in batch)
        response = meter(
            "contents (briefs only)" if only_briefs else "contents",
            lambda b=batch: client.post(API + "stream/items/contents", {"i": b}, headers=headers),
        )
        count += len(response.json()["items"])
    return count


def _greader_first(user, password: str) -> tuple[dict, int]:
    meter, client = Meter(), Client()
    login = meter(
        "login",
        lambda: client.post(
            "/api/greader/accounts/ClientLogin", {"Email": user.email, "Passwd": password}
        ),
    )
    auth = login.content.decode().split("Auth=")[1].strip()
    headers = {"Authorization": f"GoogleLogin auth={auth}"}
    meter("subscriptions", lambda: client.get(API + "subscription/list", headers=headers))
    meter("unread-count", lambda: client.get(API + "unread-count", headers=headers))
    ids = _greader_ids(meter, client, headers)
    fetched = _greader_contents(meter, client, headers, ids)
    return meter.figures(), fetched, headers


def _greader_incremental(headers, since) -> dict:
    meter, client = Meter(), Client()
    new = _greader_ids(meter, client, headers, ot=int(since.timestamp()))
    _greader_contents(meter, client, headers, new)
    unread = _greader_ids(meter, client, headers, n=10_000, xt="user/-/state/com.google/read")
    _greader_ids(meter, client, headers, s="user/-/state/com.google/starred", n=10_000)
    return {**meter.figures(), "new_items": len(new), "unread_ids": len(unread)}


def _fever_first(user, password: str) -> tuple[dict, int]:
    meter, client = Meter(), Client()
    key = hashlib.md5(f"{user.email}:{password}".encode(), usedforsecurity=False).hexdigest()

    def call(query):
        return client.post(f"/api/fever/?api&{query}", {"api_key": key})

    unread = meter("unread_item_ids", lambda: call("unread_item_ids"))
    unread_ids = unread.json()["unread_item_ids"].split(",")
    meter("saved_item_ids", lambda: call("saved_item_ids"))
    since, seen = 0, set()
    while True:
        response = call(f"items&since_id={since}")  # a full page, measured again below
        items = response.json()["items"]
        if not items:  # the empty last page skips the states query: not counted as a page
            break
        meter("items", lambda s=since: call(f"items&since_id={s}"))
        seen |= {str(item["id"]) for item in items}
        since = items[-1]["id"]
    missing = [i for i in unread_ids if i not in seen]
    for start in range(0, len(missing), 50):
        batch = ",".join(missing[start : start + 50])
        response = meter("with_ids", lambda b=batch: call(f"items&with_ids={b}"))
        seen |= {str(item["id"]) for item in response.json()["items"]}
    return meter.figures(), len(seen)


def _json_api(user) -> tuple[dict, int]:
    meter, client = Meter(), Client()
    token = issue_token(user, "bench")[1]
    headers = {"Authorization": f"Bearer {token}"}
    url, fetched = "/api/v1/inbox/items?limit=100", 0
    while url:
        body = meter("page", lambda u=url: client.get(u, headers=headers)).json()
        fetched += len(body["results"])
        url = body["next"]
    return meter.figures(), fetched


def run(size: str = "full") -> dict:
    items = ITEMS[size]
    started = time.perf_counter()
    reader = _user(0)
    _deliver(reader, items, 0)
    for n in range(1, OTHER_USERS[size] + 1):
        _deliver(_user(n), OTHER_ITEMS[size], n * 100_000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    setup_seconds = time.perf_counter() - started
    password = issue_token(reader, "bench app", ApiToken.Scope.READER)[1]

    baseline, baseline_items = _json_api(reader)
    first, first_items, headers = _greader_first(reader, password)
    fever, fever_items = _fever_first(reader, password)
    # One more brief, delivered after the first sync, for the incremental one; its items'
    # URLs start past every other user's (user n's start at n × 100,000).
    (later,) = _deliver(reader, PER_RUN, (OTHER_USERS[size] + 1) * 100_000)
    Run.objects.filter(pk=later.pk).update(
        scheduled_at=NOW + timedelta(hours=1), finished_at=NOW + timedelta(hours=1)
    )
    later.items.update(delivered_at=NOW + timedelta(hours=1))
    new_visible = filtered_items(reader, InboxFilter(run_id=later.pk)).count() + 1  # its brief
    incremental = _greader_incremental(headers, NOW + timedelta(minutes=30))

    brief_count = Run.objects.filter(user=reader).exclude(narrative_md="").count() - 1

    def constant(figures, kinds):
        counts = figures["queries_per_request"]
        return all(len(counts.get(k, [0])) == 1 for k in kinds)

    return {
        "name": "readerapi",
        "database": connection.vendor,
        "size": size,
        "items": items,
        "setup_seconds": round(setup_seconds, 1),
        "greader_first": first,
        "greader_first_items": first_items,
        "greader_incremental": incremental,
        "fever_first": fever,
        "fever_items": fever_items,
        "json_api": baseline,
        "json_api_items": baseline_items,
        "briefs": brief_count,
        "ratio": round(first["seconds"] / baseline["seconds"], 2),
        "checks": {
            "the first sync fetched every visible item and brief": first_items
            == baseline_items + brief_count,
            "fever fetched every visible item and brief": fever_items
            == baseline_items + brief_count,
            "the incremental sync found the new brief": incremental["new_items"] == new_visible,
            "queries per page constant (greader ids, contents)": constant(
                first, ["ids", "contents", "contents (briefs only)"]
            ),
            "queries per page constant (fever items, with_ids)": constant(
                fever, ["items", "with_ids"]
            ),
        },
    }


def describe(result: dict) -> list[str]:
    def line(name, figures, items):
        per = ", ".join(f"{k} {v}" for k, v in figures["queries_per_request"].items())
        return (
            f"  {name:<20} {figures['seconds']:>7.2f} s  {figures['requests']:>4} requests  "
            f"{items:>6} items  queries per request: {per}"
        )

    inc = result["greader_incremental"]
    return [
        f"readerapi benchmark on {result['database']} ({result['size']}): a reading app's sync "
        f"of {result['items']:,} delivered items (set-up {result['setup_seconds']} s); "
        f"pages of {PAGE} (Fever: 50, JSON API: 100), server time through the test client; "
        f"the apps also get {result['briefs']:,} briefs as items",
        line("greader first sync", result["greader_first"], result["greader_first_items"]),
        line("greader incremental", inc, inc["new_items"]),
        line("fever first sync", result["fever_first"], result["fever_items"]),
        line("JSON API (baseline)", result["json_api"], result["json_api_items"]),
        f"  ratio (greader first sync ÷ JSON API walk of the same items): {result['ratio']}",
    ]
