"""`mailin`: newsletters through real SMTP into the pool, parse times, and the memory of a big one.

Throughput: MESSAGES real-world-shaped newsletters (the ten kinds of tests/ingest/
newsletter_mail.py, each with its own Message-ID) sent with smtplib over loopback to the
`manage.py mailin` listener, each read into the pool as it arrives (the worker's task called on
the listener's executor): messages per second end to end. Baseline, in the same process: the
same number of messages handed to `accept_message` + `read_message` directly, no SMTP;
ratio = SMTP rate ÷ direct rate (what the SMTP conversation costs).

Parse: `parse_message` on every message, p50 and p99 in ms; baseline: the standard library's
parse alone (`BytesParser(policy=default)` + `get_body`), the two in turns message by message
(tests/bench/interleave.py); ratio = median of the per-message ratios.

Memory: the Python peak (tracemalloc) while one BIG_MB message (an HTML issue of that size,
under the size cap) is parsed and read into the pool, in MB and as a multiple of its size.

Sizes: full = 1,000 messages and a 10 MB message; small = 200 and 10 MB; smoke = 30 and 1 MB.
Checks: every message became exactly one item; the big one was accepted.
"""

from __future__ import annotations

import base64
import smtplib
import socket
import statistics
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from email import policy
from email.parser import BytesParser

from django.contrib.auth import get_user_model
from django.test import override_settings

from ingest.models import ContentItem, InboundMessage
from ingest.newsletters.addresses import create_address
from ingest.newsletters.parsing import parse_message
from ingest.newsletters.receiving import accept_message, read_message
from ingest.newsletters.smtp import controller
from tests.bench.interleave import interleaved_ratio
from tests.ingest import newsletter_mail as mail

MESSAGES = {"full": 1000, "small": 200, "smoke": 30}
BIG_MB = {"full": 10, "small": 10, "smoke": 1}
NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
KINDS = (
    mail.alternative,
    mail.html_only,
    mail.text_only,
    mail.latin1_quoted_printable,
    mail.shift_jis_base64,
    mail.roundup,
    mail.malformed,
    mail.with_attachment_and_inline_image,
)


def _messages(to: str, count: int, tag: str) -> list[bytes]:
    out = []
    for n in range(count):
        raw = KINDS[n % len(KINDS)](to, NOW - timedelta(minutes=n))
        # Each message its own issue: a distinct Message-ID.
        out.append(raw.replace(b"Message-ID: <", f"Message-ID: <{tag}{n}.".encode(), 1))
    return out


def _big(to: str, megabytes: int) -> bytes:
    paragraph = "<p>" + "Long newsletter paragraph with words in it. " * 20 + "</p>\n"
    # base64 makes 4 bytes of 3: the message, not its body, is `megabytes` long.
    body = paragraph * (megabytes * 1024 * 1024 * 3 // 4 // len(paragraph))
    return (
        f"From: Big Letter <big@big.example>\r\nTo: {to}\r\nSubject: The long read\r\n"
        "Message-ID: <big-1@big.example>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    ).encode() + base64.encodebytes(body.encode()).replace(b"\n", b"\r\n")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _items(address) -> int:
    return ContentItem.objects.filter(sources=address.source).count()


def run(size: str = "full") -> dict:
    count = MESSAGES[size]
    user = get_user_model().objects.create_user(
        username="bench-mailin", email="bench-mailin@example.com", password="x" * 20
    )
    with override_settings(NEWSLETTER_DAILY_LIMIT=10 * count + 10):
        direct_address = create_address(user, now=NOW, label="direct")
        smtp_address = create_address(user, now=NOW, label="smtp")

        # Baseline: the same work without SMTP.
        direct = _messages(direct_address.address, count, "d")
        started = time.perf_counter()
        for raw in direct:
            accept_message(
                [direct_address.address],
                raw,
                now=NOW,
                enqueue=lambda pk: read_message(pk, now=NOW),
            )
        direct_seconds = time.perf_counter() - started

        listener = controller(
            host="127.0.0.1",
            port=_free_port(),
            enqueue=lambda pk: read_message(pk, now=NOW),
            clock=lambda: NOW,
        )
        listener.start()
        try:
            messages = _messages(smtp_address.address, count, "s")
            started = time.perf_counter()
            with smtplib.SMTP("127.0.0.1", listener.port, timeout=30) as client:
                for raw in messages:
                    client.sendmail("bounce@news.example", [smtp_address.address], raw)
            smtp_seconds = time.perf_counter() - started
        finally:
            listener.stop()

        def ours(i: int) -> float:
            started = time.perf_counter()
            parse_message(messages[i])
            return time.perf_counter() - started

        def stdlib(i: int) -> float:
            started = time.perf_counter()
            BytesParser(policy=policy.default).parsebytes(messages[i]).get_body(("html", "plain"))
            return time.perf_counter() - started

        parsed = interleaved_ratio(ours, stdlib, len(messages))
        parse_ms = [seconds * 1000 for seconds in parsed.a]
        stdlib_ms = [seconds * 1000 for seconds in parsed.b]

        big_address = create_address(user, now=NOW, label="big")
        big = _big(big_address.address, BIG_MB[size])
        tracemalloc.start()
        rows = accept_message([big_address.address], big, now=NOW, enqueue=lambda pk: None)
        read_message(rows[0].pk, now=NOW)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        big_status = InboundMessage.objects.get(pk=rows[0].pk).status

    def pct(values, q):
        return round(statistics.quantiles(values, n=100)[q - 1], 2)

    smtp_rate = count / smtp_seconds
    direct_rate = count / direct_seconds
    return {
        "size": size,
        "messages": count,
        "smtp_messages_per_second": round(smtp_rate, 1),
        "direct_messages_per_second": round(direct_rate, 1),
        "ratio_smtp_to_direct": round(smtp_rate / direct_rate, 2),
        "parse_p50_ms": pct(parse_ms, 50),
        "parse_p99_ms": pct(parse_ms, 99),
        "stdlib_parse_p50_ms": pct(stdlib_ms, 50),
        "ratio_parse_to_stdlib_p50": round(parsed.ratio, 2),
        "big_message_mb": round(len(big) / 1e6, 1),
        "big_peak_mb": round(peak / 1e6, 1),
        "big_peak_ratio": round(peak / len(big), 1),
        "checks": {
            "every SMTP message is one item": _items(smtp_address) == count,
            "every direct message is one item": _items(direct_address) == count,
            "the big message became an item": big_status == "accepted",
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"mailin benchmark ({result['size']}) — {result['messages']} newsletters of 8 kinds, "
        f"and one {result['big_message_mb']} MB message",
        f"  SMTP over loopback into the pool: {result['smtp_messages_per_second']} messages/s; "
        f"direct (no SMTP): {result['direct_messages_per_second']} messages/s; "
        f"ratio SMTP ÷ direct: {result['ratio_smtp_to_direct']}",
        f"  parse: p50 {result['parse_p50_ms']} ms, p99 {result['parse_p99_ms']} ms; stdlib "
        f"parse alone p50 {result['stdlib_parse_p50_ms']} ms; ratio "
        f"{result['ratio_parse_to_stdlib_p50']}",
        f"  {result['big_message_mb']} MB message: Python peak {result['big_peak_mb']} MB "
        f"({result['big_peak_ratio']}× its size)",
    ]
