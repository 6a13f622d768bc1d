"""The proof that a round's audit events are intact: content hashes, the seals' digests, the
chain's latest verification; and who did each step (the audit event's attribution)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction

from audit import selectors
from audit.canonical import content_hash_matches
from audit.digests import DIGEST_COLUMNS, DIGEST_SIZE, digest_session
from audit.models import AuditEvent, AuditSeal
from audit.sealing import unpack_ids
from audit.services import audit_event_content
from casino import replica
from forensics.replay_differences import Differences


def attribution(event: AuditEvent | None) -> dict[str, Any] | None:
    """Who did it (the audit event's actor) and, from its hashed payload, for whom and after
    what: the tamper-evident answer to "who dealt this card?"."""
    if event is None:
        return None
    recorded = event.payload.get("attribution") or {}
    return {
        "actor": {"kind": event.actor_kind, "id": event.actor_id, "label": event.actor_label},
        "on_behalf_of": recorded.get("on_behalf_of"),
        "via": recorded.get("via"),
    }


def integrity_proof(*, events: list[AuditEvent], differences: Differences) -> dict[str, Any]:
    """Each of the round's audit events against its content hash and, once sealed, the digest
    its seal holds; the seals, and whether the latest verification covers them."""
    seals = _seals_for(events)
    digests = _event_digests([e.pk for e in events]) if seals else {}
    rows = []
    intact = True
    for event in events:
        hash_ok = content_hash_matches(audit_event_content(event), event.content_hash)
        seal = next(
            (
                s
                for s in seals
                if (s.last_txid, s.last_event_id) >= (event.txid, event.pk)
                and (s.first_txid, s.first_event_id) <= (event.txid, event.pk)
            ),
            None,
        )
        sealed_ok = None
        if seal is not None:
            sealed_ok = _sealed_digest(seal, event.pk) == digests.get(event.pk)
        if not hash_ok or sealed_ok is False:
            intact = False
            differences.add(
                "audit_event_modified",
                f"audit event {event.pk} ({event.name}) no longer matches its "
                + ("content hash" if not hash_ok else f"digest in seal {seal.seq}"),
                bet_ref=str(event.payload.get("event", {}).get("bet_id", "")),
                field=f"audit event {event.pk}",
                source="audit_log",
            )
        rows.append(
            {
                "id": event.pk,
                "name": event.name,
                "occurred_at": event.occurred_at,
                "actor": event.actor_label,
                "attribution": attribution(event),
                "content_hash": event.content_hash,
                "content_hash_ok": hash_ok,
                "seal_seq": seal.seq if seal else None,
                "chain_hash": seal.chain_hash if seal else "",
                "sealed_digest_ok": sealed_ok,
            }
        )
    verification = selectors.audit_verification_latest()
    last_sealed = max((r["seal_seq"] or 0 for r in rows), default=0)
    covered = bool(
        verification
        and verification.get("ok")
        and rows
        and all(r["seal_seq"] for r in rows)
        and (verification.get("head_seq") or 0) >= last_sealed
    )
    return {
        "events": rows,
        "event_count": len(rows),
        "all_sealed": bool(rows) and all(r["seal_seq"] for r in rows),
        "intact": intact,
        "seals": [
            {
                "seq": s.seq,
                "chain_hash": s.chain_hash,
                "sealed_at": s.sealed_at,
                "signature": s.signature,
                "key_id": s.key_id,
            }
            for s in seals
        ],
        "verification": _verification_summary(verification),
        "covered_by_verification": covered,
    }


def _seals_for(events: list[AuditEvent]) -> list[AuditSeal]:
    if not events:
        return []
    first = min((e.txid, e.pk) for e in events)
    last = max((e.txid, e.pk) for e in events)
    seals = []
    for key in (first, last):
        event = AuditEvent(pk=key[1], txid=key[0])
        seal = selectors.audit_event_seal(event)
        if seal is not None:
            seals.append(seal.seq)
    if not seals:
        return []
    upper = (
        max(seals)
        if len(seals) == 2
        else AuditSeal.objects.order_by("-seq").values_list("seq", flat=True).first()
    )
    return list(AuditSeal.objects.filter(seq__gte=min(seals), seq__lte=upper).order_by("seq"))


def _sealed_digest(seal: AuditSeal, event_id: int) -> bytes | None:
    ids = unpack_ids(bytes(seal.event_ids))
    try:
        index = ids.index(event_id)
    except ValueError:
        return None
    digests = bytes(seal.event_digests)
    return digests[index * DIGEST_SIZE : (index + 1) * DIGEST_SIZE]


def _event_digests(ids: list[int]) -> dict[int, bytes]:
    """The digest (format 1, ``audit.digests``) of each event's current row."""
    if not ids:
        return {}
    id_list = ", ".join(str(int(i)) for i in ids)
    query = f"SELECT {', '.join(DIGEST_COLUMNS)} FROM audit_auditevent WHERE id IN ({id_list})"
    db = replica.connection()
    with transaction.atomic(using=db.alias), db.cursor() as cursor:
        digest_session(cursor)
        with cursor.copy(f"COPY ({query}) TO STDOUT") as copy:
            data = b"".join(copy)
    out = {}
    for line in data.split(b"\n")[:-1]:
        out[int(line.split(b"\t", 1)[0])] = hashlib.sha256(line).digest()
    return out


def _verification_summary(verification: dict[str, Any] | None) -> dict[str, Any] | None:
    if verification is None:
        return None
    return {
        "event_id": verification.get("event_id"),
        "recorded_at": verification.get("recorded_at"),
        "ok": verification.get("ok"),
        "head_seq": verification.get("head_seq"),
        "head_hash": verification.get("head_hash"),
        "problem": verification.get("problem"),
    }
