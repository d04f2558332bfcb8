"""Where an item's full text lives (SPEC §2 "Storage and scale", seed 000 §7.2).

Small bodies stay in the database (`ContentItem.full_text`). A body above
`settings.BODY_INLINE_MAX_BYTES` (UTF-8 bytes) goes gzip-compressed to Django's default storage
— the filesystem under DATA_DIR unless S3-compatible storage is configured — and the item keeps
its key (`full_text_key`) and the first INLINE_HEAD_CHARS characters: summaries, reading
levels and fingerprints read only the start of a text, so they never open storage. Keys are
content addressed (`bodies/<sha256 of the text>`), so items with the same text share one
object and storing it again uploads nothing. Nothing over
MAX_BODY_BYTES is kept at all: the caller marks the item `content_too_large`.

Because objects are shared by content, replacing an item's body never deletes the old object
(another item may point at it); unreferenced objects are left for a sweep.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import logging
import zlib

from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from ingest.fetching import fetch
from ingest.models import ContentItem

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = fetch.PAGE_MAX_BYTES
KEY_PREFIX = "bodies"
# Reading inflates at most this much at a time, so a corrupt or hostile object cannot allocate
# more than MAX_BODY_BYTES before it is refused.
_READ_STEP = 64 * 1024


class BodyTooLarge(ValueError):
    """The text is over MAX_BODY_BYTES: it is not kept anywhere."""


# What reading a stored body may raise: the filesystem's errors, S3's (django-storages turns
# only a 404 into FileNotFoundError), and a corrupt or oversized object.
_UNREADABLE = (OSError, EOFError, zlib.error, UnicodeDecodeError, BodyTooLarge)
_STORAGE_ERRORS = (BotoCoreError, ClientError)


INLINE_HEAD_CHARS = 4000


def body_key(text_hash: str) -> str:
    return f"{KEY_PREFIX}/{text_hash[:2]}/{text_hash}.txt.gz"


def _compress(data: bytes) -> bytes:
    # mtime=0: the same text always compresses to the same bytes.
    return gzip.compress(data, compresslevel=6, mtime=0)


def _inflate(blob: bytes) -> bytes:
    inflater = zlib.decompressobj(wbits=31)  # gzip framing
    out = io.BytesIO()
    data = blob
    while data:
        out.write(inflater.decompress(data, _READ_STEP))
        if out.tell() > MAX_BODY_BYTES:
            raise BodyTooLarge(f"a stored body inflates to more than {MAX_BODY_BYTES} bytes")
        data = inflater.unconsumed_tail
    out.write(inflater.flush())
    return out.getvalue()


def store_body(item: ContentItem, text: str) -> list[str]:
    """Put `text` on `item` (in the row or in storage) and return the fields that changed, for
    `save(update_fields=…)`. Saving the row is the caller's job; the object in storage, when
    there is one, is written before, so a saved key always points at a stored body."""
    data = text.encode("utf-8")
    if len(data) > MAX_BODY_BYTES:
        raise BodyTooLarge(f"the text is {len(data)} bytes; at most {MAX_BODY_BYTES} are kept")
    if len(data) <= settings.BODY_INLINE_MAX_BYTES:
        item.full_text, item.full_text_key = text, ""
        return ["full_text", "full_text_key"]
    key = body_key(hashlib.sha256(data).hexdigest())
    if not default_storage.exists(key):
        # FileSystemStorage renames on a name clash (two workers storing one body at once):
        # keep the name it actually used.
        key = default_storage.save(key, ContentFile(_compress(data)))
    item.full_text, item.full_text_key = text[:INLINE_HEAD_CHARS], key
    return ["full_text", "full_text_key"]


def clear_body(item: ContentItem) -> list[str]:
    """Forget the item's body (the stored object may be shared; see the module docstring)."""
    item.full_text, item.full_text_key = "", ""
    return ["full_text", "full_text_key"]


def read_body(item: ContentItem) -> str:
    """The item's full text, wherever it is kept; "" when it has none, or when its stored
    object is missing or unreadable (logged: the item still has its title and summary)."""
    if not item.full_text_key:
        return item.full_text
    try:
        with default_storage.open(item.full_text_key, "rb") as stored:
            blob = stored.read(MAX_BODY_BYTES + 1)
        return _inflate(blob).decode("utf-8")
    except (*_UNREADABLE, *_STORAGE_ERRORS) as exc:
        logger.warning("body %s of item %s unreadable: %s", item.full_text_key, item.pk, exc)
        return ""
