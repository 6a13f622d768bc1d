"""Sealing: chaining finished events into signed seals, without ever making a writer wait.

Writers only INSERT (``audit_event_record``); each event carries its transaction id (``txid``).
The sealer takes ``pg_snapshot_xmin(pg_current_snapshot())``: every transaction below it has
committed or aborted, so no event with a smaller ``txid`` can ever appear again. Those events,
in (txid, id) order, are final; the sealer appends their digests to the chain. Concurrent
writers are never blocked and never blocked on: the only lock is a transaction-scoped advisory
lock that serialises sealers with each other. A long-running writing transaction only delays
sealing (its events and everything after them wait for the next run).
"""

from __future__ import annotations

import hashlib
import struct

from django.db import connection, transaction
from django.utils import timezone

from audit import signing
from audit.canonical import canonical_json, jcs
from audit.digests import (
    BEFORE_FIRST,
    DIGEST_FORMAT,
    GENESIS_HASH,
    digest_session,
    event_lines,
    line_digests,
    line_key,
)
from audit.models import AuditSeal

SEAL_LOCK_ID = int.from_bytes(b"aud.seal", "big") >> 1  # any fixed bigint, named once
MAX_EVENTS_PER_SEAL = 50_000


def seal_header_fields(seal: AuditSeal) -> dict:
    """Everything a seal claims, and its parent: what ``chain_hash`` covers."""
    fields = {
        "format": seal.digest_format,
        "seq": seal.seq,
        "sealed_at": seal.sealed_at.isoformat(),
        "horizon_txid": seal.horizon_txid,
        "first": [seal.first_txid, seal.first_event_id],
        "last": [seal.last_txid, seal.last_event_id],
        "count": seal.event_count,
        "batch_hash": seal.batch_hash,
        "prev_hash": seal.prev_hash,
    }
    if seal.scheme != AuditSeal.Scheme.LEGACY_HMAC:
        fields["scheme"] = seal.scheme
    return fields


def seal_header(seal: AuditSeal) -> bytes:
    """The bytes ``chain_hash`` is the SHA-256 of, in the seal's scheme's canonical JSON."""
    fields = seal_header_fields(seal)
    if seal.scheme == AuditSeal.Scheme.LEGACY_HMAC:
        return canonical_json(fields).encode("utf-8")
    return jcs(fields)


def seal_signature_valid(seal: AuditSeal) -> bool:
    check = (
        signing.legacy_signature_valid
        if seal.scheme == AuditSeal.Scheme.LEGACY_HMAC
        else signing.signature_valid
    )
    return check(
        seal.chain_hash.encode("ascii"), signed_key_id=seal.key_id, signature=seal.signature
    )


def batch_hash(event_ids: bytes, event_digests: bytes) -> str:
    return hashlib.sha256(event_ids + event_digests).hexdigest()


def pack_ids(ids: list[int]) -> bytes:
    return struct.pack(f">{len(ids)}q", *ids)


def unpack_ids(blob: bytes) -> tuple[int, ...]:
    return struct.unpack(f">{len(blob) // 8}q", blob)


def audit_chain_seal(*, max_events: int = MAX_EVENTS_PER_SEAL) -> list[AuditSeal]:
    """Seal every event of every finished transaction not sealed yet; return the new seals.

    Locking: takes the sealing advisory lock for its transaction (sealers queue on it; event
    writers never touch it). Reads the previous head after taking the lock, so two sealers can
    never fork the chain.
    """
    sealed: list[AuditSeal] = []
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SEAL_LOCK_ID])
        digest_session(cursor)
        head = AuditSeal.objects.order_by("-seq").first()
        cursor.execute("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
        horizon = cursor.fetchone()[0]
        after = (head.last_txid, head.last_event_id) if head else BEFORE_FIRST
        while True:
            lines = event_lines(cursor, after=after, below_txid=horizon, limit=max_events)
            if not lines:
                break
            head = _seal_append(lines, parent=head, horizon=horizon)
            sealed.append(head)
            after = (head.last_txid, head.last_event_id)
            if len(lines) < max_events:
                break
    return sealed


def _seal_append(lines: list[bytes], *, parent: AuditSeal | None, horizon: int) -> AuditSeal:
    keys = [line_key(line) for line in lines]
    event_ids = pack_ids([event_id for _, event_id in keys])
    event_digests = line_digests(lines)
    seal = AuditSeal(
        seq=parent.seq + 1 if parent else 1,
        sealed_at=timezone.now(),
        horizon_txid=horizon,
        first_txid=keys[0][0],
        first_event_id=keys[0][1],
        last_txid=keys[-1][0],
        last_event_id=keys[-1][1],
        event_count=len(lines),
        event_ids=event_ids,
        event_digests=event_digests,
        digest_format=DIGEST_FORMAT,
        batch_hash=batch_hash(event_ids, event_digests),
        prev_hash=parent.chain_hash if parent else GENESIS_HASH,
        scheme=AuditSeal.Scheme.ED25519_JCS,
        key_id=signing.key_id(),
    )
    seal.chain_hash = hashlib.sha256(seal_header(seal)).hexdigest()
    seal.signature = signing.sign(seal.chain_hash.encode("ascii"))
    seal.save(force_insert=True)
    return seal
