"""Verification: walk every seal and every event, and name the first thing that is wrong.

Checks, in chain order: each seal's sequence number, parent hash, batch hash, chain hash and
signature; then that the events in its range are exactly the sealed ones, byte for byte. A
sealed event that changed is *modified*, one that is gone is *missing*, one that appears where
the chain has none is *inserted*. The head is also checked against the head recorded by the
previous successful verification and, if given, an anchor exported earlier
(``audit_export_head``): a chain cut short or rebuilt shows there.

Retention (``casino/retention``): once old partitions are detached to the archive, the walk
starts after the archived prefix's head seal, from its chain hash (which must still be that
seal's), and the archived events of the seals straddling the boundary are skipped; any other
sealed event that is gone is still *missing*.

Speed: events are read as raw COPY lines in chunks of ~50,000 and hashed with hashlib in one
list comprehension; only a chunk that does not match is parsed event by event.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from audit import events
from audit.digests import (
    BEFORE_FIRST,
    DIGEST_FORMAT,
    DIGEST_SIZE,
    GENESIS_HASH,
    ID_SIZE,
    digest_session,
    event_lines,
    line_digests,
    line_key,
)
from audit.heads import head_signature_valid
from audit.models import AuditEvent, AuditSeal
from audit.sealing import batch_hash, seal_header, seal_signature_valid, unpack_ids
from casino.actors import Actor
from casino.retention.chain import ArchivedPrefix, audit_archived_prefix

CHUNK_EVENTS = 50_000
SEAL_PAGE = 1_000

_SEAL_COLUMNS = [f.attname for f in AuditSeal._meta.concrete_fields]


@dataclass(frozen=True)
class Problem:
    kind: str  # modified | missing | inserted | seal_invalid | seal_missing | head_mismatch
    detail: str
    event_id: int | None = None
    seal_seq: int | None = None


@dataclass
class VerificationReport:
    ok: bool = True
    events_verified: int = 0
    seals_verified: int = 0
    events_pending: int = 0
    head_seq: int | None = None
    head_hash: str = GENESIS_HASH
    started_at: str = ""
    duration_s: float = 0.0
    problem: Problem | None = None
    anchors_checked: list[int] = field(default_factory=list)
    archived_through_seq: int | None = None  # the detached prefix's head seal (retention)
    events_archived: int = 0  # sealed events after that head found in the archive, not here

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Failed(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem


def audit_chain_verify(
    *, anchor: dict | None = None, chunk_events: int = CHUNK_EVENTS
) -> VerificationReport:
    """Verify the whole log in one consistent snapshot; ``report.problem`` names the first fault.

    ``anchor`` is a head exported earlier (``audit_head_export``): its signature must hold and
    the chain must still contain that exact seal.
    """
    report = VerificationReport(started_at=timezone.now().isoformat())
    started = time.perf_counter()
    outermost = not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        if outermost:
            # One snapshot for the seals and the events they cover.
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        digest_session(cursor)
        try:
            _walk(cursor, report, chunk_events)
            for head in _anchors(anchor):
                _check_anchor(cursor, head, report)
        except _Failed as failure:
            report.ok = False
            report.problem = failure.problem
    report.duration_s = round(time.perf_counter() - started, 3)
    return report


def _walk(cursor, report: VerificationReport, chunk_events: int) -> None:
    prev_hash, next_seq, after = GENESIS_HASH, 1, BEFORE_FIRST
    archive = audit_archived_prefix()
    if archive is not None:
        _check_archived_head(cursor, archive)
        prev_hash, next_seq, after = archive.head_hash, archive.head_seq + 1, archive.head_key
        report.archived_through_seq = archive.head_seq
    for chunk in _seal_chunks(cursor, chunk_events, after_seq=next_seq - 1):
        for seal in chunk:
            _check_seal(seal, expected_seq=next_seq, prev_hash=prev_hash)
            prev_hash, next_seq = seal.chain_hash, seal.seq + 1
        last = chunk[-1]
        through = (last.last_txid, last.last_event_id)
        lines = event_lines(cursor, after=after, through=through)
        expected = b"".join(seal.event_digests for seal in chunk)
        if archive is not None and _has_archived(chunk, archive):
            kept = [e for e in _expected(chunk) if not archive.archived(e[0])]
            report.events_archived += len(expected) // DIGEST_SIZE - len(kept)
            expected = b"".join(digest for _, digest, _ in kept)
        if line_digests(lines) != expected:
            raise _Failed(_diagnose(chunk, lines, archive))
        report.events_verified += len(lines)
        report.seals_verified += len(chunk)
        report.head_seq, report.head_hash = last.seq, last.chain_hash
        after = through
    cursor.execute("SELECT count(*) FROM audit_auditevent WHERE (txid, id) > (%s, %s)", after)
    report.events_pending = cursor.fetchone()[0]


def _check_archived_head(cursor, archive: ArchivedPrefix) -> None:
    if archive.head_seq == 0:
        return
    cursor.execute("SELECT chain_hash FROM audit_auditseal WHERE seq = %s", [archive.head_seq])
    row = cursor.fetchone()
    if row is None or row[0] != archive.head_hash:
        raise _Failed(
            Problem(
                "head_mismatch",
                f"seal {archive.head_seq}, the head of the archived prefix (event "
                f"{archive.event_id}), no longer has the chain hash recorded at detachment",
                seal_seq=archive.head_seq,
            )
        )


def _has_archived(chunk: list[AuditSeal], archive: ArchivedPrefix) -> bool:
    return any(archive.archived(i) for seal in chunk for i in unpack_ids(seal.event_ids))


def _seal_chunks(cursor, chunk_events: int, *, after_seq: int = 0):
    """Seals in chain order, grouped so each group covers about ``chunk_events`` events."""
    chunk: list[AuditSeal] = []
    size, last_seq = 0, after_seq
    while True:
        cursor.execute(
            f"SELECT {', '.join(_SEAL_COLUMNS)} FROM audit_auditseal "
            "WHERE seq > %s ORDER BY seq LIMIT %s",
            [last_seq, SEAL_PAGE],
        )
        rows = cursor.fetchall()
        for row in rows:
            seal = AuditSeal(**dict(zip(_SEAL_COLUMNS, row, strict=True)))
            seal.event_ids, seal.event_digests = bytes(seal.event_ids), bytes(seal.event_digests)
            chunk.append(seal)
            size += seal.event_count
            if size >= chunk_events:
                yield chunk
                chunk, size = [], 0
        if len(rows) < SEAL_PAGE:
            break
        last_seq = rows[-1][0]
    if chunk:
        yield chunk


def _check_seal(seal: AuditSeal, *, expected_seq: int, prev_hash: str) -> None:
    def invalid(why: str) -> _Failed:
        return _Failed(Problem("seal_invalid", f"seal {seal.seq}: {why}", seal_seq=seal.seq))

    if seal.seq != expected_seq:
        raise _Failed(
            Problem(
                "seal_missing",
                f"seal {expected_seq} is missing (the next seal is {seal.seq})",
                seal_seq=expected_seq,
            )
        )
    if seal.digest_format != DIGEST_FORMAT:
        raise invalid(f"unknown digest format {seal.digest_format}")
    if seal.scheme not in AuditSeal.Scheme.values:
        raise invalid(f"unknown signing scheme {seal.scheme}")
    if seal.prev_hash != prev_hash:
        raise invalid("its parent hash is not the previous seal's chain hash")
    count = seal.event_count
    if len(seal.event_ids) != count * ID_SIZE or len(seal.event_digests) != count * DIGEST_SIZE:
        raise invalid("its event lists do not hold event_count entries")
    if batch_hash(seal.event_ids, seal.event_digests) != seal.batch_hash:
        raise invalid("its event lists do not match its batch hash")
    if hashlib.sha256(seal_header(seal)).hexdigest() != seal.chain_hash:
        raise invalid("its header does not match its chain hash")
    if not seal_signature_valid(seal):
        raise invalid(f"its signature does not verify (key {seal.key_id})")


def _expected(chunk: list[AuditSeal]) -> list[tuple[int, bytes, int]]:
    """(event id, digest, seal seq) of every event the seals of ``chunk`` list, in order."""
    expected = []
    for seal in chunk:
        ids = unpack_ids(seal.event_ids)
        for index, event_id in enumerate(ids):
            digest = seal.event_digests[index * DIGEST_SIZE : (index + 1) * DIGEST_SIZE]
            expected.append((event_id, digest, seal.seq))
    return expected


def _diagnose(
    chunk: list[AuditSeal], lines: list[bytes], archive: ArchivedPrefix | None = None
) -> Problem:
    """The first difference, in chain order, between the sealed events and the stored ones."""
    expected = _expected(chunk)
    if archive is not None:
        expected = [e for e in expected if not archive.archived(e[0])]
    actual = [(line_key(line)[1], hashlib.sha256(line).digest()) for line in lines]
    expected_ids = {event_id for event_id, _, _ in expected}
    actual_ids = {event_id for event_id, _ in actual}
    for position in range(max(len(expected), len(actual))):
        exp = expected[position] if position < len(expected) else None
        act = actual[position] if position < len(actual) else None
        if exp and act and exp[0] == act[0]:
            if exp[1] != act[1]:
                return _event_problem("modified", exp[0], exp[2], "its content changed")
            continue
        if act and act[0] not in expected_ids:
            seal_seq = exp[2] if exp else chunk[-1].seq
            return _event_problem("inserted", act[0], seal_seq, "the chain has no such event")
        assert exp is not None
        if exp[0] in actual_ids or AuditEvent.objects.filter(pk=exp[0]).exists():
            return _event_problem("modified", exp[0], exp[2], "its position (txid) changed")
        return _event_problem("missing", exp[0], exp[2], "it is gone from the log")
    raise AssertionError("digests differ but no difference was found")


def _event_problem(kind: str, event_id: int, seal_seq: int, why: str) -> Problem:
    return Problem(kind, f"event {event_id} ({kind}, seal {seal_seq}): {why}", event_id, seal_seq)


def _anchors(anchor: dict | None) -> list[dict]:
    """Heads the chain must still contain: a given anchor and the last verified head."""
    heads = []
    if anchor is not None:
        head = anchor.get("head") or {}
        if not head_signature_valid(anchor):
            raise _Failed(Problem("head_mismatch", "the anchor's signature does not verify"))
        heads.append(head)
    last = (
        AuditEvent.objects.filter(name=events.VERIFIED, actor_kind="system")
        .order_by("-id")
        .values_list("payload", flat=True)
        .first()
    )
    if last and last.get("head_seq"):
        heads.append({"seq": last["head_seq"], "chain_hash": last["head_hash"]})
    return heads


def _check_anchor(cursor, head: dict, report: VerificationReport) -> None:
    if head["seq"] == 0:
        return  # exported before the first seal: the genesis is in every chain
    cursor.execute("SELECT chain_hash FROM audit_auditseal WHERE seq = %s", [head["seq"]])
    row = cursor.fetchone()
    if row is None or row[0] != head["chain_hash"]:
        raise _Failed(
            Problem(
                "head_mismatch",
                f"seal {head['seq']} no longer has the chain hash recorded earlier "
                f"({head['chain_hash'][:16]}...): the chain was cut short or rebuilt",
                seal_seq=head["seq"],
            )
        )
    report.anchors_checked.append(head["seq"])


def audit_verification_run(*, actor: Actor, anchor: dict | None = None) -> VerificationReport:
    """Verify the log and record the outcome in it (``audit.verified`` or ``..._failed``)."""
    report = audit_chain_verify(anchor=anchor)
    with transaction.atomic():
        events.verification_recorded(actor=actor, report=report.as_dict())
    return report
