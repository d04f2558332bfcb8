"""What search engines and link previews read on public pages: absolute canonical URLs, meta
descriptions, Open Graph / Twitter cards and JSON-LD. Titles and descriptions come from users
and feeds, so everything here is data for templates that escape it (JSON-LD is serialized with
<, > and & escaped so it can never close its script element)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from config.moments import day
from topics.models import Edition, Topic

DESCRIPTION_MAX = 160


def absolute(path: str) -> str:
    """The canonical absolute URL of a path on this site (SITE_URL, never the Host header)."""
    return f"{settings.SITE_URL}{path}"


def clip(text: str, limit: int = DESCRIPTION_MAX) -> str:
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


def topic_description(topic: Topic) -> str:
    return clip(
        topic.description
        or gettext("%(title)s — a public brief on Tidings.") % {"title": topic.title}
    )


def topic_jsonld(topic: Topic, editions: list[Edition]) -> dict:
    url = absolute(topic.get_absolute_url())
    data = {
        "@context": "https://schema.org",
        "@type": "CollectionPage",
        "@id": url,
        "url": url,
        "name": topic.title,
        "description": topic_description(topic),
        "inLanguage": topic.locale,
        "mainEntity": {
            "@type": "ItemList",
            "itemListElement": [
                {
                    "@type": "ListItem",
                    "position": position,
                    "url": absolute(edition.get_absolute_url()),
                    "name": f"{topic.title} — {edition.edition_date:%Y-%m-%d}",
                }
                for position, edition in enumerate(editions, start=1)
            ],
        },
    }
    if topic.updated_at:
        data["dateModified"] = (topic.last_edition_at or topic.updated_at).isoformat()
    return data


def topics_list_jsonld(title: str, path: str, topics: list[Topic]) -> dict:
    return {
        "@context": "https://schema.org",
        "@type": "CollectionPage",
        "url": absolute(path),
        "name": title,
        "mainEntity": {
            "@type": "ItemList",
            "itemListElement": [
                {
                    "@type": "ListItem",
                    "position": position,
                    "url": absolute(topic.get_absolute_url()),
                    "name": topic.title,
                }
                for position, topic in enumerate(topics, start=1)
            ],
        },
    }


def edition_jsonld(topic: Topic, edition: Edition, items) -> dict:
    url = absolute(edition.get_absolute_url())
    headline = f"{topic.title} — {edition.edition_date:%Y-%m-%d}"
    return {
        "@context": "https://schema.org",
        "@type": "Article",
        "@id": url,
        "url": url,
        "mainEntityOfPage": url,
        "headline": clip(headline, 110),
        "description": edition_description(topic, edition, items),
        "datePublished": edition.published_at.isoformat(),
        "dateModified": (edition.finished_at or edition.published_at).isoformat(),
        "inLanguage": edition.output_locale,
        "author": {"@type": "Organization", "name": "Tidings"},
        "publisher": {"@type": "Organization", "name": "Tidings"},
        "isPartOf": {"@type": "CollectionPage", "url": absolute(topic.get_absolute_url())},
        "citation": [item.url for item in items],
    }


def edition_description(topic: Topic, edition: Edition, items) -> str:
    titles = "; ".join(item.title for item in list(items)[:3])
    return clip(f"{topic.title}, {day(edition.edition_date)}: {titles}")
