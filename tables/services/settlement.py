"""Settlement and void: the engine's outcome posted to the ledger in one transaction."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from casino.gcpause import gc_paused
from ledger import services as ledger
from tables import engine as eng
from tables import events, lock_objects, selectors
from tables.errors import FourEyesRequired, WrongPhase
from tables.models import Bet, Round, Table, VoidRequest
from tables.services._common import Phase, meta_event, round_locked
from tables.services.shoes import shoe_retire


def _settlement_post(*, actor: Actor, rnd: Round, settlement: eng.RoundSettlement) -> None:
    """Post a round's settlement lines to the ledger (one transaction keyed by the round).
    Lines that move nothing (a withdrawn box) are left out. Each line's outcome is kept once,
    in the round's settlement record (``Round.settlement``); the legs carry each bet's money."""
    wallets = dict(Bet.objects.filter(round=rnd).values_list("ref", "wallet"))
    lines = [
        ledger.SettlementLine(
            bet_ref=line.bet_id,
            wallet_id=wallets[line.bet_id],
            stake=line.stake,
            payout=line.stake_returned + line.winnings,
            bonus=line.bonus,
            result=line.result,
            bonus_kind=line.bonus_kind,
        )
        for line in settlement.lines
        if line.stake or line.paid
    ]
    if lines:
        posting = ledger.round_settlement_post(
            actor=actor,
            round_id=rnd.pk,
            table_id=rnd.table_id,
            currency=rnd.currency,
            lines=lines,
            dealer_id=rnd.dealer_id,
        )
        rnd.ledger_transaction_id = posting.transaction.pk


def _fresh_shoe_retire(actor: Actor, rnd: Round) -> None:
    if rnd.shoe_id is None or rnd.card_source != Table.CardSource.SERVER_SHOE:
        return
    if eng.RuleSet.from_json(rnd.rule_set.document).shoe_policy != "fresh_each_round":
        return
    shoe = lock_objects.shoe_for_update(rnd.shoe_id).get()
    shoe_retire(actor=actor, shoe=shoe)


def round_settle(*, round_id: int, actor: Actor | None = None) -> str:
    """Settle a round in ``settling``: fold its persisted events, settle through the engine,
    post to the ledger, then mark it settled — one transaction under the round lock, so a
    redelivered or repeated call finds it settled and changes nothing. Returns the phase."""
    actor = actor or Actor.system("tables.settlement")
    with gc_paused(), transaction.atomic():
        rnd = (
            lock_objects.round_for_update(round_id)
            .select_related("rule_set", "payout_schedule")
            .defer("state")  # settling folds the events; the cache is megabytes at 10,000 bets
            .first()
        )
        if rnd is None:
            raise NotFound(f"Round {round_id} does not exist.")
        if rnd.phase != Phase.SETTLING:
            return rnd.phase
        state = selectors.round_state_replay(rnd)
        settlement = eng.settle(state)
        _settlement_post(actor=actor, rnd=rnd, settlement=settlement)
        rnd.settle()
        rnd.finished_at = timezone.now()
        rnd.settlement = settlement.to_json()
        # Only what settling changed: the cached state (megabytes for a 10,000-bet round) is
        # neither re-serialised nor re-written.
        rnd.save(update_fields=["phase", "finished_at", "settlement", "ledger_transaction_id"])
        _fresh_shoe_retire(actor, rnd)
        totals = {"stake": settlement.total_stake, "paid": settlement.total_paid}
        meta_event(rnd, "round_settled", totals, actor)
        events.round_settled(actor=actor, round=rnd, settlement=rnd.settlement)
    return rnd.phase


def _staff_may(user, permission: str, what: str) -> None:
    """The services check the role themselves: the API and the console check it too, but a
    void must never depend on every caller remembering to."""
    if user is None or not user.has_perm(permission):
        raise PermissionDenied(f"Your role may not {what}.")


def void_request(*, actor: Actor, user, round_id: int, reason: str) -> VoidRequest:
    """A pit boss asks for a round to be voided; nothing changes until another staff member
    approves it."""
    _staff_may(user, "tables.request_void", "request a void")
    if not reason.strip():
        raise ValidationFailed("A void needs a reason.", errors={"reason": ["required"]})
    with transaction.atomic():
        rnd = round_locked(round_id)
        if rnd.phase not in Round.UNFINISHED:
            raise WrongPhase(f"Round {rnd.pk} is {rnd.phase}; it can't be voided.")
        if VoidRequest.objects.filter(round=rnd).exists():
            raise Conflict(f"Round {rnd.pk} already has a void request.")
        request = VoidRequest.objects.create(round=rnd, reason=reason, requested_by=user)
        meta_event(rnd, "void_requested", {"reason": reason}, actor)
        events.void_requested(actor=actor, round=rnd, request=request)
    return request


def void_approve(*, actor: Actor, user, round_id: int) -> Round:
    """A second staff member approves the void (§8): outcomes already decided stand, every
    undecided stake is returned, through one ledger posting; the round becomes voided."""
    _staff_may(user, "tables.approve_void", "approve a void")
    with gc_paused(), transaction.atomic():
        rnd = round_locked(round_id)
        request = lock_objects.void_request_for_update(rnd.pk).first()
        if request is None or request.status != VoidRequest.Status.REQUESTED:
            raise WrongPhase(f"Round {rnd.pk} has no void request waiting for approval.")
        if request.requested_by_id == user.pk:
            raise FourEyesRequired(
                f"You requested the void of round {rnd.pk}; another staff member must approve."
            )
        if rnd.phase not in Round.UNFINISHED:
            raise WrongPhase(f"Round {rnd.pk} is {rnd.phase}; it can't be voided.")
        state = selectors.round_state_replay(rnd)
        settlement = eng.settle_void(state)
        _settlement_post(actor=actor, rnd=rnd, settlement=settlement)
        before = rnd.phase
        rnd.void()
        rnd.finished_at = timezone.now()
        rnd.settlement = settlement.to_json()
        rnd.suspended_reason = ""
        rnd.decision_deadline = rnd.decision_token = None
        rnd.betting_closes_at = None
        rnd.save()
        request.status = VoidRequest.Status.APPROVED
        request.approved_by = user
        request.approved_at = timezone.now()
        request.save()
        _fresh_shoe_retire(actor, rnd)
        events.round_phase_changed(actor=actor, round=rnd, before=before, after=rnd.phase)
        meta_event(rnd, "round_voided", {"reason": request.reason}, actor)
        events.round_voided(actor=actor, round=rnd, request=request, settlement=rnd.settlement)
    return rnd
