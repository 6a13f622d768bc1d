"""Voids (§8): a request holds the round; a second staff member approves it (decided outcomes
stand, undecided stakes are returned) or rejects it; the requester or a pit boss cancels it;
nobody deciding in time expires it. Rejection, cancellation and expiry end the hold and the
round carries on where it stopped: betting gets back the time it had left, a decision gets a
fresh window, a round that reached settling is settled.

While held (``Round.held_since``): cards, decisions, dealer decisions and closing the betting
are refused (``RoundHeld``, 409); bets are refused as late (the betting deadline is pulled to
the moment of the hold, so the bet path needs no check of its own); the timers, the settlement
task and the sweeps leave the round alone. No money moves until the decision.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Conflict, PermissionDenied, ValidationFailed
from casino.gcpause import gc_paused
from tables import engine as eng
from tables import events, lock_objects, selectors
from tables.errors import FourEyesRequired, WrongPhase
from tables.models import Round, VoidRequest
from tables.services._common import Phase, enqueue, meta_event, round_locked
from tables.services.driver import RoundDriver
from tables.services.settlement import round_ledger_post, shoe_retire_if_fresh

Status = VoidRequest.Status


def _staff_may(user, permission: str, what: str) -> None:
    """The services check the role themselves: the API and the console check it too, but a
    void must never depend on every caller remembering to."""
    if user is None or not user.has_perm(permission):
        raise PermissionDenied(f"Your role may not {what}.")


def _reason(reason: str, what: str) -> str:
    if not reason.strip():
        raise ValidationFailed(f"{what} needs a reason.", errors={"reason": ["required"]})
    return reason


def void_request(*, actor: Actor, user, round_id: int, reason: str) -> VoidRequest:
    """A pit boss asks for a round to be voided: the round is held until another staff member
    approves or rejects the request, it is cancelled, or it expires
    (``TABLES_VOID_REQUEST_EXPIRES_S``)."""
    _staff_may(user, "tables.request_void", "request a void")
    _reason(reason, "A void")
    with transaction.atomic():
        rnd = round_locked(round_id)
        if rnd.phase not in Round.UNFINISHED:
            raise WrongPhase(f"Round {rnd.pk} is {rnd.phase}; it can't be voided.")
        if VoidRequest.objects.filter(round=rnd, status=Status.REQUESTED).exists():
            raise Conflict(f"Round {rnd.pk} already has an open void request.")
        now = timezone.now()
        request = VoidRequest(
            round=rnd,
            reason=reason,
            requested_by=user,
            requested_at=now,
            expires_at=now + timedelta(seconds=settings.TABLES_VOID_REQUEST_EXPIRES_S),
        )
        rnd.held_since = now
        rnd.decision_deadline = rnd.decision_token = None  # a fresh window after the hold
        if rnd.phase == Phase.OPEN and rnd.betting_closes_at is not None:
            request.betting_left = max(rnd.betting_closes_at - now, timedelta(0))
            rnd.betting_closes_at = now  # frozen: bets are late until the hold ends
        request.save()
        rnd.save(
            update_fields=["held_since", "decision_deadline", "decision_token", "betting_closes_at"]
        )
        meta_event(
            rnd,
            "void_requested",
            {
                "void_request_id": request.pk,
                "reason": reason,
                "requested_at": request.requested_at.isoformat(),
                "expires_at": request.expires_at.isoformat(),
            },
            actor,
        )
        events.void_requested(actor=actor, round=rnd, request=request)
        enqueue("tables.void_request_expire", [request.pk], eta=request.expires_at)
    return request


def _open_request(rnd: Round, *, what: str) -> VoidRequest:
    """The round's open void request, locked; refused when there is none or its time is up
    (the expiry task or the sweep records the expiry)."""
    request = lock_objects.void_request_for_update(rnd.pk).first()
    if request is None:
        raise WrongPhase(f"Round {rnd.pk} has no open void request to {what}.")
    if request.expires_at <= timezone.now():
        raise WrongPhase(
            f"The void request of round {rnd.pk} expired at {request.expires_at:%H:%M:%S} UTC; "
            "the round carries on (request a new void if it must still be voided)."
        )
    return request


def _decide(request: VoidRequest, status: str, user, note: str = "") -> None:
    request.status = status
    request.decided_by = user
    request.decided_at = timezone.now()
    request.decision_note = note
    request.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])


def void_approve(*, actor: Actor, user, round_id: int) -> Round:
    """A second staff member approves the void (§8): outcomes already decided stand, every
    undecided stake is returned, through one ledger posting; the round becomes voided."""
    _staff_may(user, "tables.approve_void", "approve a void")
    with gc_paused(), transaction.atomic():
        rnd = round_locked(round_id)
        request = _open_request(rnd, what="approve")
        if request.requested_by_id == user.pk:
            raise FourEyesRequired(
                f"You requested the void of round {rnd.pk}; another staff member must approve."
            )
        if rnd.phase not in Round.UNFINISHED:
            raise WrongPhase(f"Round {rnd.pk} is {rnd.phase}; it can't be voided.")
        state = selectors.round_state_replay(rnd)
        settlement = eng.settle_void(state)
        round_ledger_post(actor=actor, rnd=rnd, settlement=settlement)
        before = rnd.phase
        rnd.void()
        rnd.finished_at = timezone.now()
        rnd.settlement = settlement.to_json()
        rnd.suspended_reason = ""
        rnd.held_since = None
        rnd.decision_deadline = rnd.decision_token = None
        rnd.betting_closes_at = None
        rnd.save()
        _decide(request, Status.APPROVED, user)
        shoe_retire_if_fresh(actor=actor, rnd=rnd)
        events.round_phase_changed(actor=actor, round=rnd, before=before, after=rnd.phase)
        meta_event(
            rnd, "round_voided", {"void_request_id": request.pk, "reason": request.reason}, actor
        )
        events.round_voided(actor=actor, round=rnd, request=request, settlement=rnd.settlement)
    return rnd


def _hold_end(*, actor: Actor, rnd: Round, request: VoidRequest) -> None:
    """The round carries on where the hold stopped it; nothing it owed is lost."""
    rnd.held_since = None
    payload = {"void_request_id": request.pk, "note": request.decision_note}
    if rnd.phase == Phase.OPEN and request.betting_left is not None:
        rnd.betting_closes_at = timezone.now() + request.betting_left
        payload["betting_closes_at"] = rnd.betting_closes_at.isoformat()
        enqueue("tables.round_betting_close_due", [rnd.pk], eta=rnd.betting_closes_at)
    elif rnd.phase == Phase.SETTLING:
        enqueue("tables.round_settle", [rnd.pk])
    meta_event(rnd, f"void_{request.status}", payload, actor)
    if rnd.phase in Round.LIVE and rnd.phase != Phase.OPEN:
        play = RoundDriver(actor, rnd)
        play.turn_changed = True  # a fresh decision window, as after a suspension
        play.finish()
    else:
        rnd.save(update_fields=["held_since", "betting_closes_at"])


def void_reject(*, actor: Actor, user, round_id: int, reason: str) -> VoidRequest:
    """Another staff member (four eyes, as for approval) rejects the void: the round resumes."""
    _staff_may(user, "tables.reject_void", "reject a void")
    _reason(reason, "A rejection")
    with transaction.atomic():
        rnd = round_locked(round_id)
        request = _open_request(rnd, what="reject")
        if request.requested_by_id == user.pk:
            raise FourEyesRequired(
                f"You requested the void of round {rnd.pk}; another staff member must decide "
                "(cancel it instead to withdraw it)."
            )
        _decide(request, Status.REJECTED, user, reason)
        _hold_end(actor=actor, rnd=rnd, request=request)
        events.void_rejected(actor=actor, round=rnd, request=request)
    return request


def void_cancel(*, actor: Actor, user, round_id: int, reason: str) -> VoidRequest:
    """The requester withdraws their void request, or a pit boss cancels anyone's: the round
    resumes."""
    _reason(reason, "A cancellation")
    with transaction.atomic():
        rnd = round_locked(round_id)
        request = _open_request(rnd, what="cancel")
        own = user is not None and request.requested_by_id == user.pk
        if not (own and user.has_perm("tables.request_void")):
            _staff_may(user, "tables.cancel_void", "cancel another staff member's void request")
        _decide(request, Status.CANCELLED, user, reason)
        _hold_end(actor=actor, rnd=rnd, request=request)
        events.void_cancelled(actor=actor, round=rnd, request=request)
    return request


def void_request_expire(*, request_id: int, actor: Actor | None = None) -> bool:
    """A void request's time is up: it expires and the round resumes, exactly once (the ETA
    task and the sweep may both call this; the second finds it decided)."""
    actor = actor or Actor.system("tables.void_expiry")
    round_id = VoidRequest.objects.filter(pk=request_id).values_list("round_id", flat=True).first()
    if round_id is None:
        return False
    with transaction.atomic():
        rnd = round_locked(round_id)
        request = lock_objects.void_request_for_update(rnd.pk).first()
        if request is None or request.pk != request_id or request.expires_at > timezone.now():
            return False
        _decide(request, Status.EXPIRED, None)
        _hold_end(actor=actor, rnd=rnd, request=request)
        events.void_expired(actor=actor, round=rnd, request=request)
    return True
