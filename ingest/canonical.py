"""The one canonicalization function. Its output is stored forever: change it only with a
migration that rehashes the pool, and keep tests/ingest/test_canonical.py's vectors passing.
"""

from __future__ import annotations

import hashlib
import re
import string
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gclsrc",
        "msclkid",
        "yclid",
        "twclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "spm",
        "ref",
        "ref_src",
        "ref_url",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "oly_anon_id",
        "oly_enc_id",
        "vero_id",
        "wickedid",
        "rb_clickid",
        "s_cid",
        "ncid",
        "cmpid",
        "__twitter_impression",
        "_ga",
        "_gl",
        "feature",
    }
)
TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "hmb_")
DEFAULT_PORTS = {"http": 80, "https": 443}
_SLASHES = re.compile(r"/{2,}")
_PERCENT_ESCAPE = re.compile(r"(%[0-9A-Fa-f]{2})")
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
# RFC 3986 pchar plus "/": everything else in a path is percent-encoded.
_PATH_SAFE = "/:@!$&'()*+,;=-._~"


class InvalidURL(ValueError):
    pass


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(TRACKING_PREFIXES)


def _normalize_percent_encoding(path: str) -> str:
    """RFC 3986 §6.2.2: decode only escapes of unreserved characters, upper-case the hex of the
    rest and encode what may not appear literally. Decoding every escape (as a plain
    unquote/quote round trip does) turns %2F into a path separator and %25 into a bare "%",
    which changes the resource and makes the function non-idempotent."""
    out: list[str] = []
    for piece in _PERCENT_ESCAPE.split(path):
        if _PERCENT_ESCAPE.fullmatch(piece):
            char = chr(int(piece[1:], 16))
            out.append(char if char in _UNRESERVED else piece.upper())
        else:
            # A stray "%" is not an escape: encode it, as the query side does.
            out.append(quote(piece, safe=_PATH_SAFE))
    return "".join(out)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4: "/a/b/.." is "/a/" (the last segment is a directory), unlike
    posixpath.normpath, which would also give "/a"."""
    output: list[str] = []
    segments = path.split("/")[1:]
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "..":
            if output:
                output.pop()
            if last:
                output.append("")
        elif segment == ".":
            if last:
                output.append("")
        else:
            output.append(segment)
    return "/" + "/".join(output)


def _normalize_path(path: str) -> str:
    if not path:
        return "/"
    # Escapes first, so "%2E%2E" is a dot segment and "%2F" stays data rather than a slash.
    path = _normalize_percent_encoding(path)
    path = _SLASHES.sub("/", path)
    return _remove_dot_segments(path)


def canonicalize_url(url: str) -> str:
    """Return the canonical form of an absolute http(s) URL, or raise InvalidURL."""
    raw = (url or "").strip()
    try:
        parts = urlsplit(raw)
    except ValueError as exc:
        raise InvalidURL(f"not a URL: {raw[:100]!r}") from exc
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise InvalidURL(f"only http and https URLs are accepted, not {scheme or 'none'!r}")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise InvalidURL(f"URL has no host: {raw[:100]!r}")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        host = host.lower()
    try:
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(f"URL has an invalid port: {raw[:100]!r}") from exc
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    # surrogateescape round-trips bytes that are not UTF-8 (EUC-KR or Shift_JIS search terms):
    # the default errors="replace" would map every such value to U+FFFD, so different pages
    # would share one canonical URL and be merged by hard dedup.
    query_pairs = [
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True, errors="surrogateescape")
        if not _is_tracking(name)
    ]
    try:
        query = urlencode(
            sorted(query_pairs),
            quote_via=quote,
            safe="/:@!$'()*,;-._~",
            errors="surrogateescape",
        )
        path = _normalize_path(parts.path)
    except UnicodeError as exc:  # lone surrogates in the input string
        raise InvalidURL(f"URL cannot be encoded: {raw[:100]!r}") from exc
    return urlunsplit((scheme, netloc, path, query, ""))


def url_hash(canonical_url: str) -> str:
    return hashlib.sha256(canonical_url.encode("utf-8")).hexdigest()
