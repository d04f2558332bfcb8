"""OPML import and export of a user's source library (SPEC §4.2, §4.9, §13).

Import never touches the network: every outline's address is checked against the fetch
policy's syntax rules (`ingest.fetching.fetch.parse_target`, plus literal addresses in refused
space), canonicalized and deduplicated, then the feeds are written due now and the next tick fetches
them. Whatever is wrong with the file as a whole (too big, not XML, entity declarations, not
OPML, no feeds, too many feeds) refuses it before a single row is written.
"""

from __future__ import annotations

import ipaddress
import re
import xml.etree.ElementTree as ET  # builds the export; parsing goes through defusedxml
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import format_datetime

import defusedxml.ElementTree as DefusedET
from defusedxml import DefusedXmlException
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.fetching import fetch
from ingest.fetching.addresses import reason_label, refused_address_reason
from ingest.library.bulk_add import SourceSpec, add_sources_to_library
from ingest.library.folders import file_entries, imported_name
from ingest.models import Source, UserSource, config_hash

MAX_OPML_BYTES = 1024 * 1024
MAX_OPML_FEEDS = 1000
MAX_URL_LENGTH = 2048
OPML_CONTENT_TYPE = "text/x-opml; charset=utf-8"

_SPACE = re.compile(r"\s+")
# Characters XML 1.0 cannot carry at all, not even escaped.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class OPMLError(Exception):
    """The file as a whole is refused; `field` and `message` go into form and API errors."""

    def __init__(self, message: str, *, code: str = "invalid_opml", field: str = "file"):
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


class OutlineStatus:
    ADDED = "added"
    ALREADY_IN_LIBRARY = "already_in_library"
    DUPLICATE = "duplicate"  # the same feed listed earlier in the same file
    REFUSED = "refused"

    choices = (ADDED, ALREADY_IN_LIBRARY, DUPLICATE, REFUSED)


@dataclass
class Outline:
    url: str
    title: str = ""
    html_url: str = ""
    folder: str = ""  # the name of the folder outline it is in ("" at the top level)


@dataclass
class OutlineResult:
    url: str
    title: str
    status: str
    reason: str = ""
    html_url: str = ""
    user_source_id: int | None = None
    folder: str = ""


@dataclass
class ImportReport:
    outlines: list[OutlineResult] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for outline in self.outlines if outline.status == status)

    @property
    def added(self) -> int:
        return self.count(OutlineStatus.ADDED)

    @property
    def already_in_library(self) -> int:
        return self.count(OutlineStatus.ALREADY_IN_LIBRARY)

    @property
    def duplicate(self) -> int:
        return self.count(OutlineStatus.DUPLICATE)

    @property
    def refused(self) -> int:
        return self.count(OutlineStatus.REFUSED)


# --- Parsing --------------------------------------------------------------------------------


def _plain(value: str | None, limit: int = 300) -> str:
    return _SPACE.sub(" ", _XML_INVALID.sub("", value or "")).strip()[:limit]


def _attribute(element, name: str) -> str:
    """OPML attribute names are camelCase by the spec, but exporters write `xmlurl` too."""
    value = element.get(name)
    if value is None:
        lowered = name.lower()
        value = next((v for k, v in element.attrib.items() if k.lower() == lowered), "")
    return value.strip()


def _local_name(tag) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def parse_opml(data: bytes) -> list[Outline]:
    """Every outline with an `xmlUrl`, in document order, however deeply nested in folders.

    Raises OPMLError for a file that cannot be imported at all."""
    if len(data) > MAX_OPML_BYTES:
        raise OPMLError(
            _(
                "The file is %(size)s bytes; OPML files of at most %(limit)s bytes (1 MB) can be "
                "imported."
            )
            % {"size": f"{len(data):,}", "limit": f"{MAX_OPML_BYTES:,}"},
            code="too_large",
        )
    if not data.strip():
        raise OPMLError(_("The file is empty."), code="empty")
    try:
        # forbid_dtd: OPML has no use for a DTD, and refusing it outright also refuses entity
        # bombs (billion laughs) and external entities (XXE) before anything is expanded.
        root = DefusedET.fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise OPMLError(
            _(
                "The file declares a DTD or XML entities, which are refused (they are how entity "
                "bombs and external-entity attacks work). Export the OPML again without them."
            ),
            code="forbidden_xml",
        ) from None
    except ET.ParseError as exc:
        raise OPMLError(
            _("The file is not well-formed XML (%(error)s).") % {"error": exc}, code="not_xml"
        ) from None
    if _local_name(root.tag) != "opml":
        hint = ""
        if _local_name(root.tag) in ("rss", "feed", "rdf"):
            hint = " " + _("It looks like a feed: add its address as a source instead.")
        raise OPMLError(
            _("The file is XML but not OPML: its root element is <%(root)s>, not <opml>.")
            % {"root": _local_name(root.tag)}
            + hint,
            code="not_opml",
        )
    body = next((child for child in root if _local_name(child.tag) == "body"), None)
    outlines: list[Outline] = []
    # An explicit stack, not recursion: a hostile file may nest thousands of folders deep. Each
    # entry carries the folder its element is in: the nearest enclosing outline with no feed.
    stack = [(child, "") for child in reversed(body)] if body is not None else []
    while stack:
        element, folder = stack.pop()
        if _local_name(element.tag) != "outline":
            continue
        url = _attribute(element, "xmlUrl")
        if url:
            if len(outlines) >= MAX_OPML_FEEDS:
                raise OPMLError(
                    _(
                        "The file lists more than %(limit)s feeds; import at most %(limit)s at "
                        "a time (split the file)."
                    )
                    % {"limit": f"{MAX_OPML_FEEDS:,}"},
                    code="too_many_feeds",
                )
            outlines.append(
                Outline(
                    url=url,
                    title=_plain(_attribute(element, "title") or _attribute(element, "text")),
                    html_url=_attribute(element, "htmlUrl"),
                    folder=folder,
                )
            )
        else:
            folder = imported_name(
                _plain(_attribute(element, "text") or _attribute(element, "title"))
            )
        stack.extend((child, folder) for child in reversed(element))
    if not outlines:
        raise OPMLError(
            _('The file has no feeds to import: no <outline> in its <body> has an "xmlUrl".'),
            code="no_outlines",
        )
    return outlines


# --- Validating one outline -----------------------------------------------------------------


class RefusedURL(Exception):
    """One outline's address is refused; the message says why and goes into the report."""


def _too_long_message() -> str:
    return _("The address is longer than %(limit)s characters.") % {"limit": f"{MAX_URL_LENGTH:,}"}


def _is_loopback_name(host: str) -> bool:
    if host in settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS:
        return False
    return host == "localhost" or host.endswith(".localhost")


def check_feed_url(url: str) -> str:
    """The canonical form of a feed address fit to store; RefusedURL says why it is not.

    Syntax only (no DNS): a host name that resolves into private space is refused later, by
    the fetcher, on the address it actually connects to."""
    if len(url) > MAX_URL_LENGTH:
        raise RefusedURL(_too_long_message())
    try:
        target = fetch.parse_target(url)
    except fetch.FetchError as exc:
        raise RefusedURL(exc.message) from None
    try:
        literal = ipaddress.ip_address(target.host.strip("[]"))
    except ValueError:
        literal = None
    reason = refused_address_reason(literal) if literal is not None else None
    if reason is None and _is_loopback_name(target.host):
        reason = "loopback"
    if reason:
        raise RefusedURL(
            _("The host %(host)s is a %(reason)s address, which Tidings never fetches from.")
            % {"host": repr(target.host), "reason": reason_label(reason)}
        )
    try:
        canonical = canonicalize_url(url)
    except InvalidURL as exc:
        raise RefusedURL(_("The address is not a valid URL: %(error)s.") % {"error": exc}) from None
    if len(canonical) > MAX_URL_LENGTH:
        raise RefusedURL(_too_long_message())
    return canonical


def feed_spec(url: str) -> SourceSpec:
    # The outline's title and htmlUrl are the importer's word, not the feed's: they never go
    # onto the shared row (the title becomes this user's display name; the site address comes
    # from the feed itself at its first refresh).
    return SourceSpec(type=Source.Type.FEED, config={"url": url}, url=url)


def _library_feeds_by_canonical_url(user) -> dict[str, UserSource]:
    """The user's feed sources keyed by canonical URL, so "HTTPS://Example.com/feed?utm_x=1"
    is recognised as the "https://example.com/feed" already in the library."""
    found: dict[str, UserSource] = {}
    for user_source in UserSource.objects.filter(
        user=user, source__type=Source.Type.FEED
    ).select_related("source"):
        url = user_source.source.config.get("url") or user_source.source.url
        try:
            found.setdefault(canonicalize_url(url), user_source)
        except InvalidURL:
            continue
    return found


def _existing_spellings(raw_by_canonical: dict[str, str]) -> dict[str, Source]:
    """Shared feed rows stored under the file's own spelling of an address (one added from the
    console before canonical storage), so importing reuses them instead of forking a twin."""
    hashes = {
        config_hash(Source.Type.FEED, {"url": raw}): canonical
        for canonical, raw in raw_by_canonical.items()
        if raw != canonical
    }
    if not hashes:
        return {}
    rows = Source.objects.filter(type=Source.Type.FEED, config_hash__in=list(hashes))
    return {hashes[row.config_hash]: row for row in rows}


# --- Import and export ----------------------------------------------------------------------


def import_opml(user, data: bytes, *, now: datetime) -> ImportReport:
    """Add every feed of an OPML file to the user's library; report on each outline.

    A refused outline (bad scheme, private address, …) is reported with its reason and the
    rest are imported; a refused file raises OPMLError and writes nothing.
    """
    outlines = parse_opml(data)
    report = ImportReport()
    results_by_canonical: dict[str, OutlineResult] = {}
    pending: list[tuple[OutlineResult, Outline, str]] = []
    for outline in outlines:
        result = OutlineResult(
            url=outline.url[:MAX_URL_LENGTH],
            title=outline.title,
            status="",
            html_url=outline.html_url[:MAX_URL_LENGTH],
            folder=outline.folder,
        )
        report.outlines.append(result)
        try:
            canonical = check_feed_url(outline.url)
        except RefusedURL as exc:
            result.status = OutlineStatus.REFUSED
            result.reason = str(exc)
            continue
        first = results_by_canonical.get(canonical)
        if first is not None:
            result.status = OutlineStatus.DUPLICATE
            result.reason = f"The same feed as {first.url} earlier in this file."
            continue
        results_by_canonical[canonical] = result
        pending.append((result, outline, canonical))

    with transaction.atomic():  # the feeds and their folders, or nothing
        _add_to_library(user, pending, now=now)
    return report


def _add_to_library(
    user, pending: list[tuple[OutlineResult, Outline, str]], *, now: datetime
) -> None:
    in_library = _library_feeds_by_canonical_url(user)
    reused = _existing_spellings(
        {canon: outline.url for _r, outline, canon in pending if canon not in in_library}
    )
    wanted: list[tuple[SourceSpec, str]] = []
    waiting: list[tuple[OutlineResult, SourceSpec]] = []
    for result, outline, canonical in pending:
        if canonical in in_library:
            result.status = OutlineStatus.ALREADY_IN_LIBRARY
            result.user_source_id = in_library[canonical].pk
            continue
        existing = reused.get(canonical)
        spec = (
            SourceSpec(type=existing.type, config=existing.config)
            if existing is not None
            else feed_spec(canonical)
        )
        # A title that only repeats the address says nothing: the feed's own title shows.
        wanted.append((spec, "" if outline.title == outline.url else outline.title))
        waiting.append((result, spec))
    additions = {
        addition.spec.key: addition for addition in add_sources_to_library(user, wanted, now=now)
    }
    for result, spec in waiting:
        addition = additions[spec.key]
        result.status = (
            OutlineStatus.ADDED if addition.created else OutlineStatus.ALREADY_IN_LIBRARY
        )
        result.user_source_id = addition.user_source.pk
    # A feed of a folder outline goes into the user's folder of that name (created if missing),
    # unless the user has already put it in one.
    file_entries(
        user,
        {result.user_source_id: result.folder for result, _o, _c in pending if result.folder},
        now=now,
    )


def _xml_text(value: str) -> str:
    return _XML_INVALID.sub("", value or "")


def _feed_outline(parent, user_source: UserSource) -> None:
    source = user_source.source
    url = source.config.get("url") or ""
    if not url:
        return
    name = _xml_text(user_source.display_name or source.title or url)
    attributes = {"type": "rss", "text": name, "title": name, "xmlUrl": _xml_text(url)}
    if source.site_url:
        attributes["htmlUrl"] = _xml_text(source.site_url)
    ET.SubElement(parent, "outline", attributes)


def export_opml(user, *, now: datetime) -> bytes:
    """The user's feed library as an OPML 2.0 document (UTF-8 bytes).

    Each folder is an outline holding its feeds (the nesting every reader writes and reads),
    folders by name, then the feeds in no folder at the top level. Search and file sources
    have no feed address to give another reader and are left out, and so is a folder left
    empty by them. One query."""
    root = ET.Element("opml", version="2.0")
    head = ET.SubElement(root, "head")
    ET.SubElement(head, "title").text = "Tidings sources"
    ET.SubElement(head, "dateCreated").text = format_datetime(now, usegmt=True)
    ET.SubElement(head, "docs").text = "https://opml.org/spec2.opml"
    body = ET.SubElement(root, "body")
    library = (
        UserSource.objects.filter(user=user, source__type=Source.Type.FEED)
        .select_related("source", "folder")
        .order_by(F("folder__name").asc(nulls_last=True), "folder_id", "display_name", "id")
    )
    folders: dict[int, ET.Element] = {}
    for user_source in library:
        parent = body
        folder = user_source.folder
        if folder is not None:
            if folder.pk not in folders:
                name = _xml_text(folder.name)
                folders[folder.pk] = ET.SubElement(body, "outline", {"text": name, "title": name})
            parent = folders[folder.pk]
        _feed_outline(parent, user_source)
    for folder in folders.values():
        if not len(folder):  # every feed in it lacked an address
            body.remove(folder)
    ET.indent(root)
    # ElementTree escapes &, <, > and quotes (and newlines as &#10;) in attribute values.
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
