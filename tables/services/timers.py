"""Timers and recovery: betting deadline, decision windows, and the periodic sweeps."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from tables import engine as eng
from tables import lock_objects
from tables.models import Decision, Round, VoidRequest
from tables.services._common import Phase
from tables.services.driver import RoundDriver
from tables.services.voids import void_request_expire

SETTLEMENT_SWEEP_GRACE = timedelta(seconds=30)


def round_betting_close_due(*, round_id: int, actor: Actor | None = None) -> bool:
    """The betting timer: closes betting if it is still open and its time is up."""
    actor = actor or Actor.system("tables.betting_timer")
    with transaction.atomic():
        rnd = lock_objects.round_for_update(round_id).first()
        if (
            rnd is None
            or rnd.phase != Phase.OPEN
            or rnd.suspended_reason
            or rnd.held_since is not None  # re-armed when the hold ends
            or rnd.betting_closes_at is None
            or rnd.betting_closes_at > timezone.now()
        ):
            return False
        play = RoundDriver(actor, rnd)
        play.close_betting()
        play.finish()
    return True


def round_timeout_apply(*, round_id: int, token: int, actor: Actor | None = None) -> bool:
    """A decision window ran out: apply the rule book's default (§8) exactly once.

    ``token`` names the window (the round's ``seq`` when it opened): a task that fires late,
    twice, or after the player acted finds another token (or none) and does nothing."""
    actor = actor or Actor.system("tables.decision_timer")
    with transaction.atomic():
        rnd = lock_objects.round_for_update(round_id).first()
        if (
            rnd is None
            or rnd.phase not in Round.LIVE
            or rnd.suspended_reason
            or rnd.held_since is not None
            or rnd.decision_token != token
            or rnd.decision_deadline is None
            or rnd.decision_deadline > timezone.now()
        ):
            return False
        play = RoundDriver(actor, rnd)
        if play.state.turn() is None:
            return False
        play.apply(eng.TimeoutDefault(), source=Decision.Source.TIMEOUT)
        play.deal_from_server_shoe()
        play.finish()
    return True


def settlement_sweep(*, grace: timedelta = SETTLEMENT_SWEEP_GRACE) -> list[int]:
    """Re-send the settlement of every round stuck in settling (a message lost between commit
    and broker, or a worker that died): settling is idempotent, so a duplicate is harmless.
    A held round is left alone: its settlement is sent when the hold ends."""
    stuck = list(
        Round.objects.filter(
            phase=Phase.SETTLING,
            settling_since__lte=timezone.now() - grace,
            held_since__isnull=True,
        ).values_list("pk", flat=True)
    )
    from casino.celery import app

    for pk in stuck:
        app.send_task("tables.round_settle", args=[pk])
    return stuck


def timers_sweep() -> dict[str, int]:
    """Periodic safety net for timers whose message was lost or fired early."""
    now = timezone.now()
    expired = 0
    for pk in VoidRequest.objects.filter(
        status=VoidRequest.Status.REQUESTED, expires_at__lte=now
    ).values_list("pk", flat=True):
        expired += void_request_expire(request_id=pk)
    closed = 0
    for pk in Round.objects.filter(
        phase=Phase.OPEN, betting_closes_at__lte=now, held_since__isnull=True
    ).values_list("pk", flat=True):
        closed += round_betting_close_due(round_id=pk)
    timeouts = 0
    due = Round.objects.filter(
        phase__in=Round.LIVE, decision_deadline__lte=now, suspended_reason="", held_since=None
    ).values_list("pk", "decision_token")
    for pk, token in due:
        timeouts += round_timeout_apply(round_id=pk, token=token)
    return {
        "void_requests_expired": expired,
        "closed": closed,
        "timeouts": timeouts,
        "settlements": len(settlement_sweep()),
    }
