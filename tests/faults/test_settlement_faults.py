"""Settlement under Celery faults with real worker processes: workers SIGKILLed during
settlement, again and again; the broker unreachable when a settlement commits."""

from __future__ import annotations

import signal
import time
import uuid
from datetime import timedelta

import pytest
from django.db.models import Count

from conftest import WorkerProcess, _queue_delete, wait_until
from ledger.models import Account, Transaction
from tables import services
from tables.models import Round
from tests.factories import funded_player, live_table
from tests.faults.helpers import money_checks
from tests.tables.conftest import DEVICE, bet, decide, drive

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def queue():
    """A queue of this test's own: tasks it sends reach only the workers it starts."""
    from casino.celery import app

    name = f"faults-{uuid.uuid4().hex[:8]}"
    saved = app.conf.task_default_queue
    app.conf.task_default_queue = name
    yield name
    app.conf.task_default_queue = saved
    _queue_delete(name)


def _worker(queue: str) -> WorkerProcess:
    from django.db import connection

    worker = WorkerProcess(database_name=connection.settings_dict["NAME"], queue=queue)
    worker.start()
    return worker


def _round_to_settling(table, player):
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, player, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    # crown: 5 5 doubled, A = 21 -> pays 4000 (a crown 21 needs no dealer card)
    return drive(rnd, ["5S", "9H", "5C", "AD"], [decide(player, "double", 1000)])


def _settled_or_swept(rounds) -> bool:
    """Whether every round is settled; if not, the beat's sweep runs again (as it does every
    few seconds in production), so a message lost on its way to the broker is sent again."""
    if all(Round.objects.get(pk=r.pk).phase == "settled" for r in rounds):
        return True
    services.settlement_sweep(grace=timedelta(seconds=5))
    return False


def _exactly_once(rounds, players):
    per_round = dict(
        Transaction.objects.filter(kind="settlement", round_id__in=[r.pk for r in rounds])
        .values_list("round_id")
        .annotate(n=Count("id"))
    )
    assert per_round == {r.pk: 1 for r in rounds}
    for player in players:
        assert Account.objects.get(kind="wallet", player=player).balance == (10_000 - 2000 + 4000)
    money_checks()


def test_workers_killed_during_settlement_every_round_settled_exactly_once(queue):
    tables = [live_table("crown") for _ in range(6)]
    players = [funded_player() for _ in tables]
    rounds = [_round_to_settling(t, p) for t, p in zip(tables, players, strict=True)]
    assert all(Round.objects.get(pk=r.pk).phase == "settling" for r in rounds)

    kills = 0
    for _ in range(4):
        # A worker picks up the queued settlements; SIGKILL it the moment it reports a
        # settlement received (mid-task), then start the next one.
        worker = _worker(queue)
        seen = len(worker.output)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(
            "tables.round_settle" in line and "received" in line for line in worker.output[seen:]
        ):
            time.sleep(0.005)
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait(10)
        kills += 1
        # A message the dead worker held unacknowledged is redelivered by the broker, or (on a
        # broker that loses it) re-sent by the sweep the beat runs: both are safe to repeat.
        services.settlement_sweep(grace=timedelta(0))
    worker = _worker(queue)
    try:
        wait_until(
            lambda: _settled_or_swept(rounds),
            timeout=60,
            interval=1,
            message=lambda: "not all settled:\n" + "".join(worker.output[-60:]),
        )
        services.settlement_sweep(grace=timedelta(0))  # and once more after the fact
        time.sleep(1)
    finally:
        worker.stop()
    assert kills == 4
    _exactly_once(rounds, players)


def test_broker_unreachable_at_commit_settlement_performed_once_it_is_back(
    queue, monkeypatch, caplog
):
    from casino.celery import app

    table = live_table("crown")
    player = funded_player()
    unreachable = "amqp://guest:guest@127.0.0.1:1//"
    with monkeypatch.context() as broken:
        # The producer's pool is rebuilt on the dead URL; undone (pool and URL) afterwards.
        broken.setattr(app, "_pool", None)
        broken.setattr(app.amqp, "_producer_pool", None)
        broken.setattr(app.conf, "broker_url", unreachable)
        broken.setenv("CELERY_BROKER_URL", unreachable)
        rnd = _round_to_settling(table, player)  # commits settling; the on-commit send fails
    [failed] = [r for r in caplog.records if "could not enqueue tables.round_settle" in r.message]
    assert failed.exc_info and failed.exc_info[0] is not None  # why: the broker's own error
    assert Round.objects.get(pk=rnd.pk).phase == "settling"

    worker = _worker(queue)  # the broker is back (the worker's own, good URL)
    try:
        time.sleep(1)
        assert Round.objects.get(pk=rnd.pk).phase == "settling"  # nothing was sent
        assert services.settlement_sweep(grace=timedelta(0)) == [rnd.pk]  # the beat's sweep
        wait_until(
            lambda: Round.objects.get(pk=rnd.pk).phase == "settled",
            timeout=30,
            message="".join(worker.output[-30:]),
        )
    finally:
        worker.stop()
    _exactly_once([rnd], [player])
