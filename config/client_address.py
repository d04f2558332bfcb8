"""The client address of a request: the one answer every throttle, lock-out, log line and audit
record uses (SPEC §14).

`TIDINGS_TRUSTED_PROXIES` says who may speak for the client:
- unset or empty: nobody. `REMOTE_ADDR` is the client; `X-Forwarded-For` is ignored, since
  anyone can send it (a new value per request would otherwise dodge every per-address limit).
- a number N: exactly N proxies of yours stand in front (`2` = a CDN, then nginx); the client is
  the N-th address from the right of `X-Forwarded-For` — the hop your outermost proxy saw.
  Entries further left were written by the client and are never read.
- networks (`10.0.0.0/8,192.168.1.5`): a hop is trusted when its address is in one of them;
  starting at `REMOTE_ADDR`, walk `X-Forwarded-For` from the right while the hop is trusted;
  the first untrusted hop is the client.

A malformed entry ends the walk at the last good hop: a garbled header cannot make up an
address. Throttles key on `throttle_bucket()`: an IPv6 client usually holds a whole /64, so
its addresses count as one.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class TrustedProxies:
    count: int = 0
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()


@lru_cache(maxsize=8)
def parse_trusted_proxies(raw: str) -> TrustedProxies:
    """`TIDINGS_TRUSTED_PROXIES` as a number or a comma-separated list of networks."""
    raw = (raw or "").strip()
    if not raw:
        return TrustedProxies()
    if raw.isdigit():
        return TrustedProxies(count=int(raw))
    networks = []
    for part in raw.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"TIDINGS_TRUSTED_PROXIES={raw!r}: {part!r} is neither a number of proxies "
                "nor an address or network such as 10.0.0.0/8."
            ) from None
    return TrustedProxies(networks=tuple(networks))


def _address(text: str) -> IPAddress | None:
    text = (text or "").strip()
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # 203.0.113.7:51234
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def _trusted(address: IPAddress, proxies: TrustedProxies) -> bool:
    return any(address in network for network in proxies.networks)


def client_address(request) -> str:
    """The address of the client that sent `request`, as text ('' when there is none)."""
    meta = request.META
    remote = _address(meta.get("REMOTE_ADDR", ""))
    if remote is None:
        return (meta.get("REMOTE_ADDR") or "").strip()[:64]
    proxies = parse_trusted_proxies(getattr(settings, "TIDINGS_TRUSTED_PROXIES", ""))
    hops = [h for h in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if proxies.count:
        # REMOTE_ADDR is our innermost proxy; each of the others appended one hop.
        if not hops:
            return str(remote)
        candidate = _address(hops[-min(proxies.count, len(hops))])
        return str(candidate) if candidate is not None else str(remote)
    client = remote
    while hops and _trusted(client, proxies):
        hop = _address(hops.pop())
        if hop is None:
            break
        client = hop
    return str(client)


def throttle_bucket(address: str) -> str:
    """What a per-address limit counts: the address, or its /64 for IPv6."""
    parsed = _address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed) if parsed is not None else address
