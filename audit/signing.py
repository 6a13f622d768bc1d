"""HMAC-SHA256 signatures of seals and exported chain heads.

The key (settings.AUDIT_SIGNING_KEY) lives outside the database: a role that can rewrite the
audit tables still cannot produce seals that verify. ``key_id`` names the key without revealing
it, so a head exported today can be checked against the key that signed it.
"""

import hashlib
import hmac

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

ALGORITHM = "HMAC-SHA256"


def _key() -> bytes:
    key = getattr(settings, "AUDIT_SIGNING_KEY", None)
    if not key:
        raise ImproperlyConfigured(
            "AUDIT_SIGNING_KEY is not set: production needs an explicit key to sign audit seals."
        )
    return key.encode("utf-8")


def key_id() -> str:
    return hashlib.sha256(b"casino.audit.key-id:" + _key()).hexdigest()[:16]


def sign(message: bytes) -> str:
    return hmac.new(_key(), message, hashlib.sha256).hexdigest()


def signature_valid(message: bytes, *, signed_key_id: str, signature: str) -> bool:
    return signed_key_id == key_id() and hmac.compare_digest(sign(message), signature)
