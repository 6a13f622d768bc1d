"""The chain head: what to anchor outside the database, signed so it cannot be forged."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils import timezone

from audit import signing
from audit.canonical import canonical_json
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

    Anyone holding the key (``audit_verify --against``) can later prove the chain still
    contains this exact head; storing exports outside the database (a ticket, an email to the
    regulator, a WORM bucket) means a rebuilt or truncated chain cannot go unnoticed.
    """
    head = {
        "format": 1,
        **audit_head_current(),
        "events_sealed": AuditSeal.objects.aggregate(n=Sum("event_count"))["n"] or 0,
        "exported_at": timezone.now().isoformat(),
        "key_id": signing.key_id(),
    }
    signature = signing.sign(canonical_json(head).encode("utf-8"))
    return {"head": head, "algorithm": signing.ALGORITHM, "signature": signature}
