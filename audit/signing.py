"""Ed25519 signatures of seals, exported chain heads and export bundles, under key ids.

The private keys (settings.AUDIT_SIGNING_KEYS) live outside the database: a role that can
rewrite the audit tables still cannot produce seals that verify, and anyone holding only the
public keys (``GET /api/v1/audit/keys/``, every export's manifest) can check a signature
without being able to forge one. The first signing key is the active one; the others, and the
public keys of retired keys (settings.AUDIT_PUBLIC_KEYS), still verify what they signed. A key
id is the first 16 hex digits of the SHA-256 of the raw 32-byte public key.

Seals written before this scheme carry an HMAC-SHA256 (``LEGACY_ALGORITHM``) under the secret
settings.AUDIT_SIGNING_KEY; ``legacy_signature_valid`` keeps checking them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import lru_cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

ALGORITHM = "Ed25519"
LEGACY_ALGORITHM = "HMAC-SHA256"
_PEM_BLOCK = re.compile(r"-----BEGIN ([A-Z ]+)-----.+?-----END \1-----", re.S)


@dataclass(frozen=True)
class KeyRing:
    active: Ed25519PrivateKey
    active_id: str
    public: dict[str, Ed25519PublicKey]  # key id -> key, the active one first


def public_raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id_of(key: Ed25519PublicKey) -> str:
    return hashlib.sha256(public_raw(key)).hexdigest()[:16]


def _entries(text: str) -> list[str]:
    """PEM blocks, or base64 strings separated by commas or whitespace."""
    blocks = [match.group(0) for match in _PEM_BLOCK.finditer(text)]
    rest = _PEM_BLOCK.sub(" ", text)
    return blocks + [item for item in re.split(r"[,\s]+", rest) if item]


def _b64(text: str) -> bytes:
    try:
        standard = text.replace("-", "+").replace("_", "/")  # accept the URL-safe alphabet too
        return base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise ImproperlyConfigured(f"not base64: {text[:8]}...") from error


def _private_key(entry: str) -> Ed25519PrivateKey:
    if entry.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(entry.encode("ascii"), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ImproperlyConfigured("AUDIT_SIGNING_KEYS holds a key that is not Ed25519")
        return key
    raw = _b64(entry)
    if len(raw) != 32:
        raise ImproperlyConfigured("an AUDIT_SIGNING_KEYS entry is not a 32-byte Ed25519 seed")
    return Ed25519PrivateKey.from_private_bytes(raw)


def public_key_load(entry: str) -> Ed25519PublicKey:
    if entry.startswith("-----BEGIN"):
        key = serialization.load_pem_public_key(entry.encode("ascii"))
        if not isinstance(key, Ed25519PublicKey):
            raise ImproperlyConfigured("AUDIT_PUBLIC_KEYS holds a key that is not Ed25519")
        return key
    raw = _b64(entry)
    if len(raw) != 32:
        raise ImproperlyConfigured("an AUDIT_PUBLIC_KEYS entry is not a 32-byte Ed25519 key")
    return Ed25519PublicKey.from_public_bytes(raw)


@lru_cache(maxsize=4)
def _ring(signing: str, public: str) -> KeyRing:
    private = [_private_key(entry) for entry in _entries(signing)]
    if not private:
        raise ImproperlyConfigured(
            "AUDIT_SIGNING_KEYS is not set: production needs an Ed25519 key to sign audit seals."
        )
    keys = [key.public_key() for key in private] + [public_key_load(e) for e in _entries(public)]
    return KeyRing(
        active=private[0],
        active_id=key_id_of(keys[0]),
        public={key_id_of(key): key for key in keys},
    )


def key_ring() -> KeyRing:
    """The keys the settings name (a string, or a list of entries)."""

    def text(name: str) -> str:
        value = getattr(settings, name, None) or ""
        return value if isinstance(value, str) else "\n".join(value)

    return _ring(text("AUDIT_SIGNING_KEYS"), text("AUDIT_PUBLIC_KEYS"))


def key_id() -> str:
    """The id of the active signing key."""
    return key_ring().active_id


def sign(message: bytes) -> str:
    return key_ring().active.sign(message).hex()


def signature_valid(message: bytes, *, signed_key_id: str, signature: str) -> bool:
    """Whether ``signature`` (hex) over ``message`` verifies under the known key it names."""
    key = key_ring().public.get(signed_key_id)
    if key is None:
        return False
    try:
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def public_keys() -> list[dict[str, object]]:
    """Every verifying key: id, algorithm, raw public key (base64) and whether it signs now."""
    ring = key_ring()
    return [
        {
            "key_id": kid,
            "algorithm": ALGORITHM,
            "public_key": base64.b64encode(public_raw(key)).decode("ascii"),
            "active": kid == ring.active_id,
        }
        for kid, key in ring.public.items()
    ]


def _legacy_key() -> bytes | None:
    key = getattr(settings, "AUDIT_SIGNING_KEY", None)
    return key.encode("utf-8") if key else None


def legacy_key_id() -> str | None:
    key = _legacy_key()
    return hashlib.sha256(b"casino.audit.key-id:" + key).hexdigest()[:16] if key else None


def legacy_sign(message: bytes) -> str:
    """An HMAC as seals were signed before Ed25519 (kept for tests of old rows)."""
    key = _legacy_key()
    if key is None:
        raise ImproperlyConfigured("AUDIT_SIGNING_KEY (the legacy HMAC key) is not set")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def legacy_signature_valid(message: bytes, *, signed_key_id: str, signature: str) -> bool:
    key = _legacy_key()
    if key is None or signed_key_id != legacy_key_id():
        return False
    return hmac.compare_digest(hmac.new(key, message, hashlib.sha256).hexdigest(), signature)
