"""Where webhooks may go: the egress allow-list (no SSRF from the worker).

A webhook URL is an operator's input that the worker turns into a request from inside the
casino's network. So a target must be ``http``/``https`` on a public address: no loopback,
private, link-local (cloud metadata at 169.254.169.254), multicast, reserved or unspecified
address, unless ``settings.LEDGER_WEBHOOK_ALLOWED_HOSTS`` names the host or its network (tests,
the demo, an operator reached over a private link).

The check runs when the URL is set and again at every delivery, on the addresses the name
resolves to then; the delivery connects to the address that was checked (``webhooks._post``),
so a DNS answer that changes between check and connect (rebinding) cannot redirect it.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from casino.errors import ValidationFailed

FIELD = "webhook_url"
SCHEMES = {"http": 80, "https": 443}
MAX_LENGTH = 500
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class EgressRefused(ValidationFailed):
    def __init__(self, reason: str):
        super().__init__(f"webhook_url: {reason}", errors={FIELD: [reason]})
        self.reason = reason


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written in the URL (the Host header and the TLS server name)
    port: int
    path: str  # path and query
    address: str  # the checked address to connect to


def _public(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_global and not (address.is_multicast or address.is_reserved)


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
    if any(ord(c) < 33 for c in url):
        raise EgressRefused("the URL contains spaces or control characters")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, parts.hostname.lower(), port or SCHEMES[scheme], path


def webhook_target_check(url: str) -> Target:
    """The target of ``url`` if every address it resolves to may be reached, else
    EgressRefused (a 400 naming ``webhook_url``)."""
    scheme, host, port, path = _parse(url)
    addresses = _resolve(host, port)
    for address in addresses:
        if not (_public(address) or _allowed_by_setting(host, address)):
            raise EgressRefused(
                f"{host} resolves to {address}, which is not a public address "
                "(private, loopback, link-local, multicast and reserved targets are refused)"
            )
    return Target(scheme=scheme, host=host, port=port, path=path, address=str(addresses[0]))
