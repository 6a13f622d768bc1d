"""An integrator alone with the sandbox: one round of each preset on sandbox tables, played
with nothing but the generated client (clients/casino_client) and a Standard Webhooks verifier
(``standardwebhooks``) behind a local listener; every player's net must agree across the
wallet, the ledger's transactions of the round, the per-bet outcomes of the round view and the
signed ``round.settled`` webhooks.

The server side runs for real: the web server (pytest-django's live server), a Celery worker
(betting and decision timers, settlement), the webhook worker, and Celery beat sending the
sandbox dealer's pass (casino/sandbox) that opens rounds and plays the banker. The test itself
only sets up what the casino would (a sandbox operator, its key and the five tables).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict

import httpx
import pytest
from standardwebhooks.webhooks import Webhook

from casino.actors import Actor
from casino.demo.players import choose
from casino.money import PLAY_MONEY
from casino.sandbox import services as sandbox
from clients.casino_client import AuthenticatedClient
from clients.casino_client.api.operator import operator_webhook_update
from clients.casino_client.api.players import players_create
from clients.casino_client.api.rounds import (
    rounds_bets_create,
    rounds_decisions_create,
    rounds_retrieve,
)
from clients.casino_client.api.tables import tables_list, tables_retrieve
from clients.casino_client.api.transactions import transactions_list
from clients.casino_client.api.wallets import (
    wallets_balance_retrieve,
    wallets_create,
    wallets_deposits_create,
)
from clients.casino_client.models import (
    AmountInputRequest,
    OwnWebhookInputRequest,
    PlayerListCreateInputRequest,
    Problem,
    RoundBetsInputRequest,
    RoundDecisionsInputRequest,
    WalletListCreateInputRequest,
)
from conftest import ROOT, database_url_for, wait_until
from tables.engine import PRESETS
from tests.ledger.receivers import Receiver

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ACTOR = Actor.system("tests.sandbox")
PLAYERS_PER_TABLE = 2
FUNDS = 500_000
FINAL = {"settled", "voided"}


@pytest.fixture
def beat(django_db_setup, django_db_blocker, celery_queues, tmp_path):
    """Celery beat, sending the schedule (the sandbox dealer's pass every second among it) to
    this test's queue, as the worker's ``--beat`` does in ``make demo``."""
    from django.db import connection

    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    process = subprocess.Popen(  # noqa: S603
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino",
            "beat",
            "--loglevel=WARNING",
            "--schedule",
            str(tmp_path / "beat-schedule"),
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": database_url_for(name),
            "CELERY_QUEUE": celery_queues.main,
            "LEDGER_WEBHOOK_QUEUE": celery_queues.webhooks,
            "CASINO_ENV": os.environ.get("CASINO_ENV", "test"),
        },
        stdout=subprocess.DEVNULL,
    )
    yield process
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()


def ok(answer):
    """A typed answer, or the problem the API gave instead (failing the test)."""
    assert answer is not None, "no answer"
    assert not isinstance(answer, Problem), answer.to_dict()
    return answer


def test_one_round_of_each_preset_with_only_the_generated_client(
    live_server, celery_worker, webhook_worker, beat, settings
):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]  # the listener, for the web process
    operator = sandbox.sandbox_operator_create(actor=ACTOR, code="sbx-e2e", name="Integrator")
    _, key = sandbox.sandbox_key_issue(actor=ACTOR, operator=operator, label="e2e")
    for preset in PRESETS:
        sandbox.sandbox_table_create(
            actor=ACTOR,
            preset=preset,
            code=f"sbx-{preset}",
            betting_seconds=6,
            decision_seconds=4,
        )

    # Clients closed at the end: a keep-alive connection left open holds a live server's
    # request thread, and with it that thread's database connection, to the session's end.
    with client(live_server.url, key) as api:
        with Receiver() as listener:
            hook = ok(
                operator_webhook_update.sync(
                    client=api,
                    body=OwnWebhookInputRequest(webhook_url=listener.url, event_types=[]),
                )
            )
            verifier = Webhook(hook.secret)

            tables = ok(tables_list.sync(client=api, page_size=100)).results
            assert sorted(t.code for t in tables) == sorted(f"sbx-{p}" for p in PRESETS)
            assert {t.currency for t in tables} == {PLAY_MONEY}

            seats = {
                t.id: [seat(api, f"{t.code}-{n}") for n in range(PLAYERS_PER_TABLE)] for t in tables
            }
            rounds: dict[int, int] = {}
            failures: list[BaseException] = []

            def play(table):
                try:
                    with client(live_server.url, key) as own:
                        rounds[table.id] = play_one_round(own, table, seats[table.id])
                except BaseException as exc:  # reported by the main thread
                    failures.append(exc)

            threads = [threading.Thread(target=play, args=(t,)) for t in tables]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(240)
            assert not failures, failures
            assert len(rounds) == len(PRESETS)

            # Every settled round's webhook arrives, signed as Standard Webhooks says.
            def settled_hooks():
                found = {}
                for request in list(listener.requests):
                    payload = verifier.verify(request["body"], request["headers"])
                    if payload["kind"] == "round.settled":
                        found[payload["payload"]["round_id"]] = payload
                return found if set(rounds.values()) <= set(found) else None

            hooks = wait_until(
                settled_hooks, timeout=60, interval=0.5, message="round.settled hooks"
            )
            delivered = [verifier.verify(r["body"], r["headers"]) for r in list(listener.requests)]
            refunds = [hook for hook in delivered if hook["kind"] == "stake.refunded"]

        moved = []
        for table in tables:
            round_id = rounds[table.id]
            view = ok(rounds_retrieve.sync(round_id, client=api)).to_dict()
            ledger_nets = nets_from_transactions(api, round_id, seats[table.id])
            hook_nets = nets_from_hook(hooks[round_id], refunds, round_id)
            outcome_nets = nets_from_outcomes(view)
            for player_id, wallet_id in seats[table.id]:
                balance = ok(wallets_balance_retrieve.sync(wallet_id, client=api)).balance
                net = balance - FUNDS
                moved.append(net)
                context = f"table {table.code}, round {round_id}, player {player_id}"
                assert ledger_nets.get(player_id, 0) == net, context
                assert hook_nets.get(player_id, 0) == net, context
                assert outcome_nets.get(player_id, 0) == net, context
        assert len(moved) == len(PRESETS) * PLAYERS_PER_TABLE
        assert any(moved), "the rounds moved money"


def client(base: str, key: str) -> AuthenticatedClient:
    return AuthenticatedClient(base_url=base, token=key, timeout=httpx.Timeout(30))


def seat(api: AuthenticatedClient, ref: str) -> tuple[int, int]:
    """A new player with a funded play-money wallet: (player id, wallet id)."""
    player = ok(
        players_create.sync(client=api, body=PlayerListCreateInputRequest(external_ref=ref))
    )
    wallet = ok(
        wallets_create.sync(
            client=api,
            body=WalletListCreateInputRequest(player_id=player.id, currency=PLAY_MONEY),
        )
    )
    ok(
        wallets_deposits_create.sync(
            wallet.id,
            client=api,
            body=AmountInputRequest(amount=FUNDS),
            idempotency_key=uuid.uuid4().hex,
        )
    )
    return player.id, wallet.id


def play_one_round(api: AuthenticatedClient, table, players: list[tuple[int, int]]) -> int:
    """Bet for every player in the next round with time left to bet, play their decisions
    until the round is settled: the round's id."""
    rng = random.Random(table.id)  # test play, not a game outcome
    deadline = time.monotonic() + 180
    round_id = None
    while round_id is None:
        assert time.monotonic() < deadline, f"no round to bet on at {table.code}"
        current = ok(tables_retrieve.sync(table.id, client=api)).current_round_id
        state = ok(rounds_retrieve.sync(current, client=api)) if current else None
        if state is None or state.phase != "open" or _seconds_left(state) < 2:
            time.sleep(0.3)
            continue
        # The traditional game joins with stake 0 and stakes in its window.
        stake = 0 if "traditional" in (table.rule_set or "") else table.min_bet * 5
        placed = [
            rounds_bets_create.sync(
                current,
                client=api,
                body=RoundBetsInputRequest(player_id=player_id, box=box, stake=stake),
                idempotency_key=uuid.uuid4().hex,
            )
            for box, (player_id, _) in enumerate(players, start=1)
        ]
        if all(not isinstance(bet, Problem) for bet in placed):
            round_id = current
        else:  # the window closed under us: those that got in play this round anyway
            assert all(p.status == 409 for p in placed if isinstance(p, Problem)), placed
            if any(not isinstance(bet, Problem) for bet in placed):
                raise AssertionError(f"half the bets of {table.code} missed the window")
    while True:
        assert time.monotonic() < deadline, f"round {round_id} of {table.code} never settled"
        for player_id, _ in players:
            mine = ok(rounds_retrieve.sync(round_id, client=api, player_id=player_id)).to_dict()
            if mine["phase"] in FINAL:
                return round_id
            actions = [
                a for a in mine["your_actions"] if a.get("player_id", player_id) == player_id
            ]
            if not actions:
                continue
            hand = None
            turn = mine.get("turn") or {}
            if turn.get("kind") == "hand":
                box = next(b for b in mine["boxes"] if b["number"] == turn["box"])
                hand = box["hands"][turn["hand_index"]]
            choice = choose(actions, hand, rng)
            rounds_decisions_create.sync(
                round_id,
                client=api,
                body=RoundDecisionsInputRequest.from_dict(
                    {
                        "player_id": player_id,
                        "action": choice["action"],
                        **({"bet_id": choice["bet_id"]} if choice.get("bet_id") else {}),
                        **(
                            {"amount": choice["amount"]} if choice.get("amount") is not None else {}
                        ),
                    }
                ),
                idempotency_key=uuid.uuid4().hex,
            )  # a refusal (a timer won the race) is normal: the next view says what is next
        time.sleep(0.3)


def _seconds_left(state) -> float:
    closes = state.betting_closes_at
    if not closes:
        return 0
    return (closes - dt.datetime.now(dt.UTC)).total_seconds()


def nets_from_transactions(api, round_id: int, players) -> dict[int, int]:
    """Each player's net in the round from the ledger: the legs on its wallet of every
    transaction of the round (stakes, refunds, settlement)."""
    wallets = {wallet_id: player_id for player_id, wallet_id in players}
    nets: dict[int, int] = defaultdict(int)
    page = ok(transactions_list.sync(client=api, round_=round_id, page_size=100))
    assert not page.next_, "one page holds the round's transactions"
    for txn in page.results:
        for leg in txn.legs:
            if leg.account_id in wallets:
                nets[wallets[leg.account_id]] += leg.amount
    return dict(nets)


def nets_from_hook(settled: dict, refunds: list[dict], round_id: int) -> dict[int, int]:
    """Each player's net from the signed webhooks: what ``round.settled`` paid each bet less
    its stake, plus any ``stake.refunded`` of the round."""
    nets: dict[int, int] = defaultdict(int)
    for bet in settled["payload"]["bets"]:
        nets[bet["player_id"]] += bet["payout"] + bet["bonus"] - bet["stake"]
    for refund in refunds:
        if refund["payload"]["round_id"] == round_id:
            nets[refund["payload"]["player_id"]] += refund["payload"]["amount"]
    return dict(nets)


def nets_from_outcomes(view: dict) -> dict[int, int]:
    """Each player's net from the round view's per-bet outcomes (``outcomes``, one entry per
    bet with its ``net``, present once the round is settled or voided)."""
    outcomes = view.get("outcomes")
    assert outcomes is not None, f"round {view.get('id')}: no per-bet outcomes once settled"
    nets: dict[int, int] = defaultdict(int)
    for outcome in outcomes:
        assert outcome["currency"] == PLAY_MONEY
        nets[outcome["player_id"]] += outcome["net"]
    return dict(nets)
