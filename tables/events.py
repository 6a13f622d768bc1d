"""Audit events of the tables app: one function per event type, each called inside the
transaction that makes the change it records."""

from __future__ import annotations

from typing import Any

from audit.canonical import canonical_json, sha256_hex
from audit.services import audit_event_record
from casino.actors import Actor

TABLE_CHANGED = "tables.table_changed"
RULE_VERSION_CREATED = "tables.rule_version_created"
SHOE_SHUFFLED = "tables.shoe_shuffled"
SHOE_RETIRED = "tables.shoe_retired"
ROUND_OPENED = "tables.round_opened"
ROUND_PHASE_CHANGED = "tables.round_phase_changed"
ROUND_EVENT = "tables.round_event."  # + the engine event type (bet_placed, card_dealt, ...)
LATE_BET_REFUSED = "tables.late_bet_refused"
ROUND_SUSPENDED = "tables.round_suspended"
ROUND_RESUMED = "tables.round_resumed"
VOID_REQUESTED = "tables.void_requested"
VOID_REJECTED = "tables.void_rejected"
VOID_CANCELLED = "tables.void_cancelled"
VOID_EXPIRED = "tables.void_expired"
ROUND_VOIDED = "tables.round_voided"
ROUND_SETTLED = "tables.round_settled"
DEALER_BREAK = "tables.dealer_break"


def table_changed(*, actor: Actor, table, kind: str, before: dict, after: dict) -> None:
    """Status, limits, rules or dealer of a table changed (effective from the next round)."""
    audit_event_record(
        name=TABLE_CHANGED,
        actor=actor,
        casino_id=table.casino_id,
        table_id=table.pk,
        payload={"kind": kind, "before": before, "after": after},
    )


def dealer_break_changed(*, actor: Actor, dealer_break) -> None:
    """A dealer's break began or ended (``ended_at`` set)."""
    table = dealer_break.table
    audit_event_record(
        name=DEALER_BREAK,
        actor=actor,
        casino_id=table.casino_id if table else None,
        table_id=dealer_break.table_id,
        payload={
            "dealer_id": dealer_break.dealer_id,
            "started_at": dealer_break.started_at.isoformat(),
            "ended_at": dealer_break.ended_at.isoformat() if dealer_break.ended_at else None,
        },
    )


def rule_version_created(*, actor: Actor, kind: str, version) -> None:
    audit_event_record(
        name=RULE_VERSION_CREATED,
        actor=actor,
        payload={
            "kind": kind,
            "id": version.pk,
            "name": version.name,
            "version": version.version,
            "document": version.document,
        },
    )


def shoe_shuffled(*, actor: Actor, shoe, shuffle) -> None:
    """A shuffle record (with its commitment) exists before the shoe's first card."""
    audit_event_record(
        name=SHOE_SHUFFLED,
        actor=actor,
        table_id=shoe.table_id,
        payload={
            "shoe_id": shoe.pk,
            "shuffle": shuffle.number,
            "source": shoe.source,
            "method": shuffle.method,
            "device_id": shuffle.device_id,
            "commitment": shuffle.commitment,
            "cards": shuffle.cards,
            "deck_kind": shoe.deck_kind,
            "decks": shoe.decks,
            "cut_index": shoe.cut_index,
        },
    )


def shoe_retired(*, actor: Actor, shoe, reveal: list[dict[str, Any]]) -> None:
    audit_event_record(
        name=SHOE_RETIRED,
        actor=actor,
        table_id=shoe.table_id,
        payload={
            "shoe_id": shoe.pk,
            "cards_dealt": shoe.cards_dealt,
            "verified": shoe.verified,
            "reveal": reveal,
        },
    )


def round_opened(*, actor: Actor, round) -> None:
    audit_event_record(
        name=ROUND_OPENED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={
            "number": round.number,
            "rule_set_id": round.rule_set_id,
            "payout_schedule_id": round.payout_schedule_id,
            "limits": round.limits,
            "currency": round.currency,
            "card_source": round.card_source,
            "dealer_id": round.dealer_id,
            "shoe_id": round.shoe_id,
            "betting_closes_at": (
                round.betting_closes_at.isoformat() if round.betting_closes_at else None
            ),
        },
    )


def round_phase_changed(*, actor: Actor, round, before: str, after: str) -> None:
    audit_event_record(
        name=ROUND_PHASE_CHANGED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={"from": before, "to": after, "seq": round.seq},
    )


def round_event(
    *,
    actor: Actor,
    round,
    seq: int,
    event: dict[str, Any],
    bet_id: int | None = None,
    forced: bool = False,
) -> None:
    """One engine event of a round (bet, card, decision, timeout default, match, ...);
    ``forced``: a card the rules dealt without a decision (§6, §7)."""
    payload: dict[str, Any] = {"seq": seq, "event": event}
    if forced:
        payload["forced"] = True
    audit_event_record(
        name=ROUND_EVENT + event["type"],
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        bet_id=bet_id,
        payload=payload,
    )


def late_bet_refused(
    *, actor: Actor, table_id: int, round_id: int, reason: str, bet: dict[str, Any]
) -> None:
    audit_event_record(
        name=LATE_BET_REFUSED,
        actor=actor,
        table_id=table_id,
        round_id=round_id,
        payload={"reason": reason, "bet": bet},
    )


def round_suspended(*, actor: Actor, round, reason: str, card: str = "") -> None:
    audit_event_record(
        name=ROUND_SUSPENDED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={"reason": reason, "card": card, "seq": round.seq},
    )


def round_resumed(*, actor: Actor, round, reason: str, note: str) -> None:
    audit_event_record(
        name=ROUND_RESUMED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={"suspended_for": reason, "note": note, "seq": round.seq},
    )


def void_requested(*, actor: Actor, round, request) -> None:
    """A void request: the round is held from now until it is decided or expires."""
    audit_event_record(
        name=VOID_REQUESTED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={
            "void_request_id": request.pk,
            "reason": request.reason,
            "phase": round.phase,
            "seq": round.seq,
            "expires_at": request.expires_at.isoformat(),
        },
    )


def _hold_ended(name: str, actor: Actor, round, request) -> None:
    audit_event_record(
        name=name,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={
            "void_request_id": request.pk,
            "reason": request.reason,
            "requested_by": request.requested_by_id,
            "decided_by": request.decided_by_id,
            "note": request.decision_note,
            "phase": round.phase,
            "seq": round.seq,
        },
    )


def void_rejected(*, actor: Actor, round, request) -> None:
    """Another staff member rejected the void request: the hold ends, the round carries on."""
    _hold_ended(VOID_REJECTED, actor, round, request)


def void_cancelled(*, actor: Actor, round, request) -> None:
    """The requester (or a pit boss) cancelled the void request: the hold ends."""
    _hold_ended(VOID_CANCELLED, actor, round, request)


def void_expired(*, actor: Actor, round, request) -> None:
    """Nobody decided the void request in time: it expired, the hold ends."""
    _hold_ended(VOID_EXPIRED, actor, round, request)


def round_voided(*, actor: Actor, round, request, settlement: dict[str, Any]) -> None:
    audit_event_record(
        name=ROUND_VOIDED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={
            "void_request_id": request.pk,
            "reason": request.reason,
            "requested_by": request.requested_by_id,
            "approved_by": request.decided_by_id,
            "ledger_transaction_id": round.ledger_transaction_id,
            "settlement": settlement,
        },
    )


def settlement_digest(settlement: dict[str, Any]) -> dict[str, Any]:
    """What the audit log keeps of a settlement: its totals, its number of lines and the
    SHA-256 of its lines in canonical JSON. The lines themselves are in the round's record
    (``Round.settlement``) and the ledger legs; a 10,000-bet round's lines
    would make one audit event of megabytes (0.5-0.7 s to canonicalise, hash and store)."""
    lines = settlement.get("lines", [])
    return {
        "void": settlement.get("void", False),
        "lines": len(lines),
        "bets": len({line["bet_id"] for line in lines}),
        "stake": sum(line["stake"] for line in lines),
        "paid": sum(line["paid"] for line in lines),
        "bonus": sum(line["bonus"] for line in lines),
        "lines_sha256": sha256_hex(canonical_json(lines)),
    }


def round_settled(*, actor: Actor, round, settlement: dict[str, Any]) -> None:
    """The round settled: the ledger transaction and a digest of the settlement lines
    (``settlement_digest``: recompute it from ``Round.settlement["lines"]`` to check them)."""
    audit_event_record(
        name=ROUND_SETTLED,
        actor=actor,
        table_id=round.table_id,
        round_id=round.pk,
        payload={
            "ledger_transaction_id": round.ledger_transaction_id,
            "seq": round.seq,
            "settlement": settlement_digest(settlement),
        },
    )
