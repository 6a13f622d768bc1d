"""Real concurrency and a real Celery worker: racing transitions (exactly one wins), settlement
exactly once under redelivery, a lost settlement message recovered by the sweep, and a
decision timeout applied by the worker exactly once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.celery import app
from casino.errors import Conflict
from conftest import wait_until
from ledger.models import Transaction
from tables import selectors, services
from tables.models import Decision, Round
from tests.factories import funded_player, live_table

from .conftest import DEVICE, at_once, balance, bet, decide, drive

pytestmark = pytest.mark.django_db(transaction=True)


def _race(*calls):
    return at_once(*calls, catch=Conflict, join=30)


def test_racing_transitions_exactly_one_wins_the_other_gets_409():
    table = live_table("crown")
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)

    def close():
        return services.round_close_betting(actor=DEVICE, round_id=rnd.pk)

    outcomes = _race(close, close)
    assert sum(isinstance(o, Round) for o in outcomes) == 1
    assert sum(isinstance(o, Conflict) for o in outcomes) == 1
    assert Round.objects.get(pk=rnd.pk).seq == 1  # one BettingClosed event

    # a pit action racing a timer: the dealer's close against the betting timer
    services.round_settle(round_id=rnd.pk)
    nxt = services.round_open(actor=DEVICE, table_id=table.pk)
    Round.objects.filter(pk=nxt.pk).update(betting_closes_at=timezone.now())
    dealer_won, timer_won = _race(
        lambda: services.round_close_betting(actor=DEVICE, round_id=nxt.pk),
        lambda: services.round_betting_close_due(round_id=nxt.pk),
    )
    assert isinstance(dealer_won, Round) != (timer_won is True)
    assert Round.objects.get(pk=nxt.pk).seq == 1


def _round_to_settling(table, player):
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, player, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    # crown: 5 5 doubled, A = 21 -> pays 4000 (a crown 21 needs no dealer card)
    return drive(rnd, ["5S", "9H", "5C", "AD"], [decide(player, "double", 1000)])


def _settlements(rnd):
    return Transaction.objects.filter(kind="settlement", round_id=rnd.pk).count()


@pytest.mark.worker
def test_settlement_exactly_once_by_the_real_worker_even_when_redelivered(celery_worker):
    table = live_table("crown")
    player = funded_player()
    rnd = _round_to_settling(table, player)  # on commit: the settlement task is sent
    wait_until(
        lambda: Round.objects.get(pk=rnd.pk).phase == "settled",
        message="not settled:\n" + "".join(celery_worker.output[-30:]),
    )
    from tables.tasks import round_settle_task

    done = sum(
        "tables.round_settle" in line and "succeeded" in line for line in celery_worker.output
    )
    round_settle_task.delay(rnd.pk)  # a redelivery, and a manual re-run
    round_settle_task.delay(rnd.pk)
    wait_until(
        lambda: (
            sum(
                "tables.round_settle" in line and "succeeded" in line
                for line in celery_worker.output
            )
            >= done + 2
        ),
        message="".join(celery_worker.output[-30:]),
    )
    assert _settlements(rnd) == 1
    assert balance(player) == 10_000 - 2000 + 4000


@pytest.mark.worker
def test_a_lost_settlement_message_is_recovered_by_the_sweep(celery_worker, monkeypatch):
    table = live_table("crown")
    player = funded_player()
    sent = []
    monkeypatch.setattr(
        app, "send_task", lambda name, args=None, eta=None: sent.append(name)
    )  # the broker loses every message
    rnd = _round_to_settling(table, player)
    monkeypatch.undo()
    assert "tables.round_settle" in sent and Round.objects.get(pk=rnd.pk).phase == "settling"
    assert services.settlement_sweep(grace=timedelta(0)) == [rnd.pk]
    wait_until(
        lambda: Round.objects.get(pk=rnd.pk).phase == "settled",
        message="".join(celery_worker.output[-30:]),
    )
    assert _settlements(rnd) == 1 and balance(player) == 12_000


@pytest.mark.worker
def test_the_worker_applies_a_decision_timeout_exactly_once(celery_worker):
    table = live_table("british_casino", decision_seconds=1)
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, player, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["TS", "9H", "8C"]:  # T 8 = 18: the default is stand
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    token = Round.objects.get(pk=rnd.pk).decision_token
    assert token is not None
    wait_until(
        lambda: Decision.objects.filter(round=rnd, source="timeout").exists(),
        message="".join(celery_worker.output[-30:]),
    )
    from tables.tasks import round_timeout_apply_task

    round_timeout_apply_task.delay(rnd.pk, token)  # fired twice / late
    wait_until(
        lambda: sum("tables.round_timeout_apply" in line and "succeeded" in line
                    for line in celery_worker.output) >= 2,
        message="".join(celery_worker.output[-30:]),
    )  # fmt: skip
    assert Decision.objects.filter(round=rnd, source="timeout").count() == 1
    rnd = Round.objects.get(pk=rnd.pk)
    assert selectors.round_state(rnd).hand(1, 0).status == "stood"
    assert rnd.phase == "dealer"  # the dealer's second card is due from the reader
