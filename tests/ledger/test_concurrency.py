"""Real threads against one wallet: exactly the affordable stakes are accepted, never negative."""

import threading

import pytest
from django.db import connection, transaction

from ledger.errors import InsufficientFunds
from ledger.models import Transaction
from ledger.selectors import ledger_reconcile
from tests.ledger.conftest import fund, stake

THREADS = 50
AFFORDABLE = 17
STAKE = 100


@pytest.mark.django_db(transaction=True)
def test_fifty_threads_staking_against_one_wallet(wallet, table):
    fund(wallet, AFFORDABLE * STAKE)
    barrier = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def place(index: int):
        try:
            barrier.wait(10)
            with transaction.atomic():
                stake(wallet, STAKE, table_id=table.pk, round_id=1, bet_ref=f"t{index}")
            result = "accepted"
        except InsufficientFunds:
            result = "refused"
        except Exception as exc:  # anything else is a bug the assertion below reports
            result = f"error: {exc!r}"
        finally:
            connection.close()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=place, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert sorted(set(outcomes)) == ["accepted", "refused"], outcomes
    assert outcomes.count("accepted") == AFFORDABLE
    wallet.refresh_from_db()
    assert wallet.balance == 0
    assert Transaction.objects.filter(kind="stake").count() == AFFORDABLE
    assert ledger_reconcile() == []


@pytest.mark.django_db(transaction=True)
def test_concurrent_replays_of_one_stake_debit_once(wallet, table):
    fund(wallet, 1_000)
    barrier = threading.Barrier(10)
    results = []

    def place():
        try:
            barrier.wait(10)
            with transaction.atomic():
                results.append(
                    stake(wallet, STAKE, table_id=table.pk, round_id=1, bet_ref="same").pk
                )
        finally:
            connection.close()

    threads = [threading.Thread(target=place) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(results) == 10 and len(set(results)) == 1
    wallet.refresh_from_db()
    assert wallet.balance == 900
