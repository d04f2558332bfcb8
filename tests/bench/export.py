"""`export`: exporting and importing a large account (issue #17).

Data: two accounts in one database — the large one with 50 subscriptions, 5,000 runs of 20
items (100,000 RunItems, 100,000 pool items, 100,000 content states: 30 % read, 5 % saved, 2 %
not interested), and one a tenth of its size (500 runs, 10,000 items) — so that memory can be
compared as the account grows.

Measured, each in a process of its own forked after the data is made (so one measurement's
memory cannot hide in another's): the export streamed to a file (`stream_export`, as
`GET /api/v1/export` sends it), then the import of that file into a fresh account
(`import_export`, as `POST /api/v1/import`), then the same file again (nothing changes). For
each, seconds and the peak resident memory the step added (the kernel's high-water mark reset
when the step starts, /proc/self/clear_refs).

Baselines, in the same process: for the export, reading the same run items with one ORM
`.values_list().iterator()` and serializing each row with json.dumps (the least any export
does); for the import, `json.loads` of the document (the least any import does; in a process of its
own, to compare its memory too).

Checks: the export is the format and holds every run and item; the import reproduces them
and charges nothing; a second import changes nothing; the export's added memory does not grow
with the account, nor does the import's (large ≤ 1.5 × small + 16 MB): the import reads the
document from its file piece by piece (inbox/portability/reader.py).

Sizes (tests/bench/sizes.py): full = 100,000 and 10,000 run items; small = 10,000 and 1,000;
smoke = 2,000 and 400.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import resource
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.contrib.auth.models import User
from django.db import connection, connections

from billing.models import CreditTransaction
from digests.models import Run, RunItem, Subscription, SubscriptionSource
from inbox.models import UserContentState, UserPreference
from inbox.portability.export import FORMAT, encoded_chunks, stream_export
from inbox.portability.importing import import_export
from ingest.canonical import url_hash
from ingest.models import ContentItem, Source, UserSource
from tests.bench.generate import analyze, load_rows
from tests.bench.sizes import checked

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
SIZES = {"full": (100_000, 10_000), "small": (10_000, 1_000), "smoke": (2_000, 400)}
PER_RUN = 20
SUBSCRIPTIONS = 50
SUMMARY = (
    "A server-side request forgery bug in a hosted invoice-to-PDF service allowed crafted "
    "HTML to fetch internal URLs, including the cloud instance metadata endpoint."
)


def _account(number: int, items: int, first_id: int) -> User:
    user = User.objects.create_user(
        username=f"owner{number}@example.com", email=f"o{number}@x.example"
    )
    UserPreference.objects.create(user=user, timezone="Europe/Berlin")
    source, _ = Source.objects.get_or_create(
        type="feed",
        config_hash=url_hash(f"feed-{number}"),
        defaults={
            "config": {"url": f"https://blog{number}.example/feed"},
            "url": f"https://blog{number}.example/feed",
        },
    )
    UserSource.objects.create(user=user, source=source, display_name=f"Blog {number}")
    subscriptions = Subscription.objects.bulk_create(
        [
            Subscription(
                owner=user, name=f"Subscription {n}", interests=["PostgreSQL"], cron="0 8 * * *"
            )
            for n in range(SUBSCRIPTIONS)
        ]
    )
    SubscriptionSource.objects.bulk_create(
        [SubscriptionSource(subscription=s, source=source) for s in subscriptions]
    )
    runs = items // PER_RUN
    run_rows = []
    for n in range(runs):
        when = NOW - timedelta(hours=runs - n)
        run_rows.append(
            {
                "id": first_id + n,
                "subscription_id": subscriptions[n % SUBSCRIPTIONS].pk,
                "user_id": user.pk,
                "status": "succeeded",
                "trigger": "scheduled",
                "scheduled_at": when,
                "started_at": when,
                "finished_at": when + timedelta(seconds=40),
                "delivered_count": PER_RUN,
                "selected_count": PER_RUN,
                "narrative_md": "**Lead** leads this issue.\n\nSources:\n1. [Lead](https://x.example)",
            }
        )
    load_rows(Run, run_rows)
    pool, run_items, states = [], [], []
    for n in range(items):
        item_id = first_id + n
        url = f"https://news{number}.example/{n}"
        digest = url_hash(url)
        run = run_rows[n // PER_RUN]
        pool.append(
            {
                "id": item_id,
                "canonical_url": url,
                "canonical_url_hash": digest,
                "title": f"Item {n}: PostgreSQL, Rust and the state of the web",
                "first_seen_at": run["scheduled_at"],
                "last_seen_at": NOW,
                "published_at": run["scheduled_at"],
            }
        )
        run_items.append(
            {
                "run_id": run["id"],
                "item_id": item_id,
                "canonical_url_hash": digest,
                "relevance": 80,
                "overall": 70,
                "reason": "matches PostgreSQL in the title; source: Site; published Nov 20",
                "rank": n % PER_RUN + 1,
                "title": f"Item {n}: PostgreSQL, Rust and the state of the web",
                "url": url,
                "summary": SUMMARY,
                "source_name": f"Blog {number}",
                "published_at": run["scheduled_at"],
                "delivered_at": run["scheduled_at"],
            }
        )
        states.append(
            {
                "user_id": user.pk,
                "canonical_url_hash": digest,
                "item_id": item_id,
                "first_delivered_at": run["scheduled_at"],
                "last_delivered_at": run["scheduled_at"],
                "delivered_count": 1,
                "last_run_id": run["id"],
                "read_at": NOW if n % 10 < 3 else None,
                "saved_at": NOW if n % 20 == 0 else None,
                "not_interested_at": NOW if n % 50 == 7 else None,
            }
        )
    load_rows(ContentItem, pool)
    load_rows(RunItem, run_items)
    load_rows(UserContentState, states)
    return user


# --- Measuring one step in a process of its own ---------------------------------------------------


def _status_kb(name: str) -> int | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{name}:"):
                return int(line.split()[1])
    return None


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM (Linux ≥ 4.0)
    except OSError:
        return False
    return True


def _forked(step) -> dict:
    """`step()` in a forked child; returns its dict plus the peak memory it added."""
    connections.close_all()  # the child opens its own connection
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(read_end)
            exact = _reset_peak()
            start_kb = _status_kb("VmRSS") or 0
            result = step()
            peak_kb = (_status_kb("VmHWM") if exact else None) or resource.getrusage(
                resource.RUSAGE_SELF
            ).ru_maxrss
            result["added_peak_rss_mb"] = round(max(0, peak_kb - start_kb) / 1024, 1)
            with os.fdopen(write_end, "w") as out:
                json.dump(result, out)
        except BaseException as exc:  # reported to the parent, never raised past the fork
            with contextlib.suppress(Exception), os.fdopen(write_end, "w") as out:
                json.dump({"error": repr(exc)}, out)
            code = 1
        finally:
            connections.close_all()
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    result = json.loads(text or '{"error": "no result"}')
    if "error" in result:
        raise RuntimeError(f"benchmark step failed: {result['error']}")
    return result


def _export_step(user_id: int, path: str) -> dict:
    def step():
        user = User.objects.get(pk=user_id)
        # Baseline: the same run items read with one iterator, each row serialized.
        started = time.perf_counter()
        rows = 0
        for row in (
            RunItem.objects.filter(run__user_id=user_id)
            .values_list("title", "url", "summary", "reason", "overall", "delivered_at")
            .iterator(chunk_size=2000)
        ):
            json.dumps(row, default=str)
            rows += 1
        baseline = time.perf_counter() - started
        started = time.perf_counter()
        digest, size = hashlib.sha256(), 0
        with open(path, "wb") as out:
            for block in encoded_chunks(stream_export(user, now=NOW)):
                digest.update(block)
                size += len(block)
                out.write(block)
        seconds = time.perf_counter() - started
        return {
            "seconds": round(seconds, 2),
            "baseline_seconds": round(baseline, 2),
            "ratio": round(seconds / baseline, 1) if baseline else None,
            "bytes": size,
            "rows_read_by_baseline": rows,
        }

    return _forked(step)


def _parse_baseline(path: str) -> dict:
    def step():
        started = time.perf_counter()
        document = json.loads(Path(path).read_bytes())
        seconds = time.perf_counter() - started
        return {
            "seconds": round(seconds, 3),
            "items_in_document": sum(len(run["items"]) for run in document["runs"]),
            "format_ok": document["format"] == FORMAT,
        }

    return _forked(step)


def _import_step(number: int, path: str) -> dict:
    def step():
        user = User.objects.create_user(username=f"newcomer{number}@example.com")
        ledger_before = CreditTransaction.objects.exclude(kind="monthly_reset").count()
        started = time.perf_counter()
        with open(path, "rb") as document:  # read piece by piece, as an upload or a body is
            summary = import_export(user, document, now=NOW + timedelta(minutes=1))
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        with open(path, "rb") as document:
            again = import_export(user, document, now=NOW + timedelta(minutes=2))
        again_seconds = time.perf_counter() - started
        return {
            "seconds": round(seconds, 2),
            "second_import_seconds": round(again_seconds, 2),
            "runs_created": summary.runs_created,
            "run_items_created": summary.run_items_created,
            "second_changed_nothing": again.already_imported,
            "charged_nothing": CreditTransaction.objects.exclude(kind="monthly_reset").count()
            == ledger_before,
        }

    result = _forked(step)
    baseline = _parse_baseline(path)
    result["baseline_seconds"] = baseline["seconds"]
    result["baseline_added_peak_rss_mb"] = baseline["added_peak_rss_mb"]
    result["ratio"] = (
        round(result["seconds"] / baseline["seconds"], 1) if baseline["seconds"] else None
    )
    result["items_in_document"] = baseline["items_in_document"]
    result["format_ok"] = baseline["format_ok"]
    return result


def run(size: str = "full") -> dict:
    large, small = SIZES[checked(size)]
    started = time.perf_counter()
    big_user = _account(1, large, 1)
    small_user = _account(2, small, 10_000_000)
    analyze()
    generate_seconds = round(time.perf_counter() - started, 1)
    result = {
        "database": connection.vendor,
        "size": size,
        "subscriptions": SUBSCRIPTIONS,
        "generate_seconds": generate_seconds,
        "accounts": {},
    }
    with tempfile.TemporaryDirectory() as folder:
        for number, (label, user, items) in enumerate(
            (("small", small_user, small), ("large", big_user, large))
        ):
            path = str(Path(folder) / f"{label}.json")
            exported = _export_step(user.pk, path)
            imported = _import_step(number, path)
            result["accounts"][label] = {
                "runs": items // PER_RUN,
                "run_items": items,
                "export": exported,
                "import": imported,
            }
    small_r, large_r = result["accounts"]["small"], result["accounts"]["large"]
    result["checks"] = {
        "every run and item exported and imported": all(
            account["import"]["run_items_created"] == account["run_items"]
            and account["import"]["items_in_document"] == account["run_items"]
            and account["import"]["runs_created"] == account["runs"]
            and account["import"]["format_ok"]
            for account in (small_r, large_r)
        ),
        "imports charged nothing": small_r["import"]["charged_nothing"]
        and large_r["import"]["charged_nothing"],
        "a second import changed nothing": small_r["import"]["second_changed_nothing"]
        and large_r["import"]["second_changed_nothing"],
        "export memory flat as the account grows": large_r["export"]["added_peak_rss_mb"]
        <= 1.5 * small_r["export"]["added_peak_rss_mb"] + 16,
        "import memory flat as the account grows": large_r["import"]["added_peak_rss_mb"]
        <= 1.5 * small_r["import"]["added_peak_rss_mb"] + 16,
    }
    return result


def describe(result: dict) -> list[str]:
    lines = [
        f"export benchmark on {result['database']} ({result['size']}): accounts of "
        f"{result['subscriptions']} subscriptions (data made in {result['generate_seconds']} s)"
    ]
    for label, account in result["accounts"].items():
        exported, imported = account["export"], account["import"]
        lines += [
            f"  {label}: {account['runs']:,} runs, {account['run_items']:,} run items, "
            f"{exported['bytes'] / 1e6:.1f} MB of JSON",
            f"    export {exported['seconds']} s (baseline: read and serialize the items "
            f"{exported['baseline_seconds']} s, ratio {exported['ratio']}), added peak RSS "
            f"{exported['added_peak_rss_mb']} MB",
            f"    import {imported['seconds']} s (baseline: json.loads "
            f"{imported['baseline_seconds']} s, ratio {imported['ratio']}, which adds "
            f"{imported['baseline_added_peak_rss_mb']} MB), added peak RSS "
            f"{imported['added_peak_rss_mb']} MB; "
            f"again {imported['second_import_seconds']} s (nothing changed)",
        ]
    return lines
