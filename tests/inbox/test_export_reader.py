"""The import reads a document piece by piece (inbox/portability/reader.py): whatever the
block boundaries and the white space, it reads what json.loads reads, and refuses what the
API's JSON rules refuse."""

from __future__ import annotations

import io
import json

import pytest
from django.utils import timezone

from inbox.portability import reader
from inbox.portability.export import stream_export
from inbox.portability.importing import ImportRefused, import_export, open_document
from tests.inbox.portability_data import populate

pytestmark = pytest.mark.django_db


def read_all(data: bytes) -> dict:
    document: dict = {}
    for kind, where, value in reader.events(io.BytesIO(data)):
        if kind == "member":
            document.setdefault(where, value)
        elif kind == "item":
            document.setdefault(where[0], []).append(value)
    return document


@pytest.mark.parametrize("block", [1, 2, 7, 64, 1 << 20])
def test_any_block_size_reads_the_same_document(alice, monkeypatch, block):
    populate(alice, now=timezone.now())
    compact = "".join(stream_export(alice, now=timezone.now())).encode()
    pretty = json.dumps(json.loads(compact), indent=2, ensure_ascii=True).encode()
    monkeypatch.setattr(reader, "BLOCK", block)
    assert read_all(compact) == json.loads(compact)
    assert read_all(pretty) == json.loads(compact)


def test_a_pretty_printed_export_imports_like_the_compact_one(alice, bob, monkeypatch):
    populate(alice, now=timezone.now())
    compact = "".join(stream_export(alice, now=timezone.now())).encode()
    pretty = json.dumps(json.loads(compact), indent=1).encode()
    monkeypatch.setattr(reader, "BLOCK", 5)
    summary = import_export(bob, io.BytesIO(pretty), now=timezone.now())
    assert summary.runs_created == 4 and summary.run_items_created == 12


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'{"format": "tidings-export@1"} trailing', "parse_error"),
        (b'{"format": "tidings-export@1", "format": "x"}', "parse_error"),
        (b'{"format": "tidings-export@1", "runs": [1, 2,]}', "parse_error"),
        (b'{"format": "tidings-export@1", "runs": [NaN]}', "parse_error"),
        (b'{"format": "tidings-export@1", "runs": [1e999]}', "parse_error"),
        (b'{"format": "tidings-export@1", "runs": ["a\\u0000b"]}', "bad_text"),
        (b'{"format": "tidings-export@1", "runs": [' + b"[" * 30 + b"]" * 30 + b"]}", "too_deep"),
        (b'{"format": "tidings-export@1", "runs": [{"a": 1, "a": 2}]}', "parse_error"),
        (b'{"format": "tidings-export@1"', "parse_error"),
        (b"\xff", "parse_error"),
        (b"[]", "unsupported_format"),
        (b"{}", "unsupported_format"),
        (b"", "parse_error"),
    ],
)
def test_what_the_apis_json_rules_refuse_is_refused(data, code, monkeypatch):
    monkeypatch.setattr(reader, "BLOCK", 3)
    with pytest.raises(ImportRefused) as refused:
        open_document(data)
    assert refused.value.code == code
