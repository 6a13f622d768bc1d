"""Minting and checking secrets: ``<kind>_<prefix>_<secret>``, stored as SHA-256 only."""

import hashlib
import hmac
import secrets

PREFIX_BYTES = 6
SECRET_BYTES = 32


def credential_mint(*, kind: str) -> tuple[str, str, str]:
    """A new raw credential with its prefix and stored hash: (raw, prefix, secret_hash)."""
    prefix = secrets.token_hex(PREFIX_BYTES)
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
