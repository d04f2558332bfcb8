"""The one outbound HTTP client. Every request Tidings makes goes through `fetch()`.

Policy (SPEC §4.1): http/https only, allowed ports, every resolved address checked and the
connection made to the checked address (no DNS rebinding window), redirects followed by hand
and re-checked, https→http refused, timeouts plus a total deadline, size caps counted on
decoded bytes while streaming, per-host politeness on every hop (ingest/fetching/politeness.py).
Callers get bytes; no parser is ever handed a URL.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
import ssl
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC
from urllib.parse import unquote, urljoin, urlsplit

import httpcore
import httpx
from django.conf import settings
from django.utils.translation import gettext as _

from ingest.fetching import politeness
from ingest.fetching.addresses import reason_label, refused_address_reason

FEED_MAX_BYTES = 5 * 1024 * 1024
PAGE_MAX_BYTES = 10 * 1024 * 1024
MAX_REDIRECTS = 5
TOTAL_DEADLINE_SECONDS = 30.0
# A POST (a webhook) waits less: the receiver only has to say it got the message.
POST_DEADLINE_SECONDS = 15.0
POST_RESPONSE_MAX_BYTES = 64 * 1024
CONNECT_TIMEOUT_SECONDS = 5.0
READ_TIMEOUT_SECONDS = 10.0
# Compressed bodies are inflated at most this much at a time, so the size cap is checked
# before a bomb can allocate more.
INFLATE_STEP_BYTES = 64 * 1024
# Only codings _inflate() bounds; httpx would add br/zstd whenever those packages are present.
ACCEPT_ENCODING = "gzip, deflate"
DEFAULT_PORTS = {"http": 80, "https": 443}
PERMANENT_REDIRECTS = {301, 308}
REDIRECTS = {301, 302, 303, 307, 308}
FEED_ACCEPT = (
    "application/feed+json, application/atom+xml, application/rss+xml, "
    "application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.5, */*;q=0.1"
)


class FetchError(Exception):
    """A fetch that did not produce a usable response. `message` is fit to show a user."""

    code = "fetch_failed"
    permanent = False

    def __init__(self, message: str, *, url: str = ""):
        super().__init__(message)
        self.message = message
        self.url = url


class FetchRefused(FetchError):
    code = "refused_by_policy"
    permanent = True


class FetchTimeout(FetchError):
    code = "timeout"


class ResponseTooLarge(FetchError):
    code = "too_large"
    permanent = True


class TLSFailure(FetchError):
    code = "tls_error"


class ConnectionFailed(FetchError):
    code = "connection_failed"


class HostCoolingDown(FetchError):
    """The host asked us to wait (Retry-After / 429) for longer than this fetch may wait."""

    code = "rate_limited"

    def __init__(self, message: str, *, url: str = "", retry_after: int):
        super().__init__(message, url=url)
        self.retry_after = retry_after


class HTTPStatusError(FetchError):
    code = "http_error"

    def __init__(self, message: str, *, url: str = "", status: int, retry_after: int | None = None):
        super().__init__(message, url=url)
        self.status = status
        self.retry_after = retry_after
        self.permanent = status in (401, 403, 404, 410)


@dataclass
class FetchResult:
    url: str
    status: int
    headers: dict[str, str]
    content: bytes = b""
    permanent_redirect: str | None = None
    elapsed_ms: int = 0
    redirects: list[str] = field(default_factory=list)

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


@dataclass(frozen=True)
class Target:
    url: str
    scheme: str
    host: str
    port: int
    path_and_query: str


def _allowed_ports() -> set[int]:
    return {80, 443, *range(8000, 9000), *settings.FETCH_EXTRA_ALLOWED_PORTS}


def _quoted(url: str) -> str:
    """A URL as messages quote it: the first 200 characters, in Python's repr quotes."""
    return repr(url[:200])


def _invalid_host_message(url: str) -> str:
    return _("The address %(address)s has an invalid host name.") % {"address": _quoted(url)}


def _normalize_host(raw_host: str, url: str) -> str:
    host = unquote(raw_host).rstrip(".").lower()
    if not host or not host.isprintable() or any(ch in host for ch in "%\\@ /"):
        raise FetchRefused(_invalid_host_message(url), url=url)
    # Numeric hosts in decimal, octal, hex or short form ("2130706433", "0x7f.1", "127.1") are
    # IPv4 addresses to browsers and to the resolver: turn them into dotted quads first.
    if all(ch in "0123456789abcdefx." for ch in host) and any(ch.isdigit() for ch in host):
        try:
            return socket.inet_ntoa(socket.inet_aton(host))
        except OSError:
            pass
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        raise FetchRefused(_invalid_host_message(url), url=url) from None


def parse_target(url: str) -> Target:
    """Validate a URL against the policy's syntax rules (no network) and split it."""
    if not isinstance(url, str) or not url:
        raise FetchRefused(_("The address is empty."), url=str(url))
    if any(ord(ch) < 0x21 or 0x7F <= ord(ch) <= 0x9F or ch == "\\" for ch in url):
        # Backslashes and control characters are where URL parsers disagree.
        raise FetchRefused(
            _("The address %(address)s contains spaces, control characters or backslashes.")
            % {"address": _quoted(url)},
            url=url,
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise FetchRefused(
            _("The address %(address)s is not a valid URL.") % {"address": _quoted(url)}, url=url
        ) from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise FetchRefused(
            _("Only http and https addresses can be fetched, not %(scheme)s.")
            % {"scheme": repr(scheme or "none")},
            url=url,
        )
    if "@" in parts.netloc:
        raise FetchRefused(_("Addresses with a user name or password are not fetched."), url=url)
    if parts.hostname is None:
        raise FetchRefused(
            _("The address %(address)s has no host.") % {"address": _quoted(url)}, url=url
        )
    host = _normalize_host(parts.hostname, url)
    # Not `port or default`: an explicit ":0" must be refused, not quietly fetched from 80.
    port = port if port is not None else DEFAULT_PORTS[scheme]
    if port not in _allowed_ports() and host not in settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS:
        raise FetchRefused(
            _("Port %(port)s is not allowed; Tidings fetches from ports 80, 443 and 8000-8999.")
            % {"port": port},
            url=url,
        )
    path = parts.path or "/"
    path_and_query = path + (f"?{parts.query}" if parts.query else "")
    return Target(url=url, scheme=scheme, host=host, port=port, path_and_query=path_and_query)


def resolve_checked(target: Target) -> str:
    """Resolve the host once, refuse it if any answer is in refused space, return one address."""
    try:
        literal = ipaddress.ip_address(target.host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        try:
            answers = socket.getaddrinfo(
                target.host, target.port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
            )
        except (socket.gaierror, UnicodeError):
            raise ConnectionFailed(
                _("The host %(host)s could not be found.") % {"host": repr(target.host)},
                url=target.url,
            ) from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(a[4][0]) for a in answers))
    if not addresses:
        raise ConnectionFailed(
            _("The host %(host)s has no address.") % {"host": repr(target.host)}, url=target.url
        )
    test_host = target.host in settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS
    for address in addresses:
        if test_host and address.is_loopback:
            continue
        reason = refused_address_reason(address)
        if reason:
            raise FetchRefused(
                _(
                    "The host %(host)s resolves to a %(reason)s address (%(address)s), which "
                    "Tidings never fetches from."
                )
                % {"host": repr(target.host), "reason": reason_label(reason), "address": address},
                url=target.url,
            )
    return str(addresses[0])


def _retry_after_seconds(value: str | None) -> int | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from django.utils import timezone

    if when.tzinfo is None:  # "-0000" parses naive; HTTP dates are UTC
        when = when.replace(tzinfo=UTC)
    return max(0, int((when - timezone.now()).total_seconds()))


def _time_left(deadline: float, timeout: float | None, error: type[Exception]) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the total deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write waits at most until the fetch's deadline.

    Per-operation timeouts alone let a server that trickles a byte at a time (status line and
    headers included, which httpx reads before we see any body) hold a worker indefinitely.
    """

    def __init__(self, stream: httpcore.NetworkStream, deadline: float):
        self._stream = stream
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        timeout = _time_left(self._deadline, timeout, httpcore.ReadTimeout)
        return self._stream.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        timeout = _time_left(self._deadline, timeout, httpcore.WriteTimeout)
        self._stream.write(buffer, timeout)

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        timeout = _time_left(self._deadline, timeout, httpcore.ConnectTimeout)
        stream = self._stream.start_tls(ssl_context, server_hostname, timeout)
        return _DeadlineStream(stream, self._deadline)

    def get_extra_info(self, info: str) -> object:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    def __init__(self, deadline: float):
        self._backend = httpcore.SyncBackend()
        self._deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: object = None,
    ) -> httpcore.NetworkStream:
        timeout = _time_left(self._deadline, timeout, httpcore.ConnectTimeout)
        stream = self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return _DeadlineStream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Loading the CA bundle costs tens of milliseconds; a context is safe to share.
    return httpx.create_ssl_context(trust_env=False)


def _deadline_transport(deadline: float) -> httpx.HTTPTransport:
    transport = httpx.HTTPTransport(verify=_ssl_context(), trust_env=False)
    # httpx has no public hook for the network backend: swap in the same pool over ours.
    transport._pool = httpcore.ConnectionPool(
        ssl_context=_ssl_context(), network_backend=_DeadlineBackend(deadline)
    )
    return transport


def _inflate(chunks: Iterator[bytes], coding: str) -> Iterator[bytes]:
    """Undo one gzip/deflate coding, yielding at most INFLATE_STEP_BYTES at a time.

    httpx's decoders inflate a whole network read in one call: 500 bytes of nested gzip become
    200 MB in memory before any size cap is checked.
    """
    wbits = zlib.MAX_WBITS | 16 if coding == "gzip" else zlib.MAX_WBITS
    decompressor = zlib.decompressobj(wbits)
    # "deflate" should be zlib-wrapped, but some servers send raw deflate (as browsers allow).
    may_be_raw = coding == "deflate"
    for data in chunks:
        while data:
            try:
                out = decompressor.decompress(data, INFLATE_STEP_BYTES)
            except zlib.error as exc:
                if not may_be_raw:
                    raise httpx.DecodingError(f"invalid {coding} data: {exc}") from None
                decompressor = zlib.decompressobj(-zlib.MAX_WBITS)
                may_be_raw = False
                continue
            may_be_raw = False
            if out:
                yield out
            if decompressor.eof:
                # Bytes after the end of the stream are ignored, not buffered in unused_data.
                return
            data = decompressor.unconsumed_tail
    tail = decompressor.flush()
    if tail:
        yield tail


def _decoded_chunks(response: httpx.Response) -> Iterator[bytes]:
    codings = [
        coding.strip().lower()
        for coding in response.headers.get("content-encoding", "").split(",")
        if coding.strip().lower() not in ("", "identity")
    ]
    chunks: Iterator[bytes] = response.iter_raw()
    for coding in reversed(codings):  # the last coding listed was applied last
        coding = {"x-gzip": "gzip"}.get(coding, coding)
        if coding not in ("gzip", "deflate"):
            raise httpx.DecodingError(f"unsupported Content-Encoding {coding!r}")
        chunks = _inflate(chunks, coding)
    return chunks


def _send_once(
    client: httpx.Client,
    target: Target,
    address: str,
    headers: dict[str, str],
    max_bytes: int,
    deadline: float,
    *,
    method: str = "GET",
    content: bytes | None = None,
    truncate: bool = False,
) -> tuple[httpx.Response, bytes]:
    """One request to the checked address. With `truncate`, a body over `max_bytes` is cut
    there instead of refused (a POST's answer matters for its status, not its body)."""
    ip_host = f"[{address}]" if ":" in address else address
    default_port = DEFAULT_PORTS[target.scheme]
    name = f"[{target.host}]" if ":" in target.host else target.host  # IPv6 literal
    host_header = name if target.port == default_port else f"{name}:{target.port}"
    request = client.build_request(
        method,
        f"{target.scheme}://{ip_host}:{target.port}{target.path_and_query}",
        headers={**headers, "Host": host_header},
        content=content,
        extensions={"sni_hostname": target.host} if target.scheme == "https" else {},
    )
    response = client.send(request, stream=True)
    try:
        if response.status_code in REDIRECTS or response.status_code == 304:
            return response, b""
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            if truncate:
                return response, b""
            raise ResponseTooLarge(
                _("The response is %(size)s bytes; the limit is %(limit)s.")
                % {"size": f"{int(declared):,}", "limit": f"{max_bytes:,}"},
                url=target.url,
            )
        chunks: list[bytes] = []
        received = 0
        for chunk in _decoded_chunks(response):  # decoded: a gzip bomb is counted inflated
            received += len(chunk)
            if received > max_bytes:
                if truncate:
                    chunks.append(chunk[: max_bytes - (received - len(chunk))])
                    break
                raise ResponseTooLarge(
                    _("The response is larger than the %(limit)s-byte limit.")
                    % {"limit": f"{max_bytes:,}"},
                    url=target.url,
                )
            if time.monotonic() > deadline:
                raise FetchTimeout(
                    _("The server took longer than %(seconds)s s to answer.")
                    % {"seconds": f"{TOTAL_DEADLINE_SECONDS:.0f}"},
                    url=target.url,
                )
            chunks.append(chunk)
        return response, b"".join(chunks)
    finally:
        response.close()


def fetch(
    url: str,
    *,
    max_bytes: int = PAGE_MAX_BYTES,
    accept: str = "*/*",
    etag: str = "",
    last_modified: str = "",
    credentials: dict[str, str] | None = None,
) -> FetchResult:
    """GET `url` under the safe-fetch policy; raise a FetchError subclass on any failure.

    `credentials` are request headers of an API's keys (NAVER's X-Naver-Client-Id/-Secret):
    sent to `url`'s own host only, never along a redirect to another host."""
    headers = {
        "User-Agent": settings.FETCH_USER_AGENT,
        "Accept": accept,
        "Accept-Encoding": ACCEPT_ENCODING,
    }
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    return _request(url, headers=headers, max_bytes=max_bytes, credentials=credentials)


def post(
    url: str,
    *,
    body: bytes,
    content_type: str,
    headers: dict[str, str] | None = None,
    max_bytes: int = POST_RESPONSE_MAX_BYTES,
    deadline_seconds: float | None = None,
    whole_answer: bool = False,
) -> FetchResult:
    """POST `body` to `url` under the same policy as `fetch()`: the address checked on this
    send (whatever was checked when the URL was saved), timeouts and a total deadline, the
    host's politeness. Redirects are never followed — a redirected POST would be replayed to
    a host nobody chose, or turn into a GET — so a 3xx answer is an HTTPStatusError. The
    answer's body is read up to `max_bytes` and the rest dropped: its status is what counts —
    unless `whole_answer`, when the answer is what was asked for (a transfer's export) and one
    over `max_bytes` is refused with ResponseTooLarge like a GET's."""
    all_headers = {
        "User-Agent": settings.FETCH_USER_AGENT,
        "Accept": "*/*",
        "Accept-Encoding": ACCEPT_ENCODING,
        **(headers or {}),
        "Content-Type": content_type,
    }
    return _request(
        url,
        headers=all_headers,
        max_bytes=max_bytes,
        method="POST",
        content=body,
        deadline_seconds=deadline_seconds or POST_DEADLINE_SECONDS,
        truncate=not whole_answer,
    )


def _request(
    url: str,
    *,
    headers: dict[str, str],
    max_bytes: int,
    method: str = "GET",
    content: bytes | None = None,
    deadline_seconds: float | None = None,
    credentials: dict[str, str] | None = None,
    truncate: bool = True,
) -> FetchResult:
    # Read at call time, not bound as a default: tests shorten the module's deadline.
    deadline_seconds = deadline_seconds or TOTAL_DEADLINE_SECONDS
    started = time.monotonic()
    deadline = started + deadline_seconds
    timeout = httpx.Timeout(
        connect=CONNECT_TIMEOUT_SECONDS, read=READ_TIMEOUT_SECONDS, write=10.0, pool=5.0
    )
    current = url
    credentials_host = parse_target(url).host if credentials else ""
    hops: list[str] = []
    permanent_target: str | None = None
    all_hops_permanent = True
    # trust_env=False: a proxy from the environment would connect on our behalf, unchecked.
    with httpx.Client(
        timeout=timeout,
        follow_redirects=False,
        trust_env=False,
        transport=_deadline_transport(deadline),
    ) as client:
        while True:
            target = parse_target(current)
            if hops and urlsplit(hops[-1]).scheme == "https" and target.scheme == "http":
                raise FetchRefused(_("A redirect from https to http was refused."), url=current)
            address = resolve_checked(target)
            hop_headers = headers
            if credentials and target.host == credentials_host:
                hop_headers = {**credentials, **headers}
            try:
                with politeness.turn(target.host, deadline=deadline):
                    if method == "GET":
                        response, body = _send_once(
                            client, target, address, hop_headers, max_bytes, deadline
                        )
                    else:
                        response, body = _send_once(
                            client,
                            target,
                            address,
                            headers,
                            max_bytes,
                            deadline,
                            method=method,
                            content=content,
                            truncate=truncate,
                        )
            except politeness.HostBusy as busy:
                if busy.retry_after is not None:
                    raise HostCoolingDown(
                        _(
                            "%(host)s asked Tidings to wait; it is not contacted for another "
                            "%(seconds)s s."
                        )
                        % {"host": target.host, "seconds": busy.retry_after},
                        url=current,
                        retry_after=busy.retry_after,
                    ) from None
                raise FetchTimeout(
                    _(
                        "%(host)s was busy with other requests from Tidings until the "
                        "%(seconds)s s deadline."
                    )
                    % {"host": target.host, "seconds": f"{deadline_seconds:.0f}"},
                    url=current,
                ) from None
            except httpx.TimeoutException:
                raise FetchTimeout(
                    _("The server at %(host)s did not answer in time.") % {"host": target.host},
                    url=current,
                ) from None
            except httpx.DecodingError as exc:
                raise FetchError(
                    _("The response from %(host)s could not be decoded: %(error)s")
                    % {"host": target.host, "error": exc},
                    url=current,
                ) from None
            except httpx.ConnectError as exc:
                if isinstance(exc.__context__, ssl.SSLError) or "SSL" in str(exc):
                    raise TLSFailure(
                        _("The secure connection to %(host)s failed: %(error)s")
                        % {"host": target.host, "error": exc},
                        url=current,
                    ) from None
                raise ConnectionFailed(
                    _("Could not connect to %(host)s: %(error)s")
                    % {"host": target.host, "error": exc},
                    url=current,
                ) from None
            except httpx.HTTPError as exc:
                raise ConnectionFailed(
                    _("The connection to %(host)s failed: %(error)s")
                    % {"host": target.host, "error": exc},
                    url=current,
                ) from None
            if response.status_code in REDIRECTS and method != "GET":
                raise HTTPStatusError(
                    _(
                        "The server answered with a redirect (HTTP %(status)s); Tidings never "
                        "follows a redirect with a %(method)s."
                    )
                    % {"status": response.status_code, "method": method},
                    url=current,
                    status=response.status_code,
                )
            if response.status_code in REDIRECTS:
                location = response.headers.get("location", "")
                if not location:
                    raise HTTPStatusError(
                        _("The server sent a redirect without a Location."),
                        url=current,
                        status=response.status_code,
                    )
                if len(hops) >= MAX_REDIRECTS:
                    raise FetchRefused(
                        _("More than %(count)s redirects; gave up.") % {"count": MAX_REDIRECTS},
                        url=url,
                    )
                all_hops_permanent = (
                    all_hops_permanent and response.status_code in PERMANENT_REDIRECTS
                )
                hops.append(current)
                current = urljoin(current, location)
                if current in hops:
                    raise FetchRefused(_("The redirects go round in a loop."), url=url)
                # Only a chain of permanent redirects moves the stored URL; one temporary hop
                # anywhere means the source may come back.
                permanent_target = current if all_hops_permanent else None
                continue
            status = response.status_code
            response_headers = {k.lower(): v for k, v in response.headers.items()}
            if status >= 400:
                retry_after = _retry_after_seconds(response_headers.get("retry-after"))
                if status == 429 or (status == 503 and retry_after is not None):
                    politeness.note_retry_after(target.host, retry_after)
                raise HTTPStatusError(
                    _("The server answered HTTP %(status)s.") % {"status": status},
                    url=current,
                    status=status,
                    retry_after=retry_after,
                )
            return FetchResult(
                url=current,
                status=status,
                headers=response_headers,
                content=body,
                permanent_redirect=permanent_target,
                elapsed_ms=int((time.monotonic() - started) * 1000),
                redirects=hops,
            )
