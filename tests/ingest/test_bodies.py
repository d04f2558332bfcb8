"""Where full text lives: inline when small, gzip in the default storage when large
(ingest/pool/bodies.py) — on the filesystem and on S3 (moto's server with the real S3Storage)."""

from __future__ import annotations

import gzip
import logging

import boto3
import pytest
from django.core.files.storage import storages
from django.test import override_settings
from moto.server import ThreadedMotoServer
from storages.backends.s3 import S3Storage

from ingest.canonical import url_hash
from ingest.models import ContentItem
from ingest.pool import bodies

SMALL = "A short note.\nTwo lines."
LARGE = "\n".join(f"Paragraph {n}: vacuum, analyze and the planner." for n in range(3000))


def make_item(now, n: int = 1) -> ContentItem:
    url = f"https://bodies.example/{n}"
    return ContentItem.objects.create(
        canonical_url=url, canonical_url_hash=url_hash(url), first_seen_at=now, last_seen_at=now
    )


def store(item: ContentItem, text: str) -> None:
    item.save(update_fields=bodies.store_body(item, text))


@pytest.fixture
def media(tmp_path):
    with override_settings(
        MEDIA_ROOT=tmp_path,
        STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}},
        BODY_INLINE_MAX_BYTES=1024,
    ):
        yield tmp_path


def test_a_small_body_stays_in_the_row(media, now, db):
    item = make_item(now)
    store(item, SMALL)

    item.refresh_from_db()
    assert (item.full_text, item.full_text_key) == (SMALL, "")
    assert bodies.read_body(item) == SMALL
    assert not list(media.rglob("*.gz"))


def test_a_large_body_goes_to_storage_gzip_compressed(media, now, db):
    item = make_item(now)
    store(item, LARGE)

    item.refresh_from_db()
    # The row keeps only the head, which is what summaries and reading levels read.
    assert item.full_text == LARGE[: bodies.INLINE_HEAD_CHARS]
    stored = media / item.full_text_key
    assert gzip.decompress(stored.read_bytes()).decode() == LARGE
    assert stored.stat().st_size < len(LARGE.encode()) / 5
    assert bodies.read_body(item) == LARGE


def test_the_threshold_is_a_setting_in_bytes_of_utf8(media, now, db):
    text = "é" * 600  # 600 characters, 1,200 bytes
    item = make_item(now)
    store(item, text)
    assert item.full_text_key != ""
    with override_settings(BODY_INLINE_MAX_BYTES=2000):
        other = make_item(now, 2)
        store(other, text)
        assert other.full_text == text


def test_items_with_the_same_text_share_one_stored_object(media, now, db):
    first, second = make_item(now, 1), make_item(now, 2)
    store(first, LARGE)
    store(second, LARGE)

    assert first.full_text_key == second.full_text_key
    assert len(list(media.rglob("*.gz"))) == 1


def test_nothing_over_ten_megabytes_is_kept(media, now, db):
    item = make_item(now)
    with pytest.raises(bodies.BodyTooLarge):
        bodies.store_body(item, "x" * (bodies.MAX_BODY_BYTES + 1))
    assert (item.full_text, item.full_text_key) == ("", "")
    assert not list(media.rglob("*.gz"))


def test_a_missing_stored_body_reads_as_empty_and_is_logged(media, now, db, caplog):
    item = make_item(now)
    store(item, LARGE)
    (media / item.full_text_key).unlink()

    with caplog.at_level(logging.WARNING, logger="ingest.pool.bodies"):
        assert bodies.read_body(item) == ""
    assert item.full_text_key in caplog.text


def test_a_stored_body_that_inflates_past_the_cap_is_refused(media, now, db, monkeypatch):
    item = make_item(now)
    store(item, LARGE)
    monkeypatch.setattr(bodies, "MAX_BODY_BYTES", 1000)

    assert bodies.read_body(item) == ""


# --- S3: the real django-storages backend against moto's server on loopback -------------------

BUCKET = "tidings-bodies"


@pytest.fixture(scope="module")
def s3_endpoint():
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3(s3_endpoint, monkeypatch):
    credentials = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1", **credentials)
    client.create_bucket(Bucket=BUCKET)
    storages = {
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": BUCKET,
                "endpoint_url": s3_endpoint,
                "access_key": "testing",
                "secret_key": "testing",
                "region_name": "us-east-1",
                "default_acl": None,
            },
        }
    }
    with override_settings(STORAGES=storages, BODY_INLINE_MAX_BYTES=1024):
        yield client
    for listed in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=listed["Key"])
    client.delete_bucket(Bucket=BUCKET)


def test_on_s3_a_large_body_is_stored_compressed_and_read_back(s3, now, db):
    assert isinstance(storages["default"], S3Storage)  # the real backend, not a stand-in
    item = make_item(now)
    store(item, LARGE)

    item.refresh_from_db()
    assert item.full_text == LARGE[: bodies.INLINE_HEAD_CHARS]
    stored = s3.get_object(Bucket=BUCKET, Key=item.full_text_key)["Body"].read()
    assert gzip.decompress(stored).decode() == LARGE
    assert bodies.read_body(item) == LARGE


def test_on_s3_the_same_text_is_uploaded_once(s3, now, db):
    store(make_item(now, 1), LARGE)
    store(make_item(now, 2), LARGE)

    assert s3.list_objects_v2(Bucket=BUCKET)["KeyCount"] == 1


def test_on_s3_a_missing_object_reads_as_empty(s3, now, db):
    item = make_item(now)
    store(item, LARGE)
    s3.delete_object(Bucket=BUCKET, Key=item.full_text_key)

    assert bodies.read_body(item) == ""
