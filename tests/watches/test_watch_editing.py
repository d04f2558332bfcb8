"""Editing, pausing and deleting a text watch: a new part or new ignore rules start from the
page as it is when saved (no change is reported for the edit itself), a paused watch is not
checked, and a deleted one leaves nothing behind but what it already told."""

from __future__ import annotations

from datetime import timedelta

import pytest

from digests.models import Subscription
from digests.textwatch import apprise, service
from digests.textwatch.models import AppriseRoute, TextSnapshot, TextWatch
from tests.watches.test_text_watches import CSS, HOUR, items_of, page, watch_of


@pytest.fixture
def serve(fixture_server):
    def serve_(html, path="/shop"):
        return fixture_server.add(path, html, Content_Type=CSS)

    return serve_


def edit(watch, **changes):
    watch = TextWatch.objects.select_related("notifier").get(pk=watch.pk)
    return {**service.settings_of(watch), **changes}


def test_a_new_selector_rebases_without_a_spurious_change(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    watch = service.update_watch(
        watch, edit(watch, selector=".news"), now=now + HOUR
    )  # the whole list now, not the price
    # The next check compares against the list as it was when saved: no change, nothing told.
    outcome = service.check_watch(watch, now=now + 2 * HOUR)
    assert outcome.ok and not outcome.changed
    assert items_of(alice) == []
    baseline = watch.snapshots.first()
    assert baseline.baseline and baseline.text == "Shipping is free." and not baseline.notified

    # A real change of the new part is told, against that baseline.
    serve(page(news=("Shipping is free.", "Returns within 30 days.")))
    assert service.check_watch(watch, now=now + 3 * HOUR).notified
    [item] = items_of(alice)
    assert item.summary.startswith("+ Returns within 30 days.")


def test_a_new_ignore_rule_rebases_too(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    serve(page(footer="Updated 9 minutes ago"))  # changed before the edit, never checked
    watch = service.update_watch(watch, edit(watch, ignore_numbers=True), now=now + HOUR)
    assert not service.check_watch(watch, now=now + 2 * HOUR).changed
    assert items_of(alice) == []


def test_a_new_trigger_or_name_keeps_the_baseline(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    serve(page(price="5.00"))
    watch = service.update_watch(
        watch,
        edit(watch, name="Cheap", trigger="below", trigger_number="10", notify=["inbox", "email"]),
        now=now + HOUR,
    )
    assert watch.snapshots.count() == 1  # no read: the text compared is the same
    assert watch.notifier.name == "Watch: Cheap" and watch.notifier.email_enabled
    # The change made before the edit is still a change, told under the new trigger.
    assert service.check_watch(watch, now=now + 2 * HOUR).notified
    assert items_of(alice)[0].title == "Changed: Cheap"


def test_a_check_that_read_the_page_before_an_edit_writes_nothing(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    stale = TextWatch.objects.get(pk=watch.pk)  # a worker holds the old settings
    service.update_watch(watch, edit(watch, selector=".news"), now=now + HOUR)
    serve(page(price="3.00"))
    outcome = service.check_watch(stale, now=now + 2 * HOUR)
    assert outcome.ok and not outcome.changed
    assert items_of(alice) == [] and watch.snapshots.count() == 2


def test_an_edit_that_fixes_a_failing_watch_ends_the_streak(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    serve(page().replace('id="price"', 'id="cost"'))
    for hour in (1, 2, 3):
        service.check_watch(watch, now=now + hour * HOUR)
    watch.refresh_from_db()
    assert watch.status == "error"
    watch = service.update_watch(watch, edit(watch, selector="#cost"), now=now + 4 * HOUR)
    assert (watch.status, watch.error_count, watch.last_error) == ("active", 0, "")


def test_a_refused_edit_changes_nothing(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    for changes, field in [
        ({"selector": "#nothing-here"}, "selector"),
        ({"ignore_regex": ["(a|aa)+$"]}, "ignore_regex"),
        ({"url": "http://127.0.0.1:9/"}, "url"),
        ({"end_at": now - HOUR, "start_at": now}, "end_at"),
    ]:
        with pytest.raises(service.WatchError) as refused:
            service.update_watch(watch, edit(watch, **changes), now=now + HOUR)
        assert field in refused.value.errors
    watch.refresh_from_db()
    assert watch.selector == "#price" and watch.snapshots.count() == 1
    with pytest.raises(service.ServiceRefusal) as floor:  # the plan's floor, as when adding
        service.update_watch(watch, edit(watch, check_interval_minutes=30), now=now + HOUR)
    assert "check_interval_minutes" in floor.value.errors


def test_a_new_interval_or_a_later_end_reschedules(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now, end_at=now + 2 * HOUR)
    service.check_due(now=now + 3 * HOUR)  # the end has come
    watch.refresh_from_db()
    assert watch.status == "completed"
    watch = service.update_watch(
        watch, edit(watch, end_at=now + 48 * HOUR, check_interval_minutes=120), now=now + 4 * HOUR
    )
    assert watch.status == "active" and watch.next_check_at == now + 6 * HOUR


def test_a_paused_watch_is_not_checked_and_resumes_without_beating_the_floor(serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    service.pause_watch(watch)
    assert watch.status == "paused" and service.due_ids(now=now + 10 * HOUR) == []
    serve(page(price="2.00"))  # changes while paused

    # Resumed a quarter of an hour after the last check: the next one waits out the interval.
    resumed = service.resume_watch(watch, now=now + timedelta(minutes=15))
    assert resumed.status == "active" and resumed.next_check_at == now + HOUR
    assert service.due_ids(now=now + 30 * timedelta(minutes=1)) == []
    # The change made while paused was not seen by the reader: it is told.
    [outcome] = service.check_due(now=now + HOUR)
    assert outcome.notified


def test_deleting_leaves_no_orphans_and_keeps_what_was_told(fixture_server, serve, alice, now):
    url = serve(page())
    watch = watch_of(alice, url, now)
    fixture_server.add("/hook", "{}", Content_Type="application/json")
    target = apprise.add_target(alice, url=f"json://localhost:{fixture_server.port}/hook", now=now)
    apprise.set_routes(alice, watch.notifier, [target.pk])
    serve(page(price="1.00"))
    service.check_watch(watch, now=now + HOUR)
    notifier_id = watch.notifier_id

    service.delete_watch(watch, now=now + 2 * HOUR)
    assert not TextWatch.objects.exists() and not TextSnapshot.objects.exists()
    assert not AppriseRoute.objects.exists()
    assert Subscription.objects.get(pk=notifier_id).deleted_at == now + 2 * HOUR
    assert not Subscription.objects.alive().filter(pk=notifier_id).exists()
    assert len(items_of(alice)) == 1  # what was told stays in the Inbox
    # The change already told still goes out to its target.
    assert [row.status for row in apprise.send_due(now=now + 2 * HOUR)] == ["sent"]


# --- API ---------------------------------------------------------------------------------------


def test_api_patch_pause_resume(serve, alice, api, bob, now):
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    answer = api.patch(
        f"/api/v1/watches/{watch.pk}", {"selector": ".news", "name": "News"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["selector"], body["name"], body["selector_kind"]) == (".news", "News", "css")
    detail = api.get(f"/api/v1/watches/{watch.pk}").json()
    assert detail["history"][0]["baseline"] is True and detail["history"][0]["diff"] == ""

    refused = api.patch(f"/api/v1/watches/{watch.pk}", {"selector": "p[["}, format="json")
    assert refused.status_code == 422 and "selector" in refused.json()["error"]["fields"]
    watch.refresh_from_db()
    assert watch.selector == ".news"

    assert api.post(f"/api/v1/watches/{watch.pk}/pause").json()["status"] == "paused"
    assert api.post(f"/api/v1/watches/{watch.pk}/resume").json()["status"] == "active"
    other = service.add_watch(bob, {"url": url}, now=now)
    assert api.patch(f"/api/v1/watches/{other.pk}", {"name": "x"}, format="json").status_code == 404
    assert api.post(f"/api/v1/watches/{other.pk}/pause").status_code == 404


# --- console -----------------------------------------------------------------------------------


def test_console_edit_pause_resume_delete(serve, alice, client, now, django_assert_max_num_queries):
    client.force_login(alice)
    url = serve(page())
    watch = watch_of(alice, url, now, selector_kind="css", selector="#price")
    form = client.get(f"/watches/{watch.pk}/edit/").content.decode()
    assert 'value="#price"' in form and f'value="{url}"' in form

    fields = {
        "watch-url": url,
        "watch-name": "News",
        "watch-selector_kind": "css",
        "watch-selector": "p[[",
        "watch-check_interval_minutes": "60",
        "watch-trigger": "any",
        "watch-render": "http",
        "watch-notify": ["inbox"],
    }
    refused = client.post(f"/watches/{watch.pk}/edit/", fields)
    assert refused.status_code == 200
    html = refused.content.decode()
    # The refusal is next to its field (the page script focuses the first one).
    assert 'class="field has-error" id="field-watch-selector"' in html
    assert "not valid CSS" in html
    watch.refresh_from_db()
    assert watch.selector == "#price"

    saved = client.post(f"/watches/{watch.pk}/edit/", {**fields, "watch-selector": ".news"})
    assert saved.status_code == 302 and saved["Location"] == f"/watches/{watch.pk}/"
    watch.refresh_from_db()
    assert (watch.name, watch.selector) == ("News", ".news")
    with django_assert_max_num_queries(12):
        detail = client.get(f"/watches/{watch.pk}/").content.decode()
    assert "the new starting point" in detail and "data-confirm" in detail

    client.post(f"/watches/{watch.pk}/pause/")
    watch.refresh_from_db()
    assert watch.status == "paused"
    assert "Resume" in client.get(f"/watches/{watch.pk}/").content.decode()
    client.post(f"/watches/{watch.pk}/resume/")
    watch.refresh_from_db()
    assert watch.status == "active"

    assert client.get(f"/watches/{watch.pk}/delete/").status_code == 302  # a GET deletes nothing
    assert TextWatch.objects.filter(pk=watch.pk).exists()
    gone = client.post(f"/watches/{watch.pk}/delete/", follow=True)
    assert not TextWatch.objects.exists()
    assert "stay in your Inbox" in gone.content.decode()


# --- the tick ----------------------------------------------------------------------------------


def test_the_tick_hands_each_due_watch_to_a_task_of_its_own(serve, alice, now):
    url = serve(page())
    shop, other = watch_of(alice, url, now), watch_of(alice, url, now, name="Other")
    handed = {}
    claimed = service.hand_out_due(now=now + 2 * HOUR, send=handed.__setitem__)
    assert sorted(claimed) == sorted(handed) == sorted([shop.pk, other.pk])
    assert service.hand_out_due(now=now + 2 * HOUR, send=handed.__setitem__) == []  # not twice
    service.pause_watch(other)  # paused after the tick handed it out: its task skips it
    serve(page(price="3.00"))
    check = service.check_claimed
    assert check(shop.pk, now=now + 2 * HOUR, claimed_until=handed[shop.pk]).notified
    assert check(other.pk, now=now + 2 * HOUR, claimed_until=handed[other.pk]) is None
    shop.refresh_from_db()
    assert shop.next_check_at == now + 3 * HOUR  # done: the next check is an interval on
    assert [item.title for item in items_of(alice)] == ["Changed: Shop"]


def test_the_tick_task_checks_through_the_queue(fixture_server, serve, alice, now):
    from digests.textwatch import tasks

    url = serve(page())
    broken = watch_of(alice, url, now, name="Broken")
    fixture_server.add("/gone", "gone", status=404)
    TextWatch.objects.filter(pk=broken.pk).update(url=fixture_server.url("/gone"))
    watch_of(alice, url, now, name="Shop")
    serve(page(price="4.00"))
    # The test queue runs each check inline; one failing page does not stop the other.
    assert tasks.tick()["handed_out"] == 2
    assert [item.title for item in items_of(alice)] == ["Changed: Shop"]
    assert TextWatch.objects.get(pk=broken.pk).error_count == 1


def test_a_check_whose_worker_died_is_made_again_after_its_lease_and_told_once(
    serve, alice, now, settings
):
    """The tick claimed the watch and its worker was killed mid-check (nothing committed): the
    watch is due again once the claim's lease ran out — not an interval later — and the change
    reaches the Inbox once. The dead task, delivered late, checks nothing."""
    settings.WORK_LEASE_SECONDS = 45
    lease = timedelta(seconds=45)
    url = serve(page())
    shop = watch_of(alice, url, now)
    serve(page(price="3.00"))
    handed = {}
    service.hand_out_due(now=now + 2 * HOUR, send=handed.__setitem__)
    dead = handed.pop(shop.pk)  # its worker is killed before the check commits
    second = timedelta(seconds=1)
    assert service.hand_out_due(now=now + 2 * HOUR + lease - second, send=handed.__setitem__) == []
    later = now + 2 * HOUR + lease
    assert service.hand_out_due(now=later, send=handed.__setitem__) == [shop.pk]
    assert service.check_claimed(shop.pk, now=later, claimed_until=dead) is None
    assert service.check_claimed(shop.pk, now=later, claimed_until=handed[shop.pk]).notified
    assert [item.title for item in items_of(alice)] == ["Changed: Shop"]
    assert shop.snapshots.count() == 2
    shop.refresh_from_db()
    assert shop.next_check_at == later + HOUR
    assert service.hand_out_due(now=later + lease * 2, send=handed.__setitem__) == []


def die(watch_id, now, handed):
    """The tick claims the watch and its worker dies mid-check (nothing finishes)."""
    assert service.hand_out_due(now=now, send=handed.__setitem__) == [watch_id]


def test_a_check_that_kills_its_worker_every_time_stops_after_its_attempts_and_says_why(
    serve, alice, client, now, settings
):
    """A page that kills its worker every time (out of memory) was fetched again once per lease
    for ever. Now WATCH_CHECK_ATTEMPTS claims in a row without a finished check are the last:
    the next claim records one failed check with the reason, shown to the owner where a
    watch's errors are, and the watch waits an interval."""
    settings.WORK_LEASE_SECONDS = 45
    settings.WATCH_CHECK_ATTEMPTS = 3
    lease, second = timedelta(seconds=45), timedelta(seconds=1)
    shop = watch_of(alice, serve(page()), now)
    handed = {}
    at = now + 2 * HOUR
    for _ in range(3):
        die(shop.pk, at, handed)
        at += lease
    assert service.hand_out_due(now=at, send=handed.__setitem__) == []  # given up
    shop.refresh_from_db()
    assert shop.next_check_at == at + HOUR
    assert (shop.unfinished_checks, shop.error_count, shop.status) == (0, 1, "active")
    assert "stopped before it finished 3 times in a row" in shop.last_error
    client.force_login(alice)
    for path in ["/watches/", f"/watches/{shop.pk}/"]:
        assert "stopped before it finished 3 times" in client.get(path).content.decode()
    assert service.hand_out_due(now=at + HOUR - second, send=handed.__setitem__) == []

    # An interval later it is tried again; a check that finishes ends both streaks.
    serve(page(price="3.00"))
    at += HOUR
    die(shop.pk, at, handed)
    at += lease
    assert service.hand_out_due(now=at, send=handed.__setitem__) == [shop.pk]
    assert service.check_claimed(shop.pk, now=at, claimed_until=handed[shop.pk]).notified
    shop.refresh_from_db()
    assert (shop.unfinished_checks, shop.error_count, shop.last_error) == (0, 0, "")
    assert shop.next_check_at == at + HOUR


def test_checks_that_die_in_every_interval_become_a_failing_watch_told_once(
    serve, alice, now, settings
):
    settings.WORK_LEASE_SECONDS = 45
    settings.WATCH_CHECK_ATTEMPTS = 2
    lease = timedelta(seconds=45)
    shop = watch_of(alice, serve(page()), now)
    handed = {}
    at = now + 2 * HOUR
    for _ in range(service.ERROR_AFTER + 1):
        die(shop.pk, at, handed)
        die(shop.pk, at + lease, handed)
        assert service.hand_out_due(now=at + 2 * lease, send=handed.__setitem__) == []
        at += 2 * lease + HOUR
    shop.refresh_from_db()
    assert shop.status == TextWatch.Status.ERROR and shop.error_count == service.ERROR_AFTER + 1
    [notice] = items_of(alice)
    assert notice.title == "Watch failing: Shop"
    assert "stopped before it finished 2 times in a row" in notice.summary


def test_a_finished_check_starts_the_count_of_unfinished_ones_again(serve, alice, now, settings):
    """Two deaths, a finished check (a failed one counts as finished), two deaths: never
    given up, because the attempts are counted in a row."""
    settings.WORK_LEASE_SECONDS = 45
    settings.WATCH_CHECK_ATTEMPTS = 3
    lease = timedelta(seconds=45)
    shop = watch_of(alice, serve(page()), now)
    handed = {}
    at = now + 2 * HOUR
    die(shop.pk, at, handed)
    die(shop.pk, at + lease, handed)
    TextWatch.objects.filter(pk=shop.pk).update(url=shop.url.replace("/shop", "/missing"))
    assert service.hand_out_due(now=at + 2 * lease, send=handed.__setitem__) == [shop.pk]
    outcome = service.check_claimed(shop.pk, now=at + 2 * lease, claimed_until=handed[shop.pk])
    assert not outcome.ok
    shop.refresh_from_db()
    assert shop.unfinished_checks == 0 and shop.error_count == 1
    at = shop.next_check_at
    die(shop.pk, at, handed)
    die(shop.pk, at + lease, handed)
    assert service.hand_out_due(now=at + 2 * lease, send=handed.__setitem__) == [shop.pk]
    shop.refresh_from_db()
    assert shop.unfinished_checks == 3 and "stopped" not in shop.last_error
