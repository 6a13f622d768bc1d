"""Minting and checking secrets: ``<kind>_<prefix>_<secret>``, stored as SHA-256 only; and
the address allow-lists credentials may carry."""

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Iterable
from functools import lru_cache

PREFIX_BYTES = 6
SECRET_BYTES = 32


def credential_mint(*, kind: str, prefix: str | None = None) -> tuple[str, str, str]:
    """A new raw credential with its prefix and stored hash: (raw, prefix, secret_hash).

    A rotation passes the credential's own prefix: the new secret replaces the old one."""
    prefix = prefix or secrets.token_hex(PREFIX_BYTES)
    raw = f"{kind}_{prefix}_{secrets.token_urlsafe(SECRET_BYTES)}"
    return raw, prefix, credential_hash(raw)


def credential_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def credential_split(raw: str, *, kind: str) -> str | None:
    """The prefix of a well-formed raw credential of this kind, else None."""
    parts = raw.split("_", 2)
    if len(parts) != 3 or parts[0] != kind or len(parts[1]) != PREFIX_BYTES * 2:
        return None
    return parts[1]


def credential_matches(raw: str, secret_hash: str) -> bool:
    return hmac.compare_digest(credential_hash(raw), secret_hash)


def networks_normalize(values: Iterable[str]) -> list[str]:
    """CIDRs (or single addresses) as their canonical networks, sorted and without duplicates;
    ValueError naming the first that is not one."""
    networks = set()
    for value in values:
        value = value.strip()
        if not value:
            continue
        try:
            networks.add(ipaddress.ip_network(value, strict=False))
        except ValueError:
            raise ValueError(
                f"{value!r} is not an IP network (CIDR such as 203.0.113.0/24)"
            ) from None
    return [str(n) for n in sorted(networks, key=lambda n: (n.version, n))]


def address_allowed(address: str, networks: list[str]) -> bool:
    """Whether ``address`` (REMOTE_ADDR) is inside one of ``networks``; no networks: any."""
    if not networks:
        return True
    ip = address_parse(address)
    return ip is not None and any(ip in network for network in _parsed(tuple(networks)))


def address_parse(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """REMOTE_ADDR as an address (an IPv4-mapped IPv6 address as its IPv4 one), else None."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return getattr(ip, "ipv4_mapped", None) or ip


@lru_cache(maxsize=256)
def _parsed(networks: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(n) for n in networks)
