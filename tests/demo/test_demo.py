"""`make demo`: the seed, and live tables kept playing through the API by simulated players."""

import threading

import pytest
from django.contrib.auth.models import User

from casino.api.models import ApiKey, DeviceToken
from casino.demo.players import choose, players_start
from casino.demo.seed import ACTOR, FUNDING, HUMAN_TIMERS, PLAYERS, demo_seed
from casino.money import PLAY_MONEY
from conftest import wait_until
from ledger.models import Account, Operator, Player
from ledger.services import wallet_deposit, wallet_open
from tables import services
from tables.engine import PRESETS
from tables.models import Box, Round, Seat, Table


@pytest.mark.django_db
def test_seed_is_repeatable_and_issues_fresh_credentials():
    first = demo_seed()
    second = demo_seed()
    assert set(first.staff) == {"admin", "pitboss", "floor", "dealer", "auditor"}
    assert User.objects.filter(username__in=first.staff).count() == 5
    assert first.api_key != second.api_key
    assert first.sandbox_api_key != second.sandbox_api_key
    live_keys = ApiKey.objects.filter(revoked_at__isnull=True, operator__sandbox__isnull=True)
    sandbox_keys = ApiKey.objects.filter(revoked_at__isnull=True, operator__sandbox__isnull=False)
    assert (live_keys.count(), sandbox_keys.count()) == (1, 1)
    sandbox = Table.objects.filter(pk__in=second.sandbox_table_ids, sandbox__isnull=False)
    assert {(t.code, t.status, t.currency) for t in sandbox} == {
        (f"sandbox-{preset}", "open", PLAY_MONEY) for preset in PRESETS
    }
    assert Table.objects.filter(code__startswith="demo-", status="open").count() == len(PRESETS)
    human = Table.objects.filter(pk__in=second.human_paced, status="open")
    assert {t.code for t in human} == {f"human-{preset}" for preset in PRESETS}
    assert {t.betting_seconds for t in human} == {HUMAN_TIMERS["betting_seconds"]}
    assert DeviceToken.objects.filter(revoked_at__isnull=True).count() == 2 * len(PRESETS)
    wallets = Account.objects.filter(kind="wallet", player_id__in=second.player_ids)
    assert len(PLAYERS) == wallets.count()
    assert {w.balance for w in wallets} == {FUNDING}


@pytest.mark.django_db
def test_a_restarted_demo_frees_the_box_a_person_took_in_an_earlier_run():
    demo_seed()
    operator = Operator.objects.get(code="demo-op")
    table = Table.objects.get(code="human-british_casino")
    person = Player.objects.create(operator=operator, external_ref="me-1")
    wallet, _ = wallet_open(actor=ACTOR, player=person, currency="EUR")
    wallet_deposit(actor=ACTOR, wallet=wallet, amount=50_000)
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=person, box=1, stake=500)
    # the box is theirs from now on: another player betting there is refused (409 conflict)
    assert Box.objects.get(table=table, number=1).seat.player == person
    demo_seed()  # the next `make demo`: box 1 is free for whoever bets there next
    assert Box.objects.get(table=table, number=1).seat_id is None
    assert not Seat.objects.filter(table__code__startswith="human-", left_at__isnull=True)


def test_simulated_player_policy_uses_only_offered_actions():
    import random

    rng = random.Random(1)
    offered = [
        {"action": "hit", "bet_id": "b1", "amount_min": None, "amount_max": None},
        {"action": "stand", "bet_id": "b1", "amount_min": None, "amount_max": None},
        {"action": "double", "bet_id": "b1", "amount_min": 1, "amount_max": 500},
    ]
    assert choose(offered, {"total": 18, "cards": ["TS", "8H"]}, rng)["action"] == "stand"
    double = choose(offered, {"total": 11, "cards": ["5S", "6H"]}, rng)
    assert (double["action"], double["amount"]) == ("double", 500)
    assert choose(offered[:1], {"total": 19, "cards": ["TS", "9H"]}, rng)["action"] == "hit"
    stake = [{"action": "stake", "bet_id": "b", "amount_min": 100, "amount_max": 900}]
    assert choose(stake, None, rng)["amount"] == 100


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_every_demo_table_plays_rounds_to_settlement(live_server, celery_worker):
    credentials = demo_seed()
    stop = threading.Event()
    threads = players_start(base=live_server.url, credentials=credentials, stop=stop)
    try:
        wait_until(
            lambda: (
                Round.objects.filter(table__code__startswith="demo-", phase="settled")
                .values("table")
                .distinct()
                .count()
                == len(PRESETS)
            ),
            timeout=150,
            interval=1,
            message="not every demo table settled a round:\n" + "".join(celery_worker.output[-30:]),
        )
    finally:
        stop.set()
        for thread in threads:
            thread.join(15)
    wallets = Account.objects.filter(kind="wallet", player_id__in=credentials.player_ids)
    assert any(w.balance != FUNDING for w in wallets), "money moved through the ledger"
