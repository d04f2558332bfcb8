"""The benchmarks' own upkeep: every one takes the three sizes, and their bulk loads keep up with
the models. (CI runs every benchmark at smoke size after the suites; this file only guards what
is cheap to check here.)"""

from __future__ import annotations

import importlib
import inspect
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from digests.models import CombinationCacheEntry, Subscription
from digests.narrative import writer
from ingest.models import ContentItem, ContentItemSource
from tests.bench import __main__ as bench
from tests.bench import cache as cache_bench
from tests.bench import cpu_time
from tests.bench.generate import TextBank, add_items, add_subscriptions, load_rows, make_sources
from tests.bench.interleave import interleaved_ratio
from tests.bench.sizes import SIZES, every_nth
from tests.digests.fake_anthropic import FakeAnthropic

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("name", bench.BENCHMARKS)
def test_every_benchmark_takes_every_size_and_says_what_each_means(name):
    module = importlib.import_module(f"tests.bench.{name}")

    size = inspect.signature(module.run).parameters.get("size")
    assert size is not None and size.default == "full", f"{name}.run() needs size='full'"
    assert callable(module.describe)
    for word in SIZES:
        assert word in module.__doc__, f"tests/bench/{name}.py's docstring does not say {word!r}"


@pytest.mark.django_db
def test_bulk_loaded_subscriptions_carry_every_default_of_the_model():
    alice = User.objects.create(username="alice@example.com")

    add_subscriptions(
        3, owner_ids=[alice.pk], now=NOW, schedule=lambda n, rng: ("0 8 * * *", "UTC", NOW)
    )

    subscription = Subscription.objects.order_by("id").first()
    assert subscription.owner == alice
    assert subscription.next_run_at == NOW and subscription.created_at == NOW
    assert subscription.interests  # given by the loader
    given = {"owner", "name", "interests", "cron", "timezone", "status", "next_run_at"}
    for field in Subscription._meta.concrete_fields:
        if field.has_default() and field.name not in given:
            assert getattr(subscription, field.attname) == field.get_default(), field.name


@pytest.mark.django_db
def test_bulk_loaded_items_are_pool_items_like_any_other():
    sources = make_sources(3)

    add_items(40, sources=sources, now=NOW, bank=TextBank())

    assert ContentItem.objects.count() == 40
    assert ContentItemSource.objects.filter(item__in=ContentItem.objects.all()).count() >= 40
    item = ContentItem.objects.order_by("id").first()
    assert item.score_reasons == {} and item.simhash is None
    # The id sequence moved past the loaded ids: the next item made by the ORM fits in.
    after = ContentItem.objects.create(
        canonical_url="https://x.example/1", canonical_url_hash="1" * 64, first_seen_at=NOW,
        last_seen_at=NOW,
    )  # fmt: skip
    assert after.pk > item.pk


@pytest.mark.django_db
def test_a_field_without_a_default_must_be_given_and_unknown_names_are_refused():
    row = {"canonical_url": "https://x.example/", "canonical_url_hash": "2" * 64}

    with pytest.raises(ValueError, match=r"ContentItem\.first_seen_at has no default"):
        load_rows(ContentItem, [{**row, "last_seen_at": NOW}])
    with pytest.raises(ValueError, match="ContentItem has no field titel"):
        load_rows(ContentItem, [{**row, "first_seen_at": NOW, "last_seen_at": NOW, "titel": ""}])
    assert not ContentItem.objects.exists()


def test_smaller_sizes_read_an_even_slice_of_a_corpus():
    files = list(range(300))

    assert every_nth(files, "full") == files
    assert len(every_nth(files, "small")) == 75
    assert every_nth(files, "smoke")[:3] == [0, 15, 30]
    with pytest.raises(ValueError, match="size must be one of smoke, small, full"):
        every_nth(files, "tiny")


def test_a_failed_check_makes_the_benchmark_exit_non_zero(monkeypatch, capsys):
    class Stub:
        @staticmethod
        def describe(result):
            return [f"stub figures: {result['ratio']}"]

    results = {
        "watch": {"ratio": 1.0, "checks": {"the watcher reports exactly the new posts": False}},
        "llm": {"ratio": 0.0, "checks": {"every run succeeded": True}},
    }
    monkeypatch.setattr(bench, "run_one", lambda name, **options: results[name])
    monkeypatch.setattr(bench, "load", lambda name: Stub)

    assert bench.main(["watch", "--size", "smoke"]) == 1
    assert "FAILED check: the watcher reports exactly the new posts" in capsys.readouterr().out
    assert bench.main(["llm", "--size", "smoke"]) == 0


def test_an_interleaved_ratio_is_not_moved_by_a_busy_stretch_of_the_machine():
    calls = []

    def timed(name: str, cost: float):
        def measure(i: int) -> float:
            calls.append((name, i))
            busy = len(calls) <= 24  # a neighbour slows the first 24 calls five-fold
            return cost * (5 if busy else 1)

        return measure

    measured = interleaved_ratio(timed("large", 2.0), timed("small", 1.0), 20)

    assert measured.ratio == 2.0  # measured one half after the other, it would read 10 or 0.4
    assert calls[:4] == [("large", 0), ("small", 0), ("small", 1), ("large", 1)]


@pytest.mark.django_db
def test_the_cache_benchmark_keys_a_brief_as_the_narrative_writer_does():
    """Keyed on all 20 items instead of the 15 the narrative is written from, the benchmark
    counted a call for readers whose briefs differ only below the narrative's items."""
    picked = [
        SimpleNamespace(
            canonical_url_hash=f"{n:064x}",
            content_hash=f"c{n}",
            title=f"Story {n}",
            description=f"Story {n} happened.",
            canonical_url=f"https://news.example/{n}",
            site_name="Eng Weekly",
        )
        for n in range(20)
    ]
    with FakeAnthropic.running(LLM_MAX_RETRIES=0):
        writer.write_narrative(
            [
                writer.NarrativeItem(
                    canonical_url_hash=c.canonical_url_hash,
                    content_hash=c.content_hash,
                    title=c.title,
                    url=c.canonical_url,
                    summary=c.description,
                    source_name=c.site_name,
                )
                for c in picked
            ],
            title="Brief",
            locale="en",
            tone="neutral",
            now=cache_bench.NOW,
        )
        options = cache_bench._options()

    assert cache_bench._key(picked, options) == CombinationCacheEntry.objects.get().key
    other_tail = picked[:15] + [replace_ns(c, content_hash="changed") for c in picked[15:]]
    assert cache_bench._key(other_tail, options) == cache_bench._key(picked, options)
    other_lead = [picked[1], picked[0], *picked[2:]]
    assert cache_bench._key(other_lead, options) != cache_bench._key(picked, options)


def replace_ns(item: SimpleNamespace, **changes) -> SimpleNamespace:
    return SimpleNamespace(**{**vars(item), **changes})


@pytest.mark.django_db
def test_benchmark_databases_left_for_later_are_all_dropped(tmp_path, monkeypatch):
    from django.db import connection

    from tests.bench import database

    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL databases are dropped later (SQLite's are files)")
    names = [f"{connection.settings_dict['NAME']}_later_{n}" for n in range(2)]
    with connection._nodb_cursor() as cursor:
        for name in names:
            cursor.execute(f'CREATE DATABASE "{name}"')
    later = tmp_path / "drop-later"
    dropper = database.Dropper(str(later))
    monkeypatch.setenv(database.DROP_LATER_ENV, str(later))
    for name in names:
        database._drop(name)  # only noted: a benchmark's process leaves it to `all`

    def existing() -> list[str]:
        with connection._nodb_cursor() as cursor:
            cursor.execute("SELECT datname FROM pg_database WHERE datname = ANY(%s)", [names])
            return sorted(row[0] for row in cursor.fetchall())

    assert existing() == names
    dropper.drop_named()
    dropper.finish()
    assert existing() == []


@pytest.mark.skipif(not cpu_time.PROC.is_dir(), reason="CPU time is read from /proc")
def test_cpu_time_goes_to_the_server_that_spent_it_and_to_the_load_generator(tmp_path):
    spin = (
        "import time\n"
        "end = time.process_time() + {seconds}\n"
        "while time.process_time() < end: pass\n"
    )
    done = tmp_path / "worker-done"
    # A "server" whose worker waits a moment, spins for 0.4 s of CPU, says so, and stays.
    worker = f"import pathlib, time\ntime.sleep(0.5)\n{spin.format(seconds=0.4)}"
    worker += f"pathlib.Path({str(done)!r}).touch()\ntime.sleep(60)\n"
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {worker!r}])\n"
            "time.sleep(60)\n",
        ],
        start_new_session=True,  # stopped with its worker below
    )
    try:
        before = cpu_time.Snapshot.take(server.pid)
        # The "load generator": a child this process waits for, spinning 0.3 s.
        subprocess.run([sys.executable, "-c", spin.format(seconds=0.3)], check=True)
        deadline = time.monotonic() + 30
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        spent = cpu_time.Snapshot.take(server.pid).seconds_since(before)
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    assert done.exists()
    assert spent["app"] >= 0.35 and spent["client"] >= 0.25
    figures = cpu_time.per_request_ms(spent, requests=100)
    assert figures["server_cpu_ms"] == pytest.approx(
        figures["app_cpu_ms"] + figures["database_cpu_ms"], abs=0.002
    )
    assert cpu_time.per_request_ms(spent, requests=0) == {}


def test_a_database_backend_is_told_by_its_process_title():
    assert cpu_time.backend_database("postgres: 15/main: app tidings 127.0.0.1(5432) idle") == (
        "tidings"
    )
    assert cpu_time.backend_database("postgres: app tidings [local] SELECT") == "tidings"
    assert cpu_time.backend_database("postgres: 15/main: checkpointer") is None
    assert cpu_time.backend_database("postgres: checkpointer") is None
    assert cpu_time.backend_database("/usr/lib/postgresql/15/bin/postgres -D /data") is None
