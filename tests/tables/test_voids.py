"""The void lifecycle through the services (§8, issues 15 and 20): a request holds the round
(no card, decision, timer default or settlement) until it is approved, rejected, cancelled or
expires; the money does not move until the decision."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino.api import roles
from casino.celery import app
from casino.errors import Conflict, PermissionDenied, ValidationFailed
from conftest import wait_until
from ledger.models import Account, Leg
from tables import engine as eng
from tables import selectors, services
from tables.errors import BettingClosed, FourEyesRequired, RoundHeld, WrongPhase
from tables.models import Decision, Round, RoundEvent, VoidRequest
from tests.factories import UserFactory, funded_player, live_table

from .conftest import ACTOR, DEVICE, balance, bet, decide, drive

pytestmark = pytest.mark.django_db


def _boss():
    return UserFactory(roles=[roles.PIT_BOSS])


def _supervisor():
    return UserFactory(roles=[roles.FLOOR_SUPERVISOR])


def _money():
    """Every wallet balance and every ledger leg: what a hold must leave untouched."""
    balances = dict(Account.objects.values_list("pk", "balance"))
    legs = list(Leg.objects.order_by("pk").values_list("pk", "account_id", "amount"))
    return balances, legs


def _dealt(preset, cards, **table_fields):
    """A reader-fed round of ``preset``: players a (box 1) and b (box 2) bet 1000 each, then
    ``cards`` are posted; (round, a, b)."""
    table = live_table(preset, **table_fields)
    a, b = funded_player(), funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    bet(rnd, b, 2, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in cards:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    return Round.objects.get(pk=rnd.pk), a, b


def _playing(**table_fields):
    """A British round waiting for box 1's decision (T 8 against a dealer 9, box 2 T 6)."""
    rnd, a, b = _dealt("british_casino", ["TS", "TC", "9H", "8C", "6D"], **table_fields)
    assert selectors.round_state(rnd).turn() == eng.Turn(eng.TurnKind.HAND, 1, 0)
    assert rnd.decision_token
    return rnd, a, b


def _expire_now(request: VoidRequest) -> None:
    """The clock moves past the request's expiry (instead of the test sleeping)."""
    VoidRequest.objects.filter(pk=request.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )


def test_a_held_round_takes_no_card_decision_timeout_or_settlement_until_rejected():
    rnd, a, b = _playing()
    before = _money()
    # The requester holds both roles: still not enough to decide their own request.
    boss = UserFactory(roles=[roles.PIT_BOSS, roles.FLOOR_SUPERVISOR])
    supervisor = _supervisor()
    request = services.void_request(actor=ACTOR, user=boss, round_id=rnd.pk, reason="misdeal")
    assert request.expires_at > timezone.now() + timedelta(seconds=590)  # the 600 s default
    held = Round.objects.get(pk=rnd.pk)
    assert held.held_since is not None and held.decision_deadline is None
    with pytest.raises(RoundHeld, match=f"void request {request.pk}"):
        decide(a, "stand")(rnd.pk)
    with pytest.raises(RoundHeld):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="2C")
    # The timer that was armed before the hold fires: nothing happens.
    assert not services.round_timeout_apply(round_id=rnd.pk, token=rnd.decision_token)
    assert services.timers_sweep()["timeouts"] == 0
    assert not Decision.objects.filter(round=rnd).exists()
    with pytest.raises(Conflict):  # one open request per round
        services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="again")
    # Rejecting takes another person with the role, and a reason.
    with pytest.raises(FourEyesRequired):
        services.void_reject(actor=ACTOR, user=boss, round_id=rnd.pk, reason="no")
    with pytest.raises(PermissionDenied):
        services.void_reject(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="no")
    with pytest.raises(ValidationFailed):
        services.void_reject(actor=ACTOR, user=supervisor, round_id=rnd.pk, reason=" ")
    assert _money() == before
    rejected = services.void_reject(
        actor=ACTOR, user=supervisor, round_id=rnd.pk, reason="cards were right"
    )
    assert (rejected.status, rejected.decided_by_id) == ("rejected", supervisor.pk)
    assert _money() == before  # the hold moved no money
    resumed = Round.objects.get(pk=rnd.pk)
    assert resumed.held_since is None and resumed.decision_deadline is not None  # re-armed
    assert resumed.decision_deadline > rnd.decision_deadline  # a fresh window
    # The timer armed before the hold fires at its old time and finds the window still open.
    assert not services.round_timeout_apply(round_id=rnd.pk, token=resumed.decision_token)
    event = AuditEvent.objects.get(name="tables.void_rejected", round_id=rnd.pk)
    assert event.payload["note"] == "cards were right" and event.payload["decided_by"]
    assert RoundEvent.objects.filter(round=rnd, kind="meta", type="void_rejected").exists()
    # A new request after a rejected one (one open request per round, not one ever); its
    # requester withdraws it.
    second = services.void_request(actor=ACTOR, user=boss, round_id=rnd.pk, reason="really")
    cancelled = services.void_cancel(actor=ACTOR, user=boss, round_id=rnd.pk, reason="my mistake")
    assert (second.pk, cancelled.status) == (cancelled.pk, "cancelled")
    assert AuditEvent.objects.filter(name="tables.void_cancelled", round_id=rnd.pk).exists()
    assert _money() == before
    # The round plays on to its normal end.
    rnd = drive(Round.objects.get(pk=rnd.pk), ["8S"], [decide(a, "stand"), decide(b, "stand")])
    assert services.round_settle(round_id=rnd.pk) == "settled"
    assert (balance(a), balance(b)) == (10_000 + 1000, 10_000 - 1000)  # 18, 16 v 17
    statuses = list(VoidRequest.objects.filter(round=rnd).values_list("status", flat=True))
    assert statuses == ["cancelled", "rejected"]


def test_cancel_by_the_requester_or_a_pit_boss_only():
    rnd, a, _ = _playing()
    boss = _boss()
    services.void_request(actor=ACTOR, user=boss, round_id=rnd.pk, reason="misdeal")
    with pytest.raises(PermissionDenied):  # a supervisor rejects, they don't cancel
        services.void_cancel(actor=ACTOR, user=_supervisor(), round_id=rnd.pk, reason="no")
    with pytest.raises(PermissionDenied):
        services.void_cancel(
            actor=ACTOR, user=UserFactory(roles=[roles.DEALER]), round_id=rnd.pk, reason="no"
        )
    other_boss = _boss()
    done = services.void_cancel(actor=ACTOR, user=other_boss, round_id=rnd.pk, reason="wrong table")
    assert (done.status, done.decided_by_id, done.decision_note) == (
        "cancelled",
        other_boss.pk,
        "wrong table",
    )
    with pytest.raises(WrongPhase, match="no open void request"):
        services.void_cancel(actor=ACTOR, user=boss, round_id=rnd.pk, reason="again")
    decide(a, "stand")(rnd.pk)  # the round carries on


def test_a_request_expires_by_its_task_once_and_the_round_resumes():
    rnd, a, _ = _playing()
    before = _money()
    boss = _boss()
    request = services.void_request(actor=ACTOR, user=boss, round_id=rnd.pk, reason="misdeal")
    assert not services.void_request_expire(request_id=request.pk)  # not yet: nothing happens
    assert VoidRequest.objects.get(pk=request.pk).status == "requested"
    _expire_now(request)
    # Past its time nobody can approve it any more; the expiry task records the outcome.
    with pytest.raises(WrongPhase, match="expired"):
        services.void_approve(actor=ACTOR, user=_supervisor(), round_id=rnd.pk)
    assert services.void_request_expire(request_id=request.pk)
    assert not services.void_request_expire(request_id=request.pk)  # a second delivery
    request.refresh_from_db()
    assert (request.status, request.decided_by_id) == ("expired", None)
    rnd = Round.objects.get(pk=rnd.pk)
    assert rnd.held_since is None and rnd.decision_deadline is not None
    expired = AuditEvent.objects.get(name="tables.void_expired", round_id=rnd.pk)
    assert expired.payload["void_request_id"] == request.pk
    assert expired.payload["decided_by"] is None
    assert _money() == before
    decide(a, "stand")(rnd.pk)


def test_the_sweep_expires_requests_whose_task_was_lost(settings):
    settings.TABLES_VOID_REQUEST_EXPIRES_S = 30
    rnd, *_ = _playing()
    request = services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="x")
    assert request.expires_at - request.requested_at == timedelta(seconds=30)
    assert services.timers_sweep()["void_requests_expired"] == 0
    _expire_now(request)
    assert services.timers_sweep()["void_requests_expired"] == 1
    assert VoidRequest.objects.get(pk=request.pk).status == "expired"
    assert Round.objects.get(pk=rnd.pk).held_since is None


def test_a_hold_during_betting_freezes_it_and_gives_the_time_back(settings):
    table = live_table("british_casino", betting_seconds=30)
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="wrong limits")
    with pytest.raises(BettingClosed):
        bet(rnd, funded_player(), 2, 1000)
    with pytest.raises(RoundHeld):
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    assert not services.round_betting_close_due(round_id=rnd.pk)  # the timer leaves it alone
    assert services.timers_sweep()["closed"] == 0
    services.void_reject(actor=ACTOR, user=_supervisor(), round_id=rnd.pk, reason="fine")
    rnd = Round.objects.get(pk=rnd.pk)
    assert rnd.phase == "open"
    left = rnd.betting_closes_at - timezone.now()
    assert timedelta(seconds=25) < left <= timedelta(seconds=30)  # the time it had left
    bet(rnd, funded_player(), 2, 1000)  # betting is open again
    event = RoundEvent.objects.get(round=rnd, type="void_rejected")
    assert event.public["betting_closes_at"] == rnd.betting_closes_at.isoformat()


def test_a_held_round_in_settling_is_settled_only_when_the_hold_ends(
    monkeypatch, django_capture_on_commit_callbacks
):
    table = live_table("british_casino")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    rnd = drive(rnd, ["TS", "9H", "9C", "8S"], [decide(a, "stand")])  # 19 v 17
    assert rnd.phase == "settling"
    before = _money()
    request = services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="x")
    assert services.round_settle(round_id=rnd.pk) == "settling"  # the task leaves it alone
    assert services.settlement_sweep(grace=timedelta(0)) == []
    assert _money() == before
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args=None, eta=None: sent.append(name))
    _expire_now(request)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.void_request_expire(request_id=request.pk)
    monkeypatch.undo()
    assert sent == ["tables.round_settle"]  # released: its settlement is sent again
    assert services.round_settle(round_id=rnd.pk) == "settled"
    assert balance(a) == 10_000 + 1000


def test_approval_after_a_hold_pays_decided_outcomes_and_returns_the_rest():
    """Crown: box 1's 21 is decided at once and stands at its odds; box 2 is undecided and its
    stake comes back; the preview says so before the approval."""
    rnd, a, b = _dealt("crown", ["5S", "JC", "9H", "6C", "6D"])
    decide(a, "hit")(rnd.pk)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="KD")  # box 1: 5 6 K = 21
    rnd = Round.objects.get(pk=rnd.pk)
    state = selectors.round_state(rnd)
    assert state.value(state.hand(1, 0)).total == 21 and state.decided_at_once(state.hand(1, 0))
    before = _money()
    services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="shoe dropped")
    preview = selectors.void_preview(Round.objects.get(pk=rnd.pk))
    assert [(x["box"], x["stake"]) for x in preview["standing"]] == [(1, 1000)]
    assert [(x["box"], x["stake"], x["paid"]) for x in preview["returned"]] == [(2, 1000, 1000)]
    assert _money() == before
    voided = services.void_approve(actor=ACTOR, user=_supervisor(), round_id=rnd.pk)
    assert voided.phase == "voided" and voided.held_since is None
    paid = {line["bet_id"]: line["paid"] for line in voided.settlement["lines"]}
    assert sorted(paid.values()) == sorted(
        x["paid"] for x in preview["standing"] + preview["returned"]
    )
    assert balance(b) == 10_000  # returned
    assert balance(a) == 10_000 - 1000 + preview["standing"][0]["paid"]
    assert preview["standing"][0]["paid"] == 2000  # a crown 21 at 1:1


def test_approval_in_the_dealers_phase_pays_a_pontoon_the_dealers_two_cards_decided():
    """British: box 1's Pontoon waited for the dealer's second card, a 5 under the K (no dealer
    Pontoon); box 2 stood on 18 and the dealer still draws. A void then pays the Pontoon 2:1
    (no further card can change it) and returns the 18."""
    rnd, a, b = _dealt("british_casino", ["AS", "QC", "KH", "KC", "8D"])
    decide(b, "stand")(rnd.pk)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="5D")
    rnd = Round.objects.get(pk=rnd.pk)
    state = selectors.round_state(rnd)
    assert state.phase == "dealer" and [c.code for c in state.dealer] == ["KH", "5D"]
    services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="reader fault")
    preview = selectors.void_preview(Round.objects.get(pk=rnd.pk))
    assert [(x["box"], x["paid"]) for x in preview["standing"]] == [(1, 3000)]
    assert [(x["box"], x["paid"]) for x in preview["returned"]] == [(2, 1000)]
    voided = services.void_approve(actor=ACTOR, user=_supervisor(), round_id=rnd.pk)
    assert voided.phase == "voided"
    assert balance(a) == 10_000 - 1000 + 3000 and balance(b) == 10_000


def test_approval_in_settling_lets_every_outcome_stand_as_settlement_would():
    """§8: once the dealer has finished no card can change any outcome: a void of a round
    waiting for its settlement pays the 19 that beat the dealer's 17 and keeps the 17 that
    lost to it (it returned both stakes)."""
    rnd, a, b = _dealt("british_casino", ["9S", "8S", "KH", "TS", "9D"])
    decide(a, "stand")(rnd.pk)
    decide(b, "stand")(rnd.pk)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="7C")
    assert Round.objects.get(pk=rnd.pk).phase == "settling"
    services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="reader fault")
    preview = selectors.void_preview(Round.objects.get(pk=rnd.pk))
    assert [(x["box"], x["paid"]) for x in preview["standing"]] == [(1, 2000), (2, 0)]
    assert preview["returned"] == []
    assert services.void_approve(actor=ACTOR, user=_supervisor(), round_id=rnd.pk).phase == "voided"
    assert balance(a) == 10_000 + 1000 and balance(b) == 10_000 - 1000


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_real_worker_expires_a_request_at_its_time_and_the_round_resumes(
    celery_worker, settings
):
    settings.TABLES_VOID_REQUEST_EXPIRES_S = 2  # the ETA the request's task is sent with
    rnd, a, _ = _playing(decision_seconds=600)
    before = _money()
    request = services.void_request(actor=ACTOR, user=_boss(), round_id=rnd.pk, reason="x")
    assert VoidRequest.objects.get(pk=request.pk).status == "requested"  # not at once
    wait_until(
        lambda: VoidRequest.objects.get(pk=request.pk).status == "expired",
        message="not expired:\n" + "".join(celery_worker.output[-30:]),
    )
    assert timezone.now() >= request.expires_at
    rnd = Round.objects.get(pk=rnd.pk)
    assert rnd.held_since is None and rnd.decision_deadline is not None
    event = AuditEvent.objects.get(name="tables.void_expired", round_id=rnd.pk)
    assert event.payload["void_request_id"] == request.pk
    assert _money() == before
    decide(a, "stand")(rnd.pk)
