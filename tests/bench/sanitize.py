"""`sanitize`: feedparser's built-in HTML sanitizer against nh3 (ingest.text.sanitize).

Speed, on the entry HTML of real feeds (../shared/corpora/feeds when present, else the
fixtures in tests/ingest/testdata): feedparser.parse() on the same bytes with sanitize_html on
and off (relative-URI resolution off in both, so the difference is the sanitizer alone), each
file timed alternately and the best of REPEATS kept; then nh3 over the HTML summaries and
contents of the same entries, with the per-item base URL as parse_feed passes it.
ratio = feedparser-sanitizer seconds ÷ nh3 seconds.

Safety: a table of XSS vectors fed through both (feedparser via a one-item RSS feed with its
defaults, nh3 as parse_feed calls it); a small strict checker (lxml) reports what each lets
through: dangerous elements, event handlers, style with script, and URL attributes whose scheme
is not http, https or mailto.

Sizes (tests/bench/sizes.py), of the shared corpus's XML feeds: full = all 284 files (best of 2
runs each); small = every 4th (best of 2); smoke = every 15th, timed once. The fixtures are
read whole at every size; so are the 18 vectors. Check: nh3 lets no vector through.
"""

from __future__ import annotations

import html
import io
import math
import re
import time
from pathlib import Path
from urllib.parse import urljoin

import feedparser
from django.conf import settings
from lxml import etree
from lxml import html as lxml_html

import ingest.feeds.parse  # noqa: F401  (the parse configuration in use: DOCTYPEs are never expanded)
from ingest.text.sanitize import sanitize_html
from tests.bench.corpus import FEED_SUFFIXES, SHARED_FEEDS, feed_files
from tests.bench.sizes import every_nth

FALLBACK_FEEDS = Path(settings.BASE_DIR) / "tests" / "ingest" / "testdata"
# feedparser 6.0 reads no JSON Feed, so only XML formats are timed.
XML_FEED_SUFFIXES = FEED_SUFFIXES - {".json"}
REPEATS = {"full": 2, "small": 2, "smoke": 1}
VECTOR_BASE = "https://feed.example/posts/1"

# --- the checker --------------------------------------------------------------------------------

DANGEROUS_TAGS = {
    "applet", "base", "button", "embed", "form", "frame", "frameset", "iframe", "input", "link",
    "math", "meta", "noscript", "object", "param", "portal", "script", "select", "style", "svg",
    "template", "textarea",
}  # fmt: skip
URL_ATTRIBUTES = {
    "action", "archive", "background", "cite", "classid", "codebase", "data", "dynsrc",
    "formaction", "href", "icon", "longdesc", "lowsrc", "manifest", "ping", "poster", "profile",
    "src", "srcset", "usemap",
}  # fmt: skip
SAFE_SCHEMES = {"http", "https", "mailto"}
# Browsers drop tab and newline anywhere in a URL and C0 controls/spaces around it.
_URL_NOISE = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.IGNORECASE)
_DANGEROUS_CSS = re.compile(
    r"expression\s*\(|javascript:|vbscript:|behavior\s*:|-moz-binding|@import"
    r"|url\s*\(\s*['\"]?\s*(?!https?:)[a-z][a-z0-9+.\-]*:",
    re.IGNORECASE,
)


def _scheme(value: str) -> str:
    match = _SCHEME.match(_URL_NOISE.sub("", value))
    return match.group(1).lower() if match else ""


def _elements(fragment: str):
    if not fragment or not fragment.strip():
        return []
    try:
        root = lxml_html.fragment_fromstring(fragment, create_parent="div")
    except (etree.ParserError, ValueError):
        return []
    return [el for el in root.iter() if isinstance(el.tag, str)]


def unsafe_findings(fragment: str) -> list[str]:
    """What a browser could run or be redirected by in `fragment` (empty list: looks safe)."""
    findings: list[str] = []
    for element in _elements(fragment):
        tag = element.tag.lower().rsplit("}", 1)[-1]
        if tag in DANGEROUS_TAGS:
            findings.append(f"<{tag}>")
        for raw_name, value in element.attrib.items():
            name = raw_name.lower()
            if name.startswith("on"):
                findings.append(f"{tag}[{name}]")
            elif name == "style" and _DANGEROUS_CSS.search(value):
                findings.append(f"{tag}[style]")
            elif name == "http-equiv":
                findings.append(f"{tag}[http-equiv]")
            elif name in URL_ATTRIBUTES or name.endswith(":href"):
                candidates = value.split(",") if name == "srcset" else [value]
                for candidate in candidates:
                    scheme = _scheme(candidate.strip().split(" ")[0])
                    if scheme and scheme not in SAFE_SCHEMES:
                        findings.append(f"{tag}[{name}]={scheme}:")
    return findings


def non_absolute_urls(fragment: str) -> list[str]:
    """href/src values in `fragment` that are not absolute http(s)/mailto URLs."""
    found = []
    for element in _elements(fragment):
        for name in ("href", "src"):
            value = element.get(name)
            if value is not None and _scheme(value) not in SAFE_SCHEMES:
                found.append(value)
    return found


# --- the vectors --------------------------------------------------------------------------------

VECTORS: tuple[tuple[str, str], ...] = (
    ("script element", "<script>alert(1)</script><p>x</p>"),
    ("javascript: link", '<a href="javascript:alert(1)">x</a>'),
    ("entity-encoded jav&#x61;script:", '<a href="jav&#x61;script:alert(1)">x</a>'),
    ("tab-split java&#9;script:", '<a href="java&#9;script:alert(1)">x</a>'),
    (
        "svg a xlink:href=javascript:",
        '<svg><a xlink:href="javascript:alert(1)"><text x="0" y="20">x</text></a></svg>',
    ),
    (
        "math maction xlink:href",
        '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">'
        "<mtext>x</mtext></maction></math>",
    ),
    ("math href=javascript:", '<math href="javascript:alert(1)"><mi>x</mi></math>'),
    ("form action (phishing)", '<form action="https://evil.example/"><input name="pw"></form>'),
    ("button formaction", '<button formaction="javascript:alert(1)">x</button>'),
    ("event handler", '<p onmouseover="alert(1)">x</p>'),
    ("img src=x onerror", '<img src="x" onerror="alert(1)">'),
    ("iframe", '<iframe src="https://evil.example/"></iframe>'),
    ("object data=javascript:", '<object data="javascript:alert(1)"></object>'),
    ("style expression()", '<div style="width: expression(alert(1))">x</div>'),
    ("style url(javascript:)", '<div style="background:url(javascript:alert(1))">x</div>'),
    (
        "data: URL link",
        '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    ),
    ("base href", '<base href="https://evil.example/"><a href="/x">x</a>'),
    (
        "meta refresh",
        '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><p>x</p>',
    ),
)


def _through_feedparser(fragment: str, *, resolve_relative_uris: bool) -> str:
    document = (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>t</title>'
        f"<item><title>t</title><link>{VECTOR_BASE}</link>"
        f"<description>{html.escape(fragment)}</description></item></channel></rss>"
    ).encode()
    parsed = feedparser.parse(
        io.BytesIO(document),
        response_headers={"content-location": VECTOR_BASE},
        sanitize_html=True,
        resolve_relative_uris=resolve_relative_uris,
    )
    return parsed.entries[0].get("summary", "") if parsed.entries else ""


def vector_table() -> list[dict]:
    """Each vector through feedparser's defaults (sanitizer + relative-URI resolution, which
    also drops URLs with unknown schemes), through feedparser's sanitizer alone, and nh3."""
    rows = []
    for name, fragment in VECTORS:
        by_defaults = _through_feedparser(fragment, resolve_relative_uris=True)
        by_sanitizer = _through_feedparser(fragment, resolve_relative_uris=False)
        by_nh3 = sanitize_html(fragment, base_url=VECTOR_BASE)
        rows.append(
            {
                "vector": name,
                "input": fragment,
                "feedparser_output": by_defaults,
                "feedparser_findings": unsafe_findings(by_defaults),
                "feedparser_sanitizer_only_output": by_sanitizer,
                "feedparser_sanitizer_only_findings": unsafe_findings(by_sanitizer),
                "nh3_output": by_nh3,
                "nh3_findings": unsafe_findings(by_nh3),
            }
        )
    return rows


# --- speed --------------------------------------------------------------------------------------


def corpus_files(corpus: str | None, size: str) -> tuple[str, list[Path]]:
    folder = Path(corpus) if corpus else SHARED_FEEDS
    if folder.is_dir():
        return str(folder), every_nth(feed_files(folder, XML_FEED_SUFFIXES), size)
    print(f"sanitize: no corpus at {folder}; using the fixtures in {FALLBACK_FEEDS}")
    return str(FALLBACK_FEEDS), feed_files(FALLBACK_FEEDS, XML_FEED_SUFFIXES)


def _html_fragments(parsed) -> list[tuple[str, str]]:
    """(HTML, base URL) for each HTML summary and content of each entry. feedparser copies a
    content into a missing summary after sanitizing it once, so such a copy is left out."""
    fragments = []
    for entry in parsed.entries:
        base = urljoin(VECTOR_BASE, entry.get("link", "") or "")
        values = []
        for content in entry.get("content", []):
            if content.get("value") and "html" in content.get("type", "text/html"):
                values.append(content["value"])
        summary = entry.get("summary", "")
        html_summary = "html" in entry.get("summary_detail", {}).get("type", "text/html")
        if summary and html_summary and summary not in values:
            values.append(summary)
        fragments += [(value, base) for value in values]
    return fragments


def _timed_parse(data: bytes, *, sanitize: bool):
    started = time.perf_counter()
    parsed = feedparser.parse(io.BytesIO(data), sanitize_html=sanitize, resolve_relative_uris=False)
    return time.perf_counter() - started, parsed


def speed(files: list[Path], repeats: int) -> dict:
    parse_off = parse_on = 0.0
    entries = 0
    fragments: list[tuple[str, str]] = []
    for path in files:
        data = path.read_bytes()
        best_off = best_on = math.inf
        for _ in range(repeats):
            seconds, parsed = _timed_parse(data, sanitize=False)
            best_off = min(best_off, seconds)
            seconds, _ = _timed_parse(data, sanitize=True)
            best_on = min(best_on, seconds)
        parse_off += best_off
        parse_on += best_on
        entries += len(parsed.entries)
        fragments += _html_fragments(parsed)
    nh3_seconds = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        for fragment, base in fragments:
            sanitize_html(fragment, base_url=base)
        nh3_seconds = min(nh3_seconds, time.perf_counter() - started)
    sanitizer_seconds = max(parse_on - parse_off, 0.0)
    return {
        "entries": entries,
        "html_fragments": len(fragments),
        "html_bytes": sum(len(fragment.encode()) for fragment, _ in fragments),
        "parse_seconds_sanitize_off": round(parse_off, 3),
        "parse_seconds_sanitize_on": round(parse_on, 3),
        "feedparser_sanitizer_seconds": round(sanitizer_seconds, 3),
        "sanitizer_share_of_parse": round(sanitizer_seconds / parse_on, 4) if parse_on else 0.0,
        "nh3_seconds": round(nh3_seconds, 4),
    }


def run(size: str = "full", corpus: str | None = None) -> dict:
    label, files = corpus_files(corpus, size)
    figures = speed(files, REPEATS[size])
    rows = vector_table()
    nh3_seconds = figures["nh3_seconds"]
    return {
        "name": "sanitize",
        "size": size,
        "corpus": label,
        "files": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        "repeats": REPEATS[size],
        **figures,
        "vectors": len(rows),
        "feedparser_lets_through": sum(bool(row["feedparser_findings"]) for row in rows),
        "feedparser_sanitizer_only_lets_through": sum(
            bool(row["feedparser_sanitizer_only_findings"]) for row in rows
        ),
        "nh3_lets_through": sum(bool(row["nh3_findings"]) for row in rows),
        "vector_table": rows,
        "ratio": round(figures["feedparser_sanitizer_seconds"] / nh3_seconds, 2)
        if nh3_seconds
        else None,
        "checks": {"nh3 lets no XSS vector through": not any(row["nh3_findings"] for row in rows)},
    }


def _verdict(findings: list[str]) -> str:
    return "THROUGH: " + ", ".join(findings) if findings else "blocked"


def describe(result: dict) -> list[str]:
    lines = [
        f"sanitize benchmark ({result['size']}) — corpus: {result['corpus']}",
        f"  data: {result['files']} feed files, {result['bytes'] / 1e6:.1f} MB, "
        f"{result['entries']} entries, {result['html_fragments']} HTML summaries/contents "
        f"({result['html_bytes'] / 1e6:.1f} MB); best of {result['repeats']} runs",
        f"  feedparser.parse sanitize_html=False: {result['parse_seconds_sanitize_off']} s; "
        f"sanitize_html=True: {result['parse_seconds_sanitize_on']} s "
        f"(resolve_relative_uris=False in both)",
        f"  feedparser's sanitizer: {result['feedparser_sanitizer_seconds']} s = "
        f"{result['sanitizer_share_of_parse']:.1%} of parse time",
        f"  nh3 (ingest.text.sanitize.sanitize_html, per-item base URL) over the same HTML: "
        f"{result['nh3_seconds']} s",
        f"  ratio (feedparser sanitizer ÷ nh3): {result['ratio']}",
        f"  XSS vectors: {result['vectors']}; let through by feedparser defaults: "
        f"{result['feedparser_lets_through']}, by feedparser's sanitizer alone "
        f"(resolve_relative_uris=False): {result['feedparser_sanitizer_only_lets_through']}, "
        f"by nh3: {result['nh3_lets_through']}",
    ]
    rows = result["vector_table"]
    first = max(len(row["vector"]) for row in rows)
    second = max(len(_verdict(row["feedparser_findings"])) for row in rows)
    third = max(len(_verdict(row["feedparser_sanitizer_only_findings"])) for row in rows)
    lines.append(
        f"  {'vector':<{first}} | {'feedparser defaults':<{second}} | "
        f"{'feedparser sanitizer alone':<{third}} | nh3"
    )
    for row in rows:
        lines.append(
            f"  {row['vector']:<{first}} | {_verdict(row['feedparser_findings']):<{second}} | "
            f"{_verdict(row['feedparser_sanitizer_only_findings']):<{third}} | "
            f"{_verdict(row['nh3_findings'])}"
        )
    return lines
