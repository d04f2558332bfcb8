"""Offline demo content: renders ingest/demo/articles.json into real RSS 2.0, Atom and JSON
Feed files, dated relative to `now` so the demo Inbox is fresh whenever it is set up."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from xml.etree import ElementTree as ET

ARTICLES = Path(__file__).parent / "demo" / "articles.json"
ATOM_NS = "http://www.w3.org/2005/Atom"
CONTENT_NS = "http://purl.org/rss/1.0/modules/content/"
EXTENSIONS = {"rss": "xml", "atom": "atom", "jsonfeed": "json"}


def _rss(feed: dict, now: datetime) -> bytes:
    ET.register_namespace("content", CONTENT_NS)
    rss = ET.Element("rss", version="2.0")
    channel = ET.SubElement(rss, "channel")
    ET.SubElement(channel, "title").text = feed["title"]
    ET.SubElement(channel, "link").text = feed["site_url"]
    ET.SubElement(channel, "description").text = feed["description"]
    ET.SubElement(channel, "language").text = "en"
    for item in feed["items"]:
        entry = ET.SubElement(channel, "item")
        ET.SubElement(entry, "title").text = item["title"]
        ET.SubElement(entry, "link").text = item["url"]
        ET.SubElement(entry, "guid", isPermaLink="true").text = item["url"]
        ET.SubElement(entry, "author").text = item["author"]
        ET.SubElement(entry, "pubDate").text = format_datetime(
            now - timedelta(hours=item["hours_ago"])
        )
        ET.SubElement(entry, "description").text = item["summary"]
        ET.SubElement(entry, f"{{{CONTENT_NS}}}encoded").text = item["content_html"]
    return ET.tostring(rss, encoding="utf-8", xml_declaration=True)


def _atom(feed: dict, now: datetime) -> bytes:
    ET.register_namespace("", ATOM_NS)

    def sub(parent, tag, text=None, **attrs):
        element = ET.SubElement(parent, f"{{{ATOM_NS}}}{tag}", **attrs)
        if text is not None:
            element.text = text
        return element

    root = ET.Element(f"{{{ATOM_NS}}}feed")
    sub(root, "title", feed["title"])
    sub(root, "subtitle", feed["description"])
    sub(root, "link", href=feed["site_url"], rel="alternate")
    sub(root, "id", feed["site_url"])
    sub(root, "updated", now.isoformat())
    for item in feed["items"]:
        entry = sub(root, "entry")
        sub(entry, "title", item["title"])
        sub(entry, "link", href=item["url"], rel="alternate")
        sub(entry, "id", item["url"])
        published = (now - timedelta(hours=item["hours_ago"])).isoformat()
        sub(entry, "published", published)
        sub(entry, "updated", published)
        sub(sub(entry, "author"), "name", item["author"])
        sub(entry, "summary", item["summary"])
        sub(entry, "content", item["content_html"], type="html")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _json_feed(feed: dict, now: datetime) -> bytes:
    document = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": feed["title"],
        "home_page_url": feed["site_url"],
        "description": feed["description"],
        "language": "en",
        "items": [
            {
                "id": item["url"],
                "url": item["url"],
                "title": item["title"],
                "summary": item["summary"],
                "content_html": item["content_html"],
                "date_published": (now - timedelta(hours=item["hours_ago"])).isoformat(),
                "authors": [{"name": item["author"]}],
            }
            for item in feed["items"]
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


RENDERERS = {"rss": _rss, "atom": _atom, "jsonfeed": _json_feed}


def load_demo_feeds() -> list[dict]:
    return json.loads(ARTICLES.read_text(encoding="utf-8"))["feeds"]


def write_demo_feeds(folder: Path, *, now: datetime) -> list[tuple[dict, Path]]:
    """Write one feed file per demo feed into `folder`; returns (feed, path) pairs."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for feed in load_demo_feeds():
        path = folder / f"{feed['slug']}.{EXTENSIONS[feed['format']]}"
        path.write_bytes(RENDERERS[feed["format"]](feed, now))
        written.append((feed, path))
    return written
