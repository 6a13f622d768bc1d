"""Dispute cases: a claim against a round or a bet, worked and resolved, every step audited.

open -> investigating -> resolved_upheld | resolved_rejected. Opening a case attaches the
round's replay (``forensics.replay``); staff add notes and evidence references (a video timecode,
a reader log line) while it is open or investigated. Upholding it asks the ledger for a
correction of the round's settlement posting (``ledger.services.correction_request``, by the
resolver); another staff member approves it (``dispute_correction_approve`` or the ledger's
own correction endpoints: the ledger enforces the four eyes). Rejecting it moves no money.

Locking: each service locks the case row first (``FOR NO KEY UPDATE``), then calls the
ledger, which takes its own locks in its documented order (``ledger/lock_objects.py``), so a
case row always comes before ledger rows.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils import timezone
from django_fsm import can_proceed

from audit import events
from audit.models import DisputeCase, DisputeNote
from casino.actors import Actor
from casino.errors import Conflict, NotFound, Unprocessable, ValidationFailed
from forensics.replay import round_replay
from ledger import services as ledger
from ledger.models import Account, Correction, Transaction
from ledger.postings import house_account_id
from tables.models import Bet, Round

REPLAY_KEYS = ("status", "ok", "generated_at", "software_version", "differences", "lines")


def _replay_summary(round_id: int) -> dict[str, Any]:
    """What a case keeps of the replay: enough to read the finding without re-running it."""
    replay = round_replay(round_id=round_id)
    summary = {key: replay[key] for key in REPLAY_KEYS}
    summary["bets"] = replay["ledger"]["bets"]
    summary["settlement_transaction_id"] = replay["ledger"]["settlement_transaction_id"]
    summary["integrity_intact"] = replay["integrity"]["intact"]
    summary["generated_at"] = replay["generated_at"].isoformat()
    return summary


def _case_locked(case_id: int) -> DisputeCase:
    case = (
        DisputeCase.objects.select_for_update(no_key=True, of=("self",))
        .select_related("round")
        .filter(pk=case_id)
        .first()
    )
    if case is None:
        raise NotFound(f"Dispute case {case_id} does not exist.")
    return case


def _text_check(value: str, field: str) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationFailed(f"{field} is required.", errors={field: ["required"]})
    return value


def _transition(case: DisputeCase, name: str) -> None:
    method = getattr(case, name)
    if not can_proceed(method):
        raise Conflict(f"Dispute case {case.pk} is {case.status}; it can't {name} now.")
    method()


def dispute_open(
    *,
    actor: Actor,
    user,
    round_id: int,
    claim: str,
    bet_ref: str = "",
    claimant: str = "",
    evidence: list[dict[str, str]] | None = None,
) -> DisputeCase:
    """Open a case against a round (or one of its bets) with its replay attached."""
    claim = _text_check(claim, "claim")
    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is None:
        raise NotFound(f"Round {round_id} does not exist.")
    bet = None
    if bet_ref:
        bet = Bet.objects.filter(round=rnd, ref=bet_ref).first()
        if bet is None:
            raise NotFound(f"Round {round_id} has no bet {bet_ref}.")
    with transaction.atomic():
        case = DisputeCase.objects.create(
            round=rnd,
            bet=bet,
            claim=claim,
            claimant=claimant[:200],
            opened_by=user,
            replay=_replay_summary(rnd.pk),
        )
        events.dispute_opened(actor=actor, case=case)
        for item in evidence or []:
            _note_add(
                actor=actor,
                user=user,
                case=case,
                kind=DisputeNote.Kind.EVIDENCE,
                text=item.get("note") or "evidence",
                evidence_ref=item.get("reference", ""),
            )
    return case


def _note_add(*, actor, user, case, kind: str, text: str, evidence_ref: str) -> DisputeNote:
    if case.status not in (DisputeCase.Status.OPEN, DisputeCase.Status.INVESTIGATING):
        raise Conflict(f"Dispute case {case.pk} is {case.status}; it takes no more notes.")
    if kind == DisputeNote.Kind.EVIDENCE and not evidence_ref.strip():
        raise ValidationFailed(
            "Evidence needs a reference.", errors={"evidence_ref": ["required for evidence"]}
        )
    note = DisputeNote.objects.create(
        case=case,
        kind=kind,
        text=_text_check(text, "text"),
        evidence_ref=evidence_ref.strip()[:200],
        author=user,
    )
    events.dispute_note_added(actor=actor, case=case, note=note)
    return note


def dispute_note_add(
    *,
    actor: Actor,
    user,
    case_id: int,
    text: str,
    kind: str = DisputeNote.Kind.NOTE,
    evidence_ref: str = "",
) -> DisputeNote:
    """A staff note, or an evidence reference (``kind='evidence'``, e.g. a video timecode)."""
    if kind not in DisputeNote.Kind.values:
        raise ValidationFailed(f"kind must be one of {DisputeNote.Kind.values}.")
    with transaction.atomic():
        case = _case_locked(case_id)
        return _note_add(
            actor=actor, user=user, case=case, kind=kind, text=text, evidence_ref=evidence_ref
        )


def dispute_investigate(*, actor: Actor, user, case_id: int, note: str = "") -> DisputeCase:
    """Start the investigation (open -> investigating), refreshing the attached replay."""
    with transaction.atomic():
        case = _case_locked(case_id)
        _transition(case, "investigate")
        case.replay = _replay_summary(case.round_id)
        case.save(update_fields=["status", "replay"])
        events.dispute_investigating(actor=actor, case=case)
        events.dispute_replay_attached(actor=actor, case=case)
        if note.strip():
            _note_add(actor=actor, user=user, case=case, kind="note", text=note, evidence_ref="")
    return case


def dispute_reject(*, actor: Actor, user, case_id: int, resolution: str) -> DisputeCase:
    resolution = _text_check(resolution, "resolution")
    with transaction.atomic():
        case = _case_locked(case_id)
        _transition(case, "reject")
        _resolved(case, user, resolution)
        events.dispute_resolved(actor=actor, case=case)
    return case


def dispute_uphold(
    *,
    actor: Actor,
    user,
    case_id: int,
    resolution: str,
    adjustments: dict[str, int] | None = None,
) -> DisputeCase:
    """Uphold the claim: ask the ledger to correct the round's settlement posting.

    ``adjustments`` (bet ref -> minor units, positive = paid to the player) is what the
    resolution grants. Without it, the correction pays what the replay computes wherever the
    ledger differs from it (a posting error). The replacement posting is the current one plus
    the adjustments (payouts from house revenue, bonuses from the bonus pool); it moves money
    only when another staff member approves the correction.
    """
    resolution = _text_check(resolution, "resolution")
    with transaction.atomic():
        case = _case_locked(case_id)
        _transition(case, "uphold")
        replay = round_replay(round_id=case.round_id)
        original = Transaction.objects.filter(
            pk=replay["ledger"]["settlement_transaction_id"]
        ).first()
        if original is None:
            never = replay["round"]["phase"] == "settled" and not replay["ledger"]["bets"]
            raise Unprocessable(
                f"Round {case.round_id} was settled with no bets: it has no settlement posting "
                "to correct, and never will."
                if never
                else f"Round {case.round_id} has no settlement posting to correct yet."
            )
        payouts, bonuses = _adjustments(case, replay, adjustments)
        legs = _replacement_legs(original, replay, payouts, bonuses)
        case.correction = ledger.correction_request(
            actor=actor,
            user=user,
            original=original,
            reason=f"dispute #{case.pk}: {resolution}"[:500],
            replacement_legs=legs,
        )
        _resolved(case, user, resolution)
        events.dispute_resolved(actor=actor, case=case)
    return case


def dispute_correction_approve(*, actor: Actor, user, case_id: int, note: str = "") -> DisputeCase:
    """A second staff member approves the upheld case's correction (the ledger refuses the
    requester: four eyes)."""
    with transaction.atomic():
        case = _case_locked(case_id)
        if case.correction_id is None:
            raise Conflict(f"Dispute case {case.pk} has no correction to approve.")
        correction = Correction.objects.get(pk=case.correction_id)
        ledger.correction_approve(actor=actor, user=user, correction=correction, note=note)
        events.dispute_correction_approved(actor=actor, case=case)
    return case


def _resolved(case: DisputeCase, user, resolution: str) -> None:
    case.resolution = resolution
    case.resolved_by = user
    case.resolved_at = timezone.now()
    case.save()


def _adjustments(case, replay, adjustments) -> tuple[dict[str, int], dict[str, int]]:
    bets = {row["bet_ref"]: row for row in replay["ledger"]["bets"]}
    if adjustments:
        for ref, amount in adjustments.items():
            if ref not in bets:
                raise ValidationFailed(
                    f"Bet {ref} is not settled in round {case.round_id}.",
                    errors={"adjustments": [f"unknown bet {ref}"]},
                )
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise ValidationFailed(
                    "Adjustments are integers (minor units).",
                    errors={"adjustments": [f"{ref}: an integer"]},
                )
            if amount == 0:
                raise ValidationFailed(
                    f"The adjustments of bet {ref} net to zero: a resolution grants an amount "
                    "(or omit the adjustments to pay what the replay computes).",
                    errors={"adjustments": [f"{ref}: the adjustments net to zero"]},
                )
            paid = bets[ref]["ledger_payout"]
            if amount < -paid:
                # A claim upheld against the player takes back at most what the bet was paid
                # (its stake was lost at the table, not in the dispute); more would leave the
                # case resolved on a correction no one could approve.
                raise ValidationFailed(
                    f"Bet {ref} was paid {paid}: an adjustment takes back at most that "
                    f"({amount} asked).",
                    errors={"adjustments": [f"{ref}: at least -{paid}"]},
                )
        return dict(adjustments), {}
    payouts = {
        ref: row["replay_payout"] - row["ledger_payout"]
        for ref, row in bets.items()
        if row["replay_payout"] != row["ledger_payout"]
    }
    bonuses = {
        ref: row["replay_bonus"] - row["ledger_bonus"]
        for ref, row in bets.items()
        if row["replay_bonus"] != row["ledger_bonus"]
    }
    if not payouts and not bonuses:
        raise Unprocessable(
            f"The replay of round {case.round_id} equals the ledger: name the adjustments "
            "the resolution grants."
        )
    return payouts, bonuses


def _replacement_legs(original, replay, payouts, bonuses) -> list[dict[str, Any]]:
    """The current posting's legs plus the adjustments, balanced per currency."""
    legs = [
        {
            "account_id": leg.account_id,
            "amount": leg.amount,
            "kind": leg.kind,
            "bet_ref": leg.bet_ref,
        }
        for leg in original.legs.order_by("pk")
    ]
    wallets = {row["bet_ref"]: row["wallet_id"] for row in replay["ledger"]["bets"]}
    currency = replay["round"]["currency"]
    totals: dict[str, int] = defaultdict(int)
    for kind, adjust in (("payout", payouts), ("bonus", bonuses)):
        for ref, amount in sorted(adjust.items()):
            legs.append(
                {"account_id": wallets[ref], "amount": amount, "kind": kind, "bet_ref": ref}
            )
            totals[kind] += amount
    source = {
        "payout": Account.Kind.HOUSE,
        "bonus": Account.Kind.BONUS_POOL,
    }
    for kind, total in totals.items():
        if total:
            legs.append(
                {
                    # the same house-side account the settlement pays from
                    "account_id": house_account_id(source[kind], currency),
                    "amount": -total,
                    "kind": kind,
                    "bet_ref": "",
                }
            )
    return legs
