"""The in-app reader: one Inbox item as a clean page to read, from what the pool keeps.

The text is the item's own HTML from its source when that holds the article (already sanitized
at storage: ingest/text/sanitize.py), else the extracted full text (ingest/pool/bodies.py), else
the summary. It is cleaned again for display: images only over https (the CSP's img-src), lazy
and sent without a referrer, so opening an item tells the publisher nothing; links open outside
with `noopener noreferrer`. Nothing is fetched to show it: an item whose text is stored reads
offline. Opening an item marks it read, as opening it at its source does.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime

import nh3
from django.shortcuts import get_object_or_404
from django.utils.html import escape

from digests.models import RunItem
from inbox.listing import with_states
from inbox.states import apply_action
from ingest.pool.bodies import read_body
from ingest.text.sanitize import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, html_to_text

# Reading speeds: words a minute for space-separated languages, characters a minute for
# Chinese and Japanese (Korean separates words with spaces).
WORDS_PER_MINUTE = 230
CJK_CHARACTERS_PER_MINUTE = 500
# Source HTML shorter than this (as text) is a teaser: the extracted full text is the article.
ARTICLE_MIN_CHARS = 600
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass
class Reading:
    run_item: RunItem
    html: str  # safe to show
    minutes: int
    from_full_text: bool


def reading_minutes(text: str) -> int:
    cjk = len(_CJK.findall(text))
    words = len(_CJK.sub(" ", text).split())
    return max(1, math.ceil(words / WORDS_PER_MINUTE + cjk / CJK_CHARACTERS_PER_MINUTE))


def _image_attribute(element: str, attribute: str, value: str) -> str | None:
    if element == "img" and attribute == "src" and not value.startswith("https://"):
        return None
    return value


def display_html(stored_html: str) -> str:
    """Stored (sanitized) HTML as the reader shows it."""
    cleaned = nh3.clean(
        stored_html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        attribute_filter=_image_attribute,
        set_tag_attribute_values={
            "img": {"loading": "lazy", "referrerpolicy": "no-referrer"},
            "a": {"target": "_blank"},
        },
        strip_comments=True,
    )
    # An image left without its address shows nothing: drop it rather than a broken box.
    return re.sub(r"<img(?![^>]*\ssrc=)[^>]*>", "", cleaned)


def _paragraphs(text: str) -> str:
    blocks = [b.strip() for b in re.split(r"\n\s*\n|\n", text) if b.strip()]
    return "".join(f"<p>{escape(block)}</p>" for block in blocks)


def read_item(user, run_item_id: int, *, now: datetime) -> Reading:
    """The item for the reader (404 unless it is `user`'s), marked read."""
    run_item = get_object_or_404(
        RunItem.objects.select_related("item", "run__subscription"),
        pk=run_item_id,
        run__user=user,
    )
    item = run_item.item
    source_text = html_to_text(item.content_html) if item.content_html else ""
    full_text = ""
    if len(source_text) >= ARTICLE_MIN_CHARS:
        html, text = display_html(item.content_html), source_text
    elif full_text := read_body(item):
        html, text = _paragraphs(full_text), full_text
    elif source_text:
        html, text = display_html(item.content_html), source_text
    else:
        text = item.description or run_item.summary
        html = _paragraphs(text)
    run_item.state = apply_action(user, run_item, "read", now=now)
    with_states(user, [run_item])
    run_item.subscription_name = run_item.run.subscription.name
    return Reading(run_item, html, reading_minutes(text), bool(full_text))
