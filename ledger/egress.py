"""Where webhooks may go: the egress allow-list (no SSRF from the worker).

A webhook URL is an operator's input that the worker turns into a request from inside the
casino's network. So a target must be ``http``/``https`` on a public address and a port other
than 0: no loopback, private, link-local (cloud metadata at 169.254.169.254), site-local,
multicast, reserved, unspecified or other special-purpose address (IANA's registries), nor an
IPv6 address that carries such an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo), unless
``settings.LEDGER_WEBHOOK_ALLOWED_HOSTS`` names the host or its network (tests, the demo, an
operator reached over a private link). The URL holds no space, control, format, private-use or
unassigned character: what a screen shows of it would differ from where it goes.

The check runs when the URL is set and again at every delivery, on the addresses the name
resolves to then; the delivery connects to the address that was checked (``webhooks._post``),
so a DNS answer that changes between check and connect (rebinding) cannot redirect it.
"""

from __future__ import annotations

import ipaddress
import socket
import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from casino.errors import ValidationFailed

FIELD = "webhook_url"
SCHEMES = {"http": 80, "https": 443}
MAX_LENGTH = 500
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Special-purpose blocks that are not globally reachable (or deprecated) in IANA's IPv4 and IPv6
# Special-Purpose Address Registries (iana.org/assignments/iana-ipv4-special-registry and
# iana-ipv6-special-registry) but that Python 3.11's ``is_global`` calls global. 192.0.0.9 and
# 192.0.0.10 are global anycast services there, but no webhook receiver: the whole /24 goes.
NOT_GLOBAL = [
    ipaddress.ip_network(block)
    for block in (
        "192.0.0.0/24",  # IETF protocol assignments (RFC 6890)
        "192.88.99.0/24",  # 6to4 relay anycast, deprecated (RFC 7526)
        "64:ff9b:1::/48",  # local-use IPv4/IPv6 translation (RFC 8215)
        "100:0:0:1::/64",  # dummy IPv6 prefix (RFC 9780)
        "3fff::/20",  # documentation (RFC 9637)
        "5f00::/16",  # segment routing SIDs (RFC 9602)
    )
]
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the last 32 bits
# Characters a URL must not hold (Unicode categories): control, format (a right-to-left
# override), separators (every kind of space), private-use, unassigned and surrogates.
REFUSED_CATEGORIES = {"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"}


class EgressRefused(ValidationFailed):
    def __init__(self, reason: str, field: str = FIELD):
        super().__init__(f"{field}: {reason}", errors={field: [reason]})
        self.reason = reason

    def named(self, field: str) -> EgressRefused:
        """The same refusal for an endpoint whose body names the URL ``field``."""
        return EgressRefused(self.reason, field)


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written in the URL (the Host header and the TLS server name)
    port: int
    path: str  # path and query
    address: str  # the checked address to connect to


def _carried_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses a transition address hands its packets to (a relay or a translator
    unwraps them): 6to4's, Teredo's server and client, NAT64's."""
    if address.sixtofour:
        return (address.sixtofour,)
    if address.teredo:
        return address.teredo
    if address in NAT64:
        return (ipaddress.IPv4Address(address.packed[-4:]),)
    return ()


def _public(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:  # the IPv4 address itself, only written as IPv6
            return _public(address.ipv4_mapped)
        # Python calls 6to4 global whatever it carries: 2002:7f00:1:: reaches 127.0.0.1.
        if not all(_public(carried) for carried in _carried_ipv4(address)):
            return False
        if address.is_site_local:
            return False
    return (
        address.is_global
        and not (address.is_multicast or address.is_reserved)
        and not any(address in block for block in NOT_GLOBAL)
    )


def _allowed_by_setting(host: str, address: IPAddress) -> bool:
    for entry in settings.LEDGER_WEBHOOK_ALLOWED_HOSTS:
        try:
            if address in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            if entry.lower() == host:
                return True
    return False


def _resolve(host: str, port: int) -> list[IPAddress]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise EgressRefused(f"the host {host!r} does not resolve") from None
    # A scope id (fe80::1%eth0) is no part of the address to check.
    return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]


def _parse(url: str) -> tuple[str, str, int, str]:
    if len(url) > MAX_LENGTH:
        raise EgressRefused(f"longer than {MAX_LENGTH} characters")
    # Before urlsplit, which silently drops some of them (tabs, newlines, leading controls).
    refused = next((c for c in url if unicodedata.category(c) in REFUSED_CATEGORIES), None)
    if refused is not None:
        raise EgressRefused(
            f"the URL contains U+{ord(refused):04X}: no space, control, format, private-use "
            "or unassigned character is allowed"
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise EgressRefused("not a valid URL") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise EgressRefused("only http and https URLs are allowed")
    if not parts.hostname:
        raise EgressRefused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise EgressRefused("credentials in the URL are not allowed")
    if port == 0:
        raise EgressRefused("port 0 is not a port to connect to")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, parts.hostname.lower(), port or SCHEMES[scheme], path


def webhook_target_check(url: str) -> Target:
    """The target of ``url`` if every address it resolves to may be reached, else
    EgressRefused (a 400 naming ``webhook_url``; ``EgressRefused.named`` renames it for a body
    that calls the URL otherwise)."""
    scheme, host, port, path = _parse(url)
    addresses = _resolve(host, port)
    for address in addresses:
        if not (_public(address) or _allowed_by_setting(host, address)):
            raise EgressRefused(
                f"{host} resolves to {address}, which is not a public address "
                "(private, loopback, link-local, multicast, reserved and other special-purpose "
                "targets are refused)"
            )
    return Target(scheme=scheme, host=host, port=port, path=path, address=str(addresses[0]))
