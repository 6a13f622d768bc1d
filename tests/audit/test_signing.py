"""Signing keys from the settings: formats, rotation order, and the `audit` system check."""

import base64
import os

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.test import override_settings

from audit import signing
from audit.checks import signing_key_configured


def _seed() -> str:
    return base64.b64encode(os.urandom(32)).decode()


def test_keys_load_from_base64_seeds_and_pem_the_first_one_signing():
    pem = (
        Ed25519PrivateKey.generate()
        .private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        .decode()
    )
    first, retired = _seed(), Ed25519PrivateKey.generate().public_key()
    retired_pem = retired.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    with override_settings(AUDIT_SIGNING_KEYS=f"{first},\n{pem}", AUDIT_PUBLIC_KEYS=retired_pem):
        ring = signing.key_ring()
        assert next(iter(ring.public)) == ring.active_id == signing.key_id()
        assert len(ring.public) == 3 and signing.key_id_of(retired) in ring.public
        signature = signing.sign(b"m")
        assert signing.signature_valid(b"m", signed_key_id=signing.key_id(), signature=signature)
        assert not signing.signature_valid(
            b"n", signed_key_id=signing.key_id(), signature=signature
        )
        assert not signing.signature_valid(b"m", signed_key_id="0" * 16, signature=signature)
        assert signing_key_configured(None) == []


def test_the_audit_check_fails_without_a_key_or_with_a_bad_one():
    with override_settings(AUDIT_SIGNING_KEYS=""):
        assert [e.id for e in signing_key_configured(None)] == ["audit.E001"]
    with override_settings(AUDIT_SIGNING_KEYS=base64.b64encode(b"short").decode()):
        [error] = signing_key_configured(None)
        assert error.id == "audit.E002" and "32-byte" in error.msg
