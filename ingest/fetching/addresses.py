"""Which IP addresses the fetcher refuses, with a name for each reason.

Python's `is_private`/`is_global` are wrong for several of these (e.g. IPv4-mapped IPv6 before
3.13, 100.64.0.0/10), so the table is explicit, and IPv6 forms that embed an IPv4 address are
unwrapped and the embedded address is checked too.
"""

from __future__ import annotations

import ipaddress

from django.utils.translation import gettext, gettext_noop

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_V4 = [
    ("0.0.0.0/8", gettext_noop("unspecified")),
    ("10.0.0.0/8", gettext_noop("private")),
    ("100.64.0.0/10", gettext_noop("carrier-grade NAT")),
    ("127.0.0.0/8", gettext_noop("loopback")),
    ("169.254.0.0/16", gettext_noop("link-local")),
    ("172.16.0.0/12", gettext_noop("private")),
    ("192.0.0.0/24", gettext_noop("reserved")),
    ("192.0.2.0/24", gettext_noop("documentation")),
    ("192.88.99.0/24", gettext_noop("reserved")),
    ("192.168.0.0/16", gettext_noop("private")),
    ("198.18.0.0/15", gettext_noop("benchmarking")),
    ("198.51.100.0/24", gettext_noop("documentation")),
    ("203.0.113.0/24", gettext_noop("documentation")),
    ("224.0.0.0/4", gettext_noop("multicast")),
    ("240.0.0.0/4", gettext_noop("reserved")),
]
_V6 = [
    ("::/128", gettext_noop("unspecified")),
    ("::1/128", gettext_noop("loopback")),
    ("64:ff9b:1::/48", gettext_noop("local NAT64")),
    ("100::/64", gettext_noop("discard")),
    ("2001:db8::/32", gettext_noop("documentation")),
    ("2001:10::/28", gettext_noop("reserved")),
    ("2001:20::/28", gettext_noop("reserved")),
    ("fc00::/7", gettext_noop("private")),
    ("fe80::/10", gettext_noop("link-local")),
    ("fec0::/10", gettext_noop("site-local")),
    ("ff00::/8", gettext_noop("multicast")),
]
EMBEDDED_SUFFIX = " (embedded in IPv6)"

_V4_NETWORKS = [(ipaddress.ip_network(net), reason) for net, reason in _V4]
_V6_NETWORKS = [(ipaddress.ip_network(net), reason) for net, reason in _V6]
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_COMPATIBLE = ipaddress.ip_network("::/96")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped:
        return address.ipv4_mapped
    if address.sixtofour:
        return address.sixtofour
    if address.teredo:
        return address.teredo[1]
    if address in _NAT64 or address in _COMPATIBLE:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refused_address_reason(address: IPAddress) -> str | None:
    """The reason `address` may not be connected to, or None when it is a public address."""
    if isinstance(address, ipaddress.IPv4Address):
        for network, reason in _V4_NETWORKS:
            if address in network:
                return reason
        return None
    if address.scope_id:
        return gettext_noop("scoped")
    for network, reason in _V6_NETWORKS:
        if address in network:
            return reason
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        reason = refused_address_reason(embedded)
        if reason:
            return f"{reason}{EMBEDDED_SUFFIX}"
    return None


def reason_label(reason: str) -> str:
    """`reason` (as refused_address_reason() names it) in the active language."""
    if reason.endswith(EMBEDDED_SUFFIX):
        return gettext("%(reason)s (embedded in IPv6)") % {
            "reason": gettext(reason.removesuffix(EMBEDDED_SUFFIX))
        }
    return gettext(reason)
