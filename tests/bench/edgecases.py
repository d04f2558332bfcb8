"""`edgecases`: feedparser's own edge-case suite through Tidings' parse configuration.

Corpus: ../shared/corpora/feed_edgecases (feedparser's tests/wellformed, illformed, encoding,
entities and json, each file annotated with an `Expect:` expression; expectations.jsonl lists
them). Every runnable file (its `SkipUnless:` holds) is parsed twice:

- defaults: feedparser.parse() with its defaults (its sanitizer, relative-URI resolution and
  its own DOCTYPE handling, i.e. with ingest.feeds.parse' replacement taken out for the call);
- ours: ingest.feeds.parse._feedparser_result(), the exact call parse_feed() makes.

Files whose name contains "http" are served by feedparser's suite from a local HTTP server
with the file's `Header:` lines; here those headers are injected as feedparser's
response_headers (Content-Type defaulting to text/xml, as the suite's server does), with the
document URL as the base. parse_feed() is only ever given the base URL, so that is all "ours"
gets.

Each expectation that holds under the defaults but not under ours is attributed by re-running
the defaults with one factor changed: sanitize_html off, resolve_relative_uris off, our DOCTYPE
replacement (entities never expanded, SPEC §4.2), or only the base URL as headers. Sanitizing
and relative URIs are done later by nh3 with per-item base URLs, so for those files the stored
HTML (parse_feed's output) is checked to be safe and absolute instead. What remains is listed.

"Fields we keep" (what parse_feed stores): feed title, link, language; entry title, link, id
(guid), summary (description), content, author, published/updated (and their _parsed forms and
feedparser's aliases); title_detail/summary_detail only for their value and type. An
expectation is about kept fields when every field it references is one of these.

ratio = expectations holding under ours ÷ holding under the defaults.

Sizes (tests/bench/sizes.py): full = all 2,107 annotated files (9 MB); small = every 4th of
each category (529); smoke = every 15th of each category (144). Without the corpus the result
is `skipped` (the repository has no annotated edge-case files of its own). Checks: the stored
HTML of every file whose expectation fails for sanitizing or relative URIs is safe and
absolute, and no lost expectation is unexplained.
"""

from __future__ import annotations

import ast
import datetime
import io
import json
import posixpath
import re
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import feedparser
import feedparser.api
import feedparser.sanitizer
import feedparser.urls
from django.conf import settings

from ingest.feeds.parse import FeedParseError, _feedparser_result, _plain_text, parse_feed
from ingest.text.sanitize import html_to_text
from tests.bench.corpus import feedparser_as_shipped
from tests.bench.sanitize import non_absolute_urls, unsafe_findings
from tests.bench.sizes import every_nth

CORPUS = Path(settings.BASE_DIR).parent / "shared" / "corpora" / "feed_edgecases"
CATEGORIES = ("wellformed", "illformed", "encoding", "entities", "json")
# feedparser's suite serves its http_* files from here.
DOC_ROOT = "http://127.0.0.1:8097/"

# The same patterns as feedparser's tests/helpers.py.
SKIP_RE = re.compile(r"SkipUnless:\s*(.*?)\n")
DESC_RE = re.compile(r"Description:\s*(.*?)\s*Expect:\s*(.*)\s*-->")
HEADERS_RE = re.compile(r"^Header:\s+([^:]+):(.*)$", re.MULTILINE)

FEED_KEPT = frozenset({"title", "link", "language"})
ENTRY_KEPT = frozenset(
    {
        "title", "link", "id", "guid", "summary", "description", "content", "author",
        "published", "published_parsed", "updated", "updated_parsed",
        # feedparser's aliases of the above
        "issued", "issued_parsed", "modified", "modified_parsed", "date", "date_parsed",
    }
)  # fmt: skip
KEPT_DETAILS = frozenset({"title_detail", "summary_detail", "description_detail"})
HELPER_NAMES = frozenset({"bozo", "len", "isinstance", "ord", "str", "int", "datetime", "time"})

BUCKETS = ("sanitize_or_relative_uris", "entities", "http_headers", "other")


@dataclass
class Case:
    file: str
    category: str
    expect: str
    skip_unless: str
    headers: dict[str, str]  # response headers for the defaults run
    base_url: str  # what parse_feed would be given


def _case(file: str, expect: str, skip_unless: str | None, headers) -> Case:
    category = file.split("/")[1]
    response_headers: dict[str, str] = {}
    base_url = ""
    if "http" in file:
        doc_url = DOC_ROOT + posixpath.normpath(file)
        response_headers = {k.lower(): v.strip() for k, v in (headers or {}).items()}
        response_headers.setdefault("content-type", "text/xml")
        location = response_headers.get("content-location", "")
        # feedparser.api.parse: make_safe_absolute_uri(href, contentloc) or ... or href
        base_url = (
            feedparser.urls.make_safe_absolute_uri(doc_url, location)
            or feedparser.urls.make_safe_absolute_uri(location)
            or doc_url
        )
        response_headers["content-location"] = base_url
    return Case(file, category, expect, skip_unless or "1", response_headers, base_url)


def load_cases(folder: Path) -> list[Case]:
    cases = []
    listed = set()
    with (folder / "expectations.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            listed.add(row["file"])
            cases.append(_case(row["file"], row["expect"], row["skip_unless"], row["http_headers"]))
    # tests/json carries its annotation in a "__TEST__" string; expectations.jsonl omits it.
    for path in sorted((folder / "tests" / "json").glob("*.json")):
        file = path.relative_to(folder).as_posix()
        text = path.read_text(encoding="utf-8")
        described = DESC_RE.search(text)
        if file in listed or not described:
            continue
        skip = SKIP_RE.search(text)
        headers = dict(HEADERS_RE.findall(text))
        expect = described.group(2).strip().rstrip('",').strip()
        cases.append(_case(file, expect, skip and skip.group(1).strip(), headers))
    return cases


def _runnable(skip_unless: str) -> bool:
    try:
        # S307 is silenced on purpose: trusted corpus data (feedparser's own SkipUnless
        # annotations), evaluated the way feedparser's test runner does.
        return bool(eval(skip_unless, {"feedparser": feedparser}))  # noqa: S307
    except (ImportError, LookupError, NotImplementedError, AttributeError):
        return False


def holds(expect: str, result) -> bool:
    """Evaluate an `Expect:` expression with the result dict as globals (feedparser's
    tests/helpers.py and test_json.py); any exception counts as not holding."""
    namespace = {"feedparser": feedparser, "datetime": datetime, "time": time}
    namespace.update(result)
    namespace.setdefault("channel", result.get("feed"))
    namespace.setdefault("items", result.get("entries"))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # S307 is silenced on purpose: trusted corpus data (feedparser's own Expect:
            # annotations), evaluated as feedparser's tests/helpers.py does.
            return bool(eval(expect, namespace))  # noqa: S307
    except Exception:
        return False


def _parse_defaults(data: bytes, headers: dict[str, str], *, ours_doctype=False, **flags):
    with feedparser_as_shipped(keep_our_doctype=ours_doctype):
        return feedparser.parse(io.BytesIO(data), response_headers=dict(headers), **flags)


def _attribute(case: Case, data: bytes) -> list[str]:
    """Which change to feedparser's defaults (one at a time) makes the expectation fail."""
    probes = {
        "sanitize_html": lambda: _parse_defaults(data, case.headers, sanitize_html=False),
        "resolve_relative_uris": lambda: _parse_defaults(
            data, case.headers, resolve_relative_uris=False
        ),
        # Either pass alone re-serializes the markup (<br> → <br />, &#146; → &#x2019;).
        "markup_passes": lambda: _parse_defaults(
            data, case.headers, sanitize_html=False, resolve_relative_uris=False
        ),
        "entities": lambda: _parse_defaults(data, case.headers, ours_doctype=True),
        # the headers parse_feed gives feedparser (ingest.feeds.parse._feedparser_result)
        "http_headers": lambda: _parse_defaults(
            data, {"content-location": case.base_url, "content-type": "application/xml"}
        ),
    }
    return [name for name, probe in probes.items() if not holds(case.expect, probe())]


def _bucket(factors: list[str]) -> str:
    if {"sanitize_html", "resolve_relative_uris", "markup_passes"} & set(factors):
        return "sanitize_or_relative_uris"
    if "entities" in factors:
        return "entities"
    if "http_headers" in factors:
        return "http_headers"
    return "other"


def referenced_fields(expect: str) -> set[tuple[str, tuple]]:
    """(root name, keys/attributes/indices accessed on it) for every name in `expect`."""
    tree = ast.parse(expect, mode="eval")
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name):
            continue
        keys: list = []
        current: ast.AST = node
        while True:
            parent = parents.get(current)
            if isinstance(parent, ast.Subscript) and parent.value is current:
                index = parent.slice
                keys.append(index.value if isinstance(index, ast.Constant) else None)
            elif isinstance(parent, ast.Attribute) and parent.value is current:
                call = parents.get(parent)
                if (
                    parent.attr == "get"
                    and isinstance(call, ast.Call)
                    and call.func is parent
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                ):
                    keys.append(call.args[0].value)
                    current = call
                    continue
                keys.append(parent.attr)
            else:
                break
            current = parent
        found.add((node.id, tuple(keys)))
    return found


def about_kept_fields(expect: str) -> bool:
    fields = []
    for name, keys in referenced_fields(expect):
        if name in ("feed", "channel"):
            kept = FEED_KEPT
        elif name in ("entries", "items"):
            kept = ENTRY_KEPT
            if keys and not isinstance(keys[0], str):  # entries[0]
                keys = keys[1:]
        elif name in HELPER_NAMES:
            continue
        else:
            return False
        if not keys:  # len(entries)
            continue
        if keys[0] in kept or (
            keys[0] in KEPT_DETAILS and len(keys) > 1 and keys[1] in ("value", "type")
        ):
            fields.append(keys[0])
        else:
            return False
    return bool(fields)


def _urls(fragment: str) -> list[str]:
    return sorted(url for url in re.findall(r'(?:href|src)="([^"]*)"', fragment) if url)


def _text(value: str, content_type: str) -> str:
    return _plain_text(value or "", content_type or "text/html")


def _verify_stored_html(case: Case, data: bytes, defaults) -> dict:
    """parse_feed's output for a file whose expectation is about sanitizing or relative URIs:
    is the stored HTML safe and absolute, does it carry the URLs feedparser's resolution gives,
    and is the text a reader sees (titles, bodies) the same as from feedparser's defaults?"""
    try:
        parsed = parse_feed(data, base_url=case.base_url or DOC_ROOT + case.file)
    except FeedParseError:
        return {"parsed": False}
    check = {"parsed": True, "entries": len(parsed.entries), "unsafe": [], "relative": []}
    check.update(same_urls=0, different_urls=0, same_text=0, different_text=[])
    pairs = [
        (
            "feed title",
            parsed.title,
            _text(
                defaults.feed.get("title", ""), defaults.feed.get("title_detail", {}).get("type")
            ),
        )
    ]
    for index, entry in enumerate(parsed.entries):
        check["unsafe"] += unsafe_findings(entry.content_html)
        check["relative"] += non_absolute_urls(entry.content_html)
        if index >= len(defaults.entries):
            continue
        source = defaults.entries[index]
        contents = source.get("content") or []
        chosen = max(contents, key=lambda c: len(c.get("value", "")), default={})
        if not chosen.get("value"):
            chosen = {
                "value": source.get("summary", ""),
                "type": source.get("summary_detail", {}).get("type"),
            }
        theirs = _urls(chosen["value"]) if "html" in (chosen.get("type") or "html") else []
        if theirs:
            ours = _urls(entry.content_html)
            check["same_urls" if ours == theirs else "different_urls"] += 1
            if ours != theirs:
                check.setdefault("url_differences", []).append(f"{ours} vs {theirs}")
        title_type = source.get("title_detail", {}).get("type")
        pairs.append(
            (f"entry {index} title", entry.title, _text(source.get("title", ""), title_type))
        )
        pairs.append(
            (
                f"entry {index} body",
                html_to_text(entry.content_html),
                _text(chosen["value"], chosen.get("type")),
            )
        )
    for where, ours, theirs in pairs:
        if not theirs:
            continue
        if ours == theirs:
            check["same_text"] += 1
        else:
            check["different_text"].append(f"{where}: {ours[:60]!r} vs {theirs[:60]!r}")
    return check


def _json_own_reader(case: Case, data: bytes) -> bool:
    """parse_feed reads JSON Feed itself (feedparser 6.0 cannot): the expectation against a
    feedparser-shaped view of its output."""
    try:
        parsed = parse_feed(data, base_url=case.base_url)
    except FeedParseError:
        return False
    view = feedparser.FeedParserDict(
        bozo=False,
        feed=feedparser.FeedParserDict(
            title=parsed.title, link=parsed.site_url, language=parsed.language
        ),
        entries=[
            feedparser.FeedParserDict(
                title=e.title, link=e.url, id=e.entry_id, summary=e.description, author=e.author
            )
            for e in parsed.entries
        ],
    )
    return holds(case.expect, view)


def _empty_result(label: str) -> dict:
    zero = {"runnable": 0, "hold_defaults": 0, "hold_ours": 0}
    return {
        "name": "edgecases",
        "corpus": label,
        "files": 0,
        "bytes": 0,
        "not_runnable": 0,
        **zero,
        "categories": {category: dict(zero) for category in CATEGORIES},
        "kept_fields": dict(zero),
        "lost": 0,
        "gained": [],
        "buckets": {bucket: [] for bucket in BUCKETS},
        "regressions": [],
        "verification": {},
        "json_own_reader": [],
        "seconds_defaults": 0.0,
        "seconds_ours": 0.0,
        "ratio": None,
    }


def run(size: str = "full", corpus: str | None = None) -> dict:
    folder = Path(corpus) if corpus else CORPUS
    if not (folder / "expectations.jsonl").is_file():
        print(f"edgecases: corpus not found at {folder}; nothing to run")
        return {
            **_empty_result(f"{folder} (absent)"),
            "size": size,
            "skipped": f"no feedparser edge-case corpus at {folder}",
        }
    cases = load_cases(folder)
    # Every n-th of each category, so that a smaller size still reaches each (json has one).
    cases = [c for k in CATEGORIES for c in every_nth([c for c in cases if c.category == k], size)]
    result = _empty_result(str(folder))
    result["size"] = size
    result["files"] = len(cases)
    categories = result["categories"]
    kept = result["kept_fields"]
    buckets: dict[str, list[dict]] = result["buckets"]
    verification = Counter()
    unsafe_files, relative_files, unparsed_files, text_files, url_files = [], [], [], [], []
    for case in cases:
        path = folder / case.file
        data = path.read_bytes()
        result["bytes"] += len(data)
        if not _runnable(case.skip_unless):
            result["not_runnable"] += 1
            continue
        started = time.perf_counter()
        defaults = _parse_defaults(data, case.headers)
        result["seconds_defaults"] += time.perf_counter() - started
        started = time.perf_counter()
        ours = _feedparser_result(data, case.base_url)
        result["seconds_ours"] += time.perf_counter() - started
        by_defaults, by_ours = holds(case.expect, defaults), holds(case.expect, ours)
        is_kept = about_kept_fields(case.expect)
        for tally in (result, categories[case.category]) + ((kept,) if is_kept else ()):
            tally["runnable"] += 1
            tally["hold_defaults"] += by_defaults
            tally["hold_ours"] += by_ours
        if case.category == "json":
            result["json_own_reader"].append(
                {"file": case.file, "holds": _json_own_reader(case, data)}
            )
        if by_ours and not by_defaults:
            result["gained"].append(case.file)
        if not by_defaults or by_ours:
            continue
        result["lost"] += 1
        factors = _attribute(case, data)
        bucket = _bucket(factors)
        buckets[bucket].append({"file": case.file, "factors": factors, "kept_field": is_kept})
        if bucket == "sanitize_or_relative_uris":
            check = _verify_stored_html(case, data, defaults)
            verification["files"] += 1
            if not check["parsed"]:
                unparsed_files.append(case.file)
                continue
            for key in ("entries", "same_urls", "different_urls", "same_text"):
                verification[key] += check[key]
            if check.get("url_differences"):
                url_files.append({"file": case.file, "differences": check["url_differences"]})
            if check["different_text"]:
                text_files.append({"file": case.file, "differences": check["different_text"]})
            if check["unsafe"]:
                unsafe_files.append({"file": case.file, "findings": check["unsafe"]})
            if check["relative"]:
                relative_files.append({"file": case.file, "urls": check["relative"]})
    result["verification"] = {
        **verification,
        "unsafe": unsafe_files,
        "not_absolute": relative_files,
        "not_a_feed": unparsed_files,
        "different_text": text_files,
        "different_urls_files": url_files,
    }
    # A real regression: a kept field, lost only under ours, not explained by sanitizing,
    # relative URIs or entities.
    result["regressions"] = [
        {"file": item["file"], "cause": bucket}
        for bucket in ("http_headers", "other")
        for item in buckets[bucket]
        if item["kept_field"]
    ]
    result["seconds_defaults"] = round(result["seconds_defaults"], 3)
    result["seconds_ours"] = round(result["seconds_ours"], 3)
    result["ratio"] = (
        round(result["hold_ours"] / result["hold_defaults"], 4) if result["hold_defaults"] else None
    )
    result["checks"] = {
        "stored HTML safe": not unsafe_files,
        "stored links absolute": not relative_files,
        "every lost expectation explained": not buckets["other"],
    }
    return result


def _share(tally: dict) -> str:
    runnable = tally["runnable"] or 1
    return (
        f"{tally['runnable']:5d} runnable | defaults {tally['hold_defaults']:5d} "
        f"({tally['hold_defaults'] / runnable:6.1%}) | ours {tally['hold_ours']:5d} "
        f"({tally['hold_ours'] / runnable:6.1%})"
    )


def describe(result: dict) -> list[str]:
    lines = [
        f"edgecases — feedparser {feedparser.__version__} test suite ({result['size']}), "
        f"corpus: {result['corpus']}",
        f"  data: {result['files']} annotated files, {result['bytes'] / 1e6:.1f} MB; "
        f"{result['not_runnable']} not runnable (SkipUnless false)",
        f"  parse time: defaults {result['seconds_defaults']} s, ours {result['seconds_ours']} s",
    ]
    if not result["files"]:
        return [*lines, "  nothing to run"]
    for category in CATEGORIES:
        lines.append(f"  {category:<12} {_share(result['categories'][category])}")
    lines.append(f"  {'total':<12} {_share(result)}")
    lines.append(f"  {'kept fields':<12} {_share(result['kept_fields'])}")
    buckets = result["buckets"]
    lines.append(
        f"  lost under ours: {result['lost']} — sanitizing/relative URIs "
        f"{len(buckets['sanitize_or_relative_uris'])}, entity expansion "
        f"{len(buckets['entities'])}, HTTP headers parse_feed is not given "
        f"{len(buckets['http_headers'])}, other {len(buckets['other'])}"
    )
    kept_lost = Counter(
        bucket for bucket, items in buckets.items() for item in items if item["kept_field"]
    )
    lines.append(
        "  of which about kept fields: "
        + ", ".join(f"{bucket} {kept_lost[bucket]}" for bucket in BUCKETS)
    )
    check = result["verification"]
    lines.append(
        f"  stored-HTML check (parse_feed → nh3) of the sanitizing/relative-URI files: "
        f"{check.get('files', 0)} files, {check.get('entries', 0)} entries; unsafe output in "
        f"{len(check['unsafe'])} files, non-absolute URLs in {len(check['not_absolute'])}; "
        f"URLs as feedparser resolves them: {check.get('same_urls', 0)} entries same, "
        f"{check.get('different_urls', 0)} different"
    )
    for item in check["different_urls_files"]:
        lines.append(f"    URLS {item['file']}: {'; '.join(item['differences'])}")
    lines.append(
        f"  text a reader sees (titles, bodies) same as from feedparser's defaults: "
        f"{check.get('same_text', 0)} fields; different in {len(check['different_text'])} files"
    )
    for item in check["different_text"]:
        lines.append(f"    TEXT {item['file']}: {'; '.join(item['differences'])}")
    for item in check["unsafe"]:
        lines.append(f"    UNSAFE {item['file']}: {', '.join(item['findings'])}")
    for item in check["not_absolute"]:
        lines.append(f"    RELATIVE {item['file']}: {', '.join(item['urls'])}")
    for bucket in ("entities", "http_headers", "other"):
        for item in buckets[bucket]:
            mark = "kept field" if item["kept_field"] else "not kept"
            lines.append(f"    {bucket}: {item['file']} ({mark}; fails with {item['factors']})")
    if result["gained"]:
        lines.append(f"  holding only under ours: {len(result['gained'])}")
        lines.extend(f"    {file}" for file in result["gained"])
    for item in result["json_own_reader"]:
        lines.append(
            f"  {item['file']}: feedparser {feedparser.__version__} reads no JSON Feed; "
            f"parse_feed's own reader {'meets' if item['holds'] else 'FAILS'} the expectation"
        )
    causes = {"http_headers": "HTTP header parse_feed is not given", "other": "unexplained"}
    lines.append(
        "  real regressions (kept field, lost only under ours, not sanitizing/relative "
        f"URIs/entities): {len(result['regressions']) or 'none'}"
    )
    lines.extend(f"    {item['file']} ({causes[item['cause']]})" for item in result["regressions"])
    lines.append(f"  ratio (holding under ours ÷ under defaults): {result['ratio']}")
    return lines
