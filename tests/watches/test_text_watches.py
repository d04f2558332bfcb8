"""Text-change watches (watches/): a page served on loopback changes step by step, and the
reader hears about exactly the changes that matter to them — once each, with a diff."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from digests.models import Run, RunItem
from digests.textwatch import service
from digests.textwatch.models import HISTORY_LIMIT, TextSnapshot, TextWatch
from tests.conftest import api_client_for

HOUR = timedelta(hours=1)
CSS = "text/html; charset=utf-8"


def page(price="19.99", news=("Shipping is free.",), footer="Updated 3 minutes ago"):
    items = "".join(f"<li>{n}</li>" for n in news)
    return f"""<html><head><title>Shop</title><script>var t = {time.time()};</script></head>
    <body><nav>Home | Cart</nav>
    <div id="price"><span>Price:</span> <b>${price}</b></div>
    <ul class="news">{items}</ul>
    <p class="footer">{footer}</p></body></html>"""


def items_of(user):
    return list(RunItem.objects.filter(run__user=user).order_by("run__scheduled_at"))


@pytest.fixture
def serve(fixture_server):
    def serve_(html, path="/shop"):
        return fixture_server.add(path, html, Content_Type=CSS)

    return serve_


def watch_of(alice, url, now, **settings):
    return service.add_watch(alice, {"url": url, "name": "Shop", **settings}, now=now)


def test_a_text_edit_reaches_the_inbox_once_with_its_diff(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    assert items_of(alice) == []  # the first text is the baseline

    serve(page(news=("Shipping is free over $50.",)))
    outcome = service.check_watch(watch, now=now + HOUR)
    assert outcome.changed and outcome.notified
    [item] = items_of(alice)
    assert item.title == "Changed: Shop"
    assert "− Shipping is free." in item.summary
    assert "+ Shipping is free over $50." in item.summary
    html = str(outcome.diff.as_html())
    # Word-level highlights: only the words that changed are marked.
    assert "Shipping is <del>free.</del>" in html
    assert "Shipping is <ins>free over $50.</ins>" in html

    # The same text again (a retried check, the next tick): nothing new is stored or told.
    again = service.check_watch(watch, now=now + 2 * HOUR)
    assert again.ok and not again.changed
    assert len(items_of(alice)) == 1
    assert TextSnapshot.objects.filter(watch=watch).count() == 2


def test_script_and_whitespace_churn_is_not_a_change(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    serve(page().replace("<b>", "\n\n   <b>"))  # re-indented markup, a new script timestamp
    assert not service.check_watch(watch, now=now + HOUR).changed


def test_a_change_outside_the_selected_part_is_ignored(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    serve(page(news=("Something else entirely",), footer="Updated just now"))
    assert not service.check_watch(watch, now=now + HOUR).changed
    serve(page(price="17.49"))
    outcome = service.check_watch(watch, now=now + 2 * HOUR)
    assert outcome.notified
    summary = items_of(alice)[0].summary
    assert summary.startswith("− Price: $19.99\n+ Price: $17.49\n\nAll changes: http")
    assert summary.endswith(f"/watches/{watch.pk}/")  # the full history view


def test_xpath_picks_a_part_too(serve, alice, now):
    url = serve(page())
    # Relative paths inside predicates are fine.
    relative = "//div[@id='price' and .//b]/b"
    assert (
        service.preview({"url": url, "selector_kind": "xpath", "selector": relative})["text"]
        == "$19.99"
    )
    watch = watch_of(alice, url, now, selector_kind="xpath", selector="//ul[@class='news']")
    assert watch.snapshots.get().text == "Shipping is free."


def test_ignore_rules_drop_lines_and_numbers(serve, alice, now):
    url = serve(page())
    watch = watch_of(
        alice, url, now, ignore_text=["updated"], ignore_regex=[r"^Home\b"], ignore_numbers=True
    )
    serve(page(price="21.00", footer="Updated 9 minutes ago").replace("Home", "Home (2)"))
    assert not service.check_watch(watch, now=now + HOUR).changed  # all three ignored
    serve(page(price="21.00", news=("Shipping costs $5.",)))
    assert service.check_watch(watch, now=now + 2 * HOUR).notified


def test_a_reorder_is_a_change_shown_as_moved_lines(serve, alice, now):
    url = serve(page(news=("A", "B", "C")))
    watch = watch_of(alice, url, now, selector_kind="css", selector="ul.news")
    serve(page(news=("C", "A", "B")))
    outcome = service.check_watch(watch, now=now + HOUR)
    assert outcome.notified
    assert "+ C" in items_of(alice)[0].summary and "− C" in items_of(alice)[0].summary


def test_trigger_text_appears_tells_only_when_it_appears(serve, alice, now):
    url = serve(page(news=("Sold out",)))
    watch = watch_of(alice, url, now, trigger="appears", trigger_text="in stock")
    serve(page(news=("Sold out until May",)))
    outcome = service.check_watch(watch, now=now + HOUR)
    assert outcome.changed and not outcome.notified  # stored in the history, not told
    serve(page(news=("Back IN STOCK",)))
    assert service.check_watch(watch, now=now + 2 * HOUR).notified
    assert len(items_of(alice)) == 1


def test_trigger_number_below_tells_when_the_price_crosses(serve, alice, now):
    url = serve(page(price="1,299.00"))
    watch = watch_of(
        alice, url, now, selector_kind="css", selector="#price b", trigger="below",
        trigger_number="1000",
    )  # fmt: skip
    serve(page(price="1,099.00"))
    assert not service.check_watch(watch, now=now + HOUR).notified
    serve(page(price="999.00"))
    assert service.check_watch(watch, now=now + 2 * HOUR).notified
    serve(page(price="949.00"))  # still below: already told
    assert not service.check_watch(watch, now=now + 3 * HOUR).notified


def test_a_check_killed_before_commit_tells_the_change_once(serve, alice, now, monkeypatch):
    url = serve(page())
    watch = watch_of(alice, url, now)
    serve(page(price="5.00"))

    def killed(*args, **kwargs):
        raise SystemExit("worker killed")

    monkeypatch.setattr("digests.delivery.service.plan_for_run", killed)
    with pytest.raises(SystemExit):
        service.check_watch(watch, now=now + HOUR)
    assert items_of(alice) == [] and watch.snapshots.count() == 1  # nothing half-written
    monkeypatch.undo()
    assert service.check_watch(watch, now=now + 2 * HOUR).notified
    assert not service.check_watch(watch, now=now + 3 * HOUR).changed
    assert len(items_of(alice)) == 1


def test_the_history_is_bounded(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    for step in range(HISTORY_LIMIT + 3):
        serve(page(price=f"{step}.00"))
        service.check_watch(watch, now=now + (step + 1) * HOUR)
    assert watch.snapshots.count() == HISTORY_LIMIT
    assert watch.snapshots.first().text == f"Price: ${HISTORY_LIMIT + 2}.00"


def test_repeated_errors_set_error_status_and_tell_the_owner_once(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    watch.url = url.replace("/shop", "/missing")
    watch.save(update_fields=["url"])
    for hour in range(1, 6):
        outcome = service.check_watch(watch, now=now + hour * HOUR)
        assert not outcome.ok
    watch.refresh_from_db()
    assert watch.status == TextWatch.Status.ERROR and watch.error_count == 5
    [notice] = items_of(alice)
    assert notice.title == "Watch failing: Shop" and "404" in notice.summary

    watch.url = url
    watch.save(update_fields=["url"])
    assert service.check_watch(watch, now=now + 6 * HOUR).ok
    watch.refresh_from_db()
    assert (watch.status, watch.error_count, watch.error_notified_at) == ("active", 0, None)


def test_due_checks_follow_the_injected_clock_and_start_end(serve, alice, now):
    url = serve(page())
    watch = watch_of(
        alice, url, now, check_interval_minutes=60, start_at=now + 3 * HOUR,
        end_at=now + 6 * HOUR,
    )  # fmt: skip
    assert watch.next_check_at == now + 4 * HOUR
    assert service.due_ids(now=now + 3 * HOUR) == []
    serve(page(price="1.00"))
    [outcome] = service.check_due(now=now + 4 * HOUR)
    assert outcome.notified
    assert service.check_due(now=now + 4 * HOUR) == []  # claimed: not twice
    watch.refresh_from_db()
    assert watch.next_check_at == now + 5 * HOUR
    service.check_due(now=now + 5 * HOUR)
    assert service.check_due(now=now + 6 * HOUR) == []
    watch.refresh_from_db()
    assert watch.status == TextWatch.Status.COMPLETED
    assert Run.objects.filter(user=alice).count() == 1


@pytest.mark.parametrize(
    ("field", "settings"),
    [
        ("ignore_regex", {"ignore_regex": ["(a+)+$"]}),
        ("ignore_regex", {"ignore_regex": ["(a|aa)+$"]}),
        ("ignore_regex", {"ignore_regex": [r"(\w+\s?)+$"]}),
        ("ignore_regex", {"ignore_regex": ["(unclosed"]}),
        ("selector", {"selector_kind": "css", "selector": "div[[["}),
        ("selector", {"selector_kind": "xpath", "selector": "//div[("}),
        ("selector", {"selector_kind": "xpath", "selector": "document('http://x/')"}),
        ("selector", {"selector_kind": "css", "selector": "#nothing-here"}),
        ("selector", {"selector_kind": "xpath", "selector": "//*[count(//*) > 0]"}),
        ("selector", {"selector_kind": "xpath", "selector": "//a[b[c[d]]]"}),
        ("selector_kind", {"selector_kind": "jquery", "selector": "div"}),
        ("trigger_number", {"trigger": "above", "trigger_number": "lots"}),
        ("trigger_text", {"trigger": "appears"}),
        ("check_interval_minutes", {"check_interval_minutes": 1}),
    ],
)
def test_hostile_or_bad_settings_are_refused_quickly_and_write_nothing(
    serve, alice, now, field, settings
):
    url = serve(page())
    started = time.perf_counter()
    with pytest.raises(service.WatchError) as refused:
        watch_of(alice, url, now, **settings)
    assert time.perf_counter() - started < 3
    assert field in refused.value.errors
    assert not TextWatch.objects.exists() and not Run.objects.exists()


def test_a_private_address_is_refused(alice, now):
    with pytest.raises(service.WatchError) as refused:
        watch_of(alice, "http://127.0.0.1:9/", now)
    assert "url" in refused.value.errors


# --- API ---------------------------------------------------------------------------------------


def test_api_preview_add_and_history(serve, alice, api, now, django_assert_max_num_queries):
    url = serve(page())
    answer = api.post(
        "/api/v1/watches/preview",
        {"url": url, "selector_kind": "css", "selector": "#price", "ignore_numbers": True},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["text"] == "Price: $19.99"
    assert answer.json()["compared"] == "Price: $#"
    assert not TextWatch.objects.exists()

    created = api.post(
        "/api/v1/watches",
        {"url": url, "name": "Price", "selector_kind": "css", "selector": "#price",
         "end_at": "2026-12-01T00:00:00+00:00"},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    watch = TextWatch.objects.get()
    serve(page(price="18.00"))
    service.check_watch(watch, now=watch.created_at + HOUR)  # the API stamped the baseline
    with django_assert_max_num_queries(8):
        detail = api.get(f"/api/v1/watches/{watch.pk}").json()
    assert detail["history"][0]["diff"] == "− Price: $19.99\n+ Price: $18.00"
    assert detail["history"][0]["notified"] is True
    assert [w["name"] for w in api.get("/api/v1/watches").json()["results"]] == ["Price"]


def test_api_refusals_name_the_field(serve, api, bob, now):
    url = serve(page())
    for body, field, status in [
        # A selector that does not parse: content the server cannot use (422).
        ({"url": url, "selector_kind": "css", "selector": "p[["}, "selector", 422),
        ({"url": url, "start_at": "tomorrow"}, "start_at", 400),
        ({"url": url, "ignore_regex": "not a list"}, "ignore_regex", 400),
        (["not", "an", "object"], "non_field_errors", 400),
    ]:
        answer = api.post("/api/v1/watches", body, format="json")
        assert answer.status_code == status, answer.content
        assert field in str(answer.json()), answer.json()
    assert not TextWatch.objects.exists()
    watch_id = service.add_watch(bob, {"url": url}, now=now).pk
    assert api.get(f"/api/v1/watches/{watch_id}").status_code == 404  # not hers
    assert api_client_for(bob).get(f"/api/v1/watches/{watch_id}").status_code == 200


@pytest.mark.parametrize(
    ("extra", "field", "code"),
    [
        # Two valid moments that make no period.
        (
            {"start_at": "2030-01-02T00:00:00Z", "end_at": "2030-01-01T00:00:00Z"},
            "end_at",
            "invalid_combination",
        ),
        # A trigger that needs a text or a threshold the request does not give.
        ({"trigger": "appears"}, "trigger_text", "invalid_combination"),
        ({"trigger": "below", "trigger_number": ""}, "trigger_number", "invalid_combination"),
        ({"notify": ["email"]}, "notify", "invalid_combination"),
        # A selector kind with no selector.
        ({"selector_kind": "css", "selector": ""}, "selector", "invalid_combination"),
        # Text the server reads as a regular expression and cannot compile.
        ({"ignore_regex": ["(unclosed"]}, "ignore_regex", "invalid_pattern"),
    ],
)
def test_valid_fields_that_do_not_go_together_are_422_and_add_nothing(
    serve, api, now, extra, field, code
):
    url = serve(page())
    for path in ("/api/v1/watches", "/api/v1/watches/preview"):
        answer = api.post(path, {"url": url, **extra}, format="json")
        assert answer.status_code == 422, answer.content
        error = answer.json()["error"]
        assert (error["code"], list(error["fields"])) == (code, [field])
    assert not TextWatch.objects.exists()


def test_a_field_s_own_rule_is_400_before_the_period_is_checked(serve, api):
    url = serve(page())
    body = {
        "url": url,
        "start_at": "2030-01-02T00:00:00Z",
        "end_at": "2030-01-01T00:00:00Z",
        "trigger_number": "lots",
    }
    answer = api.post("/api/v1/watches", body, format="json")
    assert answer.status_code == 400, answer.content
    assert list(answer.json()["error"]["fields"]) == ["trigger_number"]
    assert not TextWatch.objects.exists()


# --- console -----------------------------------------------------------------------------------


def test_console_preview_add_and_history(serve, alice, client, now, django_assert_max_num_queries):
    client.force_login(alice)
    url = serve(page())
    fields = {
        "watch-url": url,
        "watch-selector_kind": "css",
        "watch-selector": "#price",
        "watch-check_interval_minutes": "60",
        "watch-trigger": "any",
        "watch-render": "http",
    }
    preview = client.post("/watches/", {**fields, "preview": "1"}, HTTP_HX_REQUEST="true")
    assert preview.status_code == 200
    assert "Price: $19.99" in preview.content.decode() and not TextWatch.objects.exists()

    bad = client.post("/watches/", {**fields, "watch-selector": "p[[", "preview": "1"},
                      HTTP_HX_REQUEST="true")  # fmt: skip
    assert "not valid CSS" in bad.content.decode()

    added = client.post("/watches/", fields)
    watch = TextWatch.objects.get()
    assert added.status_code == 302 and added["Location"] == f"/watches/{watch.pk}/"
    for step, price in enumerate(["18.00", "17.00", "16.00"], start=1):
        serve(page(price=price))
        service.check_watch(watch, now=watch.created_at + step * HOUR)
    with django_assert_max_num_queries(12):
        body = client.get(f"/watches/{watch.pk}/").content.decode()
    assert "Price: <del>$17.00</del>" in body and "Price: <ins>$16.00</ins>" in body
    for n in range(5):  # the list costs the same few queries however many watches
        service.add_watch(alice, {"url": url, "name": f"More {n}"}, now=now)
    with django_assert_max_num_queries(12):
        listing = client.get("/watches/").content.decode()
    assert listing.count("/watches/") >= 6


def test_the_plan_floor_on_check_intervals_applies(serve, alice, api, now):
    from billing.limits import TierLimitError

    url = serve(page())
    with pytest.raises(TierLimitError):
        watch_of(alice, url, now, check_interval_minutes=30)  # free: at most hourly
    answer = api.post("/api/v1/watches", {"url": url, "check_interval_minutes": 30}, format="json")
    assert answer.status_code == 403 and "check_interval_minutes" in str(answer.json())
    assert not TextWatch.objects.exists()


def test_a_change_is_emailed_too_when_asked(serve, alice, now, smtp_server):
    url = serve(page())
    watch = watch_of(alice, url, now, notify=["inbox", "email"])
    serve(page(price="12.00"))
    assert service.check_watch(watch, now=now + HOUR).notified
    assert smtp_server.count == 1
    [message] = smtp_server.messages
    assert "Price: $12.00" in message.get_body(("plain",)).get_content()
    with pytest.raises(service.WatchError) as refused:
        watch_of(alice, url, now, notify=["email"])  # email comes with the Inbox
    assert "notify" in refused.value.errors


def test_deleting_a_watch_keeps_the_delivered_changes(serve, alice, api, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    serve(page(price="1.00"))
    service.check_watch(watch, now=now + HOUR)
    assert api.delete(f"/api/v1/watches/{watch.pk}").status_code == 204
    assert not TextWatch.objects.exists() and not TextSnapshot.objects.exists()
    assert len(items_of(alice)) == 1  # what was told stays in the Inbox
    assert service.due_ids(now=now + 10 * HOUR) == []
