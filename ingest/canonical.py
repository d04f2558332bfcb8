"""The one canonicalization function. Its output is stored forever: change it only with a
migration that rehashes the pool, and keep tests/ingest/test_canonical.py's vectors passing.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

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


class InvalidURL(ValueError):
    pass


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(TRACKING_PREFIXES)


def _normalize_path(path: str) -> str:
    if not path:
        return "/"
    path = _SLASHES.sub("/", path)
    # Resolve ./ and ../ segments but keep a trailing slash, which can be meaningful.
    trailing = path.endswith("/")
    resolved = posixpath.normpath(path)
    if resolved in (".", ""):
        resolved = "/"
    if not resolved.startswith("/"):
        resolved = "/" + resolved
    if trailing and not resolved.endswith("/"):
        resolved += "/"
    # Re-encode consistently: decode safe characters, keep reserved ones encoded.
    return quote(unquote(resolved), safe="/:@!$&'()*+,;=-._~%")


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
    query_pairs = [
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if not _is_tracking(name)
    ]
    query = urlencode(sorted(query_pairs), quote_via=quote, safe="/:@!$'()*,;-._~")
    return urlunsplit((scheme, netloc, _normalize_path(parts.path), query, ""))


def url_hash(canonical_url: str) -> str:
    return hashlib.sha256(canonical_url.encode("utf-8")).hexdigest()
