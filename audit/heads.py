"""The chain head: what to anchor outside the database, signed so it cannot be forged.

An exported head (format 2) is signed with Ed25519 over its RFC 8785 form and carries the
public keys, so anyone can check it; heads exported before (format 1, HMAC-SHA256 over
``canonical_json``) still verify with the legacy key.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils import timezone

from audit import signing
from audit.canonical import canonical_json, jcs
from audit.digests import GENESIS_HASH
from audit.models import AuditSeal


def audit_head_current() -> dict[str, Any]:
    """The latest seal as a plain document (``seq`` 0 and the genesis hash before any)."""
    seal = AuditSeal.objects.defer("event_ids", "event_digests").order_by("-seq").first()
    if seal is None:
        return {"seq": 0, "chain_hash": GENESIS_HASH, "sealed_at": None, "last_event": None}
    return {
        "seq": seal.seq,
        "chain_hash": seal.chain_hash,
        "sealed_at": seal.sealed_at.isoformat(),
        "last_event": [seal.last_txid, seal.last_event_id],
    }


def audit_head_export() -> dict[str, Any]:
    """The current head, with the number of sealed events, signed for external anchoring.

    Anyone holding the public key can later prove (``audit_verify --against``, or the
    standalone verifier with an export bundle) that the chain still contains this exact head;
    storing exports outside the database (a ticket, an email to the regulator, a WORM bucket)
    means a rebuilt or truncated chain cannot go unnoticed.
    """
    head = {
        "format": 2,
        **audit_head_current(),
        "events_sealed": AuditSeal.objects.aggregate(n=Sum("event_count"))["n"] or 0,
        "exported_at": timezone.now().isoformat(),
        "key_id": signing.key_id(),
    }
    return {
        "head": head,
        "algorithm": signing.ALGORITHM,
        "canonicalization": "RFC 8785",
        "signature": signing.sign(jcs(head)),
        "keys": signing.public_keys(),
    }


def head_signature_valid(anchor: dict[str, Any]) -> bool:
    """Whether an exported head's signature verifies (either format), with keys known here."""
    head = anchor.get("head") or {}
    signed = {"signed_key_id": head.get("key_id", ""), "signature": anchor.get("signature", "")}
    if anchor.get("algorithm") == signing.LEGACY_ALGORITHM:
        return signing.legacy_signature_valid(canonical_json(head).encode("utf-8"), **signed)
    try:
        message = jcs(head)
    except ValueError:
        return False
    return signing.signature_valid(message, **signed)
