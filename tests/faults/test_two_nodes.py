"""Two app nodes sharing nothing but PostgreSQL, the broker and the cache.

Each node is a gunicorn web server and a Celery worker, separate processes, both nodes on the
test database, one broker queue and one Redis (CACHE_URL, a database of its own): bets go to
both web servers, settlements to both workers, one whole node is SIGKILLed while its worker
settles a round, and the refused-credential throttle counts across nodes.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import socket
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count

from conftest import WorkerProcess, _queue_delete, redis_test_url, wait_until
from ledger.models import Account, Transaction
from tables import services
from tables.models import Round
from tests.faults.helpers import Bettor, Gunicorn, database_url, money_checks
from tests.tables.conftest import DEVICE, decide, drive

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

STAKE = 100
FUNDING = 10_000
# 5 5 doubled, then A: 21 in three cards, paid even money on the doubled stake (see
# test_settlement_faults): each round takes 2 x STAKE and gives back 4 x STAKE.
CARDS = ["5S", "9H", "5C", "AD"]
REFUSALS_PER_WINDOW = 5


class Node:
    """One app node: a web server and a worker, started and killed together."""

    def __init__(self, name: str, *, queue: str, env: dict[str, str]):
        self.name = name
        self.web = Gunicorn(database_url(), workers=1, extra_env={**env, "CELERY_QUEUE": queue})
        self.worker = WorkerProcess(
            database_name=connection.settings_dict["NAME"],
            queue=queue,
            env=env,
            name=f"{queue}-{name}",
        )
        self.worker.start()

    def settled(self) -> int:
        """Settlement tasks this node's worker finished."""
        return sum(
            "tables.round_settle" in line and "succeeded" in line for line in self.worker.output
        )

    def pause(self, paused: bool) -> None:
        """Make the worker stop (or start again) consuming the queue, so the broker hands the
        queue's messages to the other node: which worker takes a message is otherwise up to
        timing. Through Celery's remote control, not SIGSTOP: the broker went on pushing a
        stopped worker its prefetch of messages, and a round handed to the other node could
        sit there until the pass failed ("node b settled none"). The filesystem transport of
        a machine without a broker (README "two commands") has no remote control, and pushes
        nothing: a stopped worker takes no message there."""
        from casino.celery import app

        if not app.conf.worker_enable_remote_control:
            self.worker.process.send_signal(signal.SIGSTOP if paused else signal.SIGCONT)
            return
        node = f"{self.worker.name}@{socket.gethostname()}"
        control = app.control.cancel_consumer if paused else app.control.add_consumer
        replies = control(self.worker.queue, destination=[node], reply=True, timeout=10)
        assert replies, f"{node} did not answer the remote control"

    def kill(self) -> None:
        self.worker.process.send_signal(signal.SIGKILL)
        os.killpg(self.web.process.pid, signal.SIGKILL)
        self.worker.process.wait(10)
        self.web.process.wait(10)

    def stop(self) -> None:
        self.worker.stop()
        self.web.stop()


@pytest.fixture
def shared():
    """The broker queue both nodes and this process send settlements to, and the cache env."""
    from casino.celery import app

    queue = f"nodes-{uuid.uuid4().hex[:8]}"
    saved = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    env = {
        "CACHE_URL": redis_test_url(),
        "API_REFUSAL_THROTTLE_RATE": f"{REFUSALS_PER_WINDOW}/h",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback, no TLS proxy in front
    }
    yield queue, env
    app.conf.task_default_queue = saved
    _queue_delete(queue)  # what the killed node left in it dies with the test


def _refused(port: int, source: str) -> int:
    """A bearer key that does not exist, from ``source`` (a loopback address of this test's
    own, so no other test's refusals share its counter)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("GET", "/api/v1/tables/", headers={"Authorization": "Bearer ck_nope.nope"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _to_settling(round_id: int, player) -> None:
    rnd = Round.objects.get(pk=round_id)
    services.shoe_load(
        actor=DEVICE, table_id=rnd.table_id, shuffle_method="shuffler", device_id="reader-1"
    )
    services.round_close_betting(actor=DEVICE, round_id=round_id)
    drive(Round.objects.get(pk=round_id), CARDS, [decide(player, "double", STAKE)])


def test_two_nodes_share_the_work_survive_one_killed_and_share_throttles(betting_world, shared):
    from ledger.models import Player

    queue, env = shared
    key, slots, wallets = betting_world(tables=6, players=2, funding=FUNDING, boxes=1, stake=STAKE)
    nodes: list[Node] = []
    try:
        nodes += [Node("a", queue=queue, env=env), Node("b", queue=queue, env=env)]
        # Bets: each player's through its own node.
        bettors = [Bettor(nodes[p % 2].web.port, key, slots[p]) for p in range(len(slots))]
        for bettor in bettors:
            bettor.start()
        for bettor in bettors:
            bettor.join(120)
        served = [sum(status == 201 for _, _, status, *_ in b.log) for b in bettors]  # per player
        assert served == [len(s) for s in slots], [b.log[-1] for b in bettors]
        assert served[0] > 0 and served[1] > 0  # node a (player 0) and node b (player 1)

        # Settlements: each worker settles rounds while the other one is stopped.
        rounds = [(slot[0], Player.objects.get(pk=slot[1])) for s in slots for slot in s]
        # Each decision arms a timer, an ETA message the worker holds until it is due: short
        # timers (our decisions come at once, so they find nothing to do) keep workers free.
        Round.objects.filter(pk__in=[r for r, _ in rounds]).update(decision_seconds=1)
        pending = list(rounds)
        for busy, stopped in ((nodes[0], nodes[1]), (nodes[1], nodes[0])):
            stopped.pause(True)
            handed = [pending.pop(0), pending.pop(0)]
            try:
                for round_id, player in handed:
                    _to_settling(round_id, player)
                wait_until(busy.settled, timeout=120, message=f"node {busy.name} settled none")
            finally:
                stopped.pause(False)
            # Both settled before the next pass stops this node: stopped in the middle of a
            # settlement, it would hold its player's wallet lock for good, and the next pass's
            # stake debit for that player would wait on it (a CI run hung there for 300 s).
            wait_until(
                lambda handed=handed: (
                    not Round.objects.filter(
                        pk__in=[r for r, _ in handed], phase="settling"
                    ).exists()
                ),
                timeout=120,
                message=f"rounds handed to node {busy.name} not settled",
            )
        assert nodes[0].settled() > 0 and nodes[1].settled() > 0
        rest = pending

        # The throttle is shared: the refusals of one address count on both nodes.
        source = f"127.{random.randint(1, 254)}.{random.randint(1, 254)}.{random.randint(2, 254)}"
        statuses = [_refused(nodes[i % 2].web.port, source) for i in range(REFUSALS_PER_WINDOW + 2)]
        assert statuses == [401] * REFUSALS_PER_WINDOW + [429, 429], statuses

        # Node b dies (web and worker, SIGKILL) while its worker settles a round (node a
        # stopped until then, so that b takes one).
        seen = len(nodes[1].worker.output)
        nodes[0].pause(True)
        try:
            for round_id, player in rest:
                _to_settling(round_id, player)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not any(
                "tables.round_settle" in line and "received" in line
                for line in nodes[1].worker.output[seen:]
            ):
                time.sleep(0.005)
            assert time.monotonic() < deadline, "node b received no settlement"
            nodes[1].kill()
        finally:
            nodes[0].pause(False)
        # Its unacknowledged message goes back to the queue for node a; the beat's sweep
        # re-sends what a broker might have lost: both are safe to repeat.
        services.settlement_sweep(grace=timedelta(0))
        wait_until(
            lambda: (
                not Round.objects.filter(pk__in=[r for r, _ in rounds])
                .exclude(phase="settled")
                .exists()
            ),
            timeout=180,
            message="not all settled",
        )
        services.settlement_sweep(grace=timedelta(0))
        time.sleep(1)
    finally:
        for node in nodes:
            node.stop()

    per_round = dict(
        Transaction.objects.filter(kind="settlement", round_id__in=[r for r, _ in rounds])
        .values_list("round_id")
        .annotate(n=Count("id"))
    )
    assert per_round == {r: 1 for r, _ in rounds}
    for wallet, player_slots in zip(wallets, slots, strict=True):
        played = len(player_slots)
        expected = FUNDING - 2 * STAKE * played + 4 * STAKE * played
        assert Account.objects.get(pk=wallet.pk).balance == expected
    money_checks()
