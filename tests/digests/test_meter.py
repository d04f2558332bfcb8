"""The run meter: billable operations counted per run and stored on the run."""

from __future__ import annotations

import contextlib

import pytest

from digests.models import Run, SubscriptionSource
from digests.runs import on_run, runner
from digests.runs.meter import RunMeter
from digests.subscriptions.service import create_subscription, request_manual_run
from ingest.library.sources import add_to_library
from ingest.models import Source

ZEROS = {"search": 0, "page_fetch": 0, "crawl": 0, "extract": 0}


def test_a_new_meter_records_zeros_for_every_kind():
    assert RunMeter().breakdown() == {"operations": ZEROS, "cache_hits": ZEROS, "total": 0}


def test_it_counts_operations_and_flags_cache_hits():
    meter = RunMeter()
    meter.record("search")
    meter.record("page_fetch", count=3)
    meter.record("page_fetch", cache_hit=True)
    meter.record("extract", count=2, cache_hit=True)

    assert meter.breakdown() == {
        "operations": {"search": 1, "page_fetch": 4, "crawl": 0, "extract": 2},
        "cache_hits": {"search": 0, "page_fetch": 1, "crawl": 0, "extract": 2},
        "total": 7,  # cache hits are operations too, flagged
    }


@pytest.mark.parametrize(("kind", "count"), [("llm", 1), ("search", -1)])
def test_it_refuses_unknown_kinds_and_negative_counts(kind, count):
    meter = RunMeter()
    with pytest.raises(ValueError):
        meter.record(kind, count=count)
    assert meter.total == 0


def subscribe(user, now, **data):
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    return create_subscription(user, {**base, **data}, now=now)


def test_a_run_without_on_run_sources_stores_a_zero_breakdown(alice, now):
    run = request_manual_run(subscribe(alice, now), now=now)
    run = runner.execute_run(run.pk, now=now)
    assert run.billing_breakdown == {"operations": ZEROS, "cache_hits": ZEROS, "total": 0}


@pytest.fixture
def search_collector():
    calls = []

    def collect(source, now, meter, **_context):
        calls.append(source.pk)
        meter.record("search")
        meter.record("page_fetch", count=2)
        meter.record("page_fetch", cache_hit=True)

    with replaced_collector("search", collect):
        yield calls


@contextlib.contextmanager
def replaced_collector(source_type, collector):
    """Swap the registered collector for a test; the real one comes back afterwards."""
    previous = on_run.collector_for(source_type)
    on_run.register_collector(source_type, collector)
    try:
        yield
    finally:
        if previous is None:
            on_run.unregister_collector(source_type)
        else:
            on_run.register_collector(source_type, previous)


def on_run_source(user, **fields) -> Source:
    source = Source.objects.create(
        type="search",
        config={"query": fields.pop("query", "postgresql")},
        config_hash=fields.pop("config_hash", "s" * 64),
        refresh_mode="on_run",
        **fields,
    )
    add_to_library(user, source)
    return source


def test_on_run_sources_are_collected_and_metered_on_the_run(alice, now, search_collector):
    source = on_run_source(alice)
    scheduled = Source.objects.create(type="feed", config={"url": "u"}, config_hash="f" * 64)
    add_to_library(alice, scheduled)
    subscription = subscribe(alice, now, source_ids=[source.pk, scheduled.pk])

    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)

    assert search_collector == [source.pk]  # scheduled sources are refreshed by the tick
    assert run.status == "succeeded"
    assert Run.objects.get().billing_breakdown == {
        "operations": {"search": 1, "page_fetch": 3, "crawl": 0, "extract": 0},
        "cache_hits": {"search": 0, "page_fetch": 1, "crawl": 0, "extract": 0},
        "total": 4,
    }


def test_each_attempt_meters_what_it_did(alice, now, search_collector, monkeypatch):
    source = on_run_source(alice)
    run = request_manual_run(subscribe(alice, now, source_ids=[source.pk]), now=now)

    def broken(*args, **kwargs):
        raise RuntimeError("database hiccup")

    with monkeypatch.context() as patch:
        patch.setattr(runner, "_deliver", broken)
        failed = runner.execute_run(run.pk, now=now)
    assert failed.status == "failed"
    assert failed.billing_breakdown["total"] == 4  # spent before the failure, kept visible

    retried = runner.execute_run(run.pk, now=now)
    assert retried.billing_breakdown["total"] == 4  # the retry's own work, not 8


def test_a_failing_collector_degrades_the_run_instead_of_failing_it(alice, now):
    def broken(source, now, meter, **_context):
        meter.record("search")
        raise TimeoutError("search engine down")

    with replaced_collector("search", broken):
        source = on_run_source(alice)
        run = request_manual_run(subscribe(alice, now, source_ids=[source.pk]), now=now)
        run = runner.execute_run(run.pk, now=now)
    assert run.status == "succeeded"
    assert run.billing_breakdown["operations"]["search"] == 1


def test_disabled_sources_and_switched_off_links_are_not_collected(alice, now, search_collector):
    disabled = on_run_source(alice, status="disabled")
    switched_off = on_run_source(alice, query="rust", config_hash="r" * 64)
    subscription = subscribe(alice, now, source_ids=[disabled.pk, switched_off.pk])
    SubscriptionSource.objects.filter(source=switched_off).update(enabled=False)
    runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    assert search_collector == []


def test_a_preview_fetches_nothing(alice, now, search_collector):
    source = on_run_source(alice)
    runner.preview(subscribe(alice, now, source_ids=[source.pk]), now=now)
    assert search_collector == []
