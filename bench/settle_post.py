"""Benchmark: posting a round's settlement to the ledger (``round_settlement_post``).

Posts a 10,000-bet round and a 21-bet round (a full 7-box x 3-bet Crown round) and prints each
timing next to a baseline measured in the same run on the same database: inserting the same
number of leg-sized rows into a plain, index-free, trigger-free temporary table with one
``executemany`` — the cheapest way to write that many rows from Python, with none of the
ledger's guarantees.

Targets (docs/architecture §4): <= 1 s for 10,000 bets, <= 50 ms for 21 bets, measured from
the call to the commit. Run: ``python -m bench settle_post`` (``make bench``); it creates and
drops its own database ``bench_ledger``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("CASINO_ENV", "test")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from bench._baselines import plain_rows_insert  # noqa: E402
from bench._stakes import stakes_bulk  # noqa: E402
from bench.report import result  # noqa: E402

RUNS = {10_000: 3, 21: 15}


def _world(n_bets: int, round_id: int, table, players):
    """The stakes of a round (the rows stake_debit writes, in bulk: bench/_stakes.py) and its
    settlement lines: lose, push, win in turn, a bonus every 97th bet."""
    from casino.actors import Actor
    from ledger.services import SettlementLine

    stakes, lines = [], []
    for index in range(n_bets):
        wallet = players[index % len(players)]
        bet_ref = f"r{round_id}-b{index}"
        stakes.append((bet_ref, wallet.pk, wallet.operator_id, 100))
        outcome = index % 3  # lose, push, win: a realistic mix of payout legs
        lines.append(
            SettlementLine(bet_ref, wallet.pk, stake=100, payout=[0, 100, 200][outcome],
                           bonus=500 if index % 97 == 0 else 0)
        )  # fmt: skip
    stakes_bulk(
        actor=Actor.system("bench"), table_id=table.pk, round_id=round_id, currency="EUR",
        stakes=sorted(stakes, key=lambda s: s[1]),
    )  # fmt: skip
    return lines


def _post(lines, round_id: int, table) -> float:
    from casino.actors import Actor
    from ledger import services

    started = time.perf_counter()
    with transaction.atomic():
        posting = services.round_settlement_post(
            actor=Actor.system("bench"), round_id=round_id, table_id=table.pk,
            currency="EUR", lines=lines,
        )  # fmt: skip
    elapsed = time.perf_counter() - started
    assert posting.created
    return elapsed


def main() -> int:
    from ledger.models import Leg, Transaction
    from tests.factories import OperatorFactory, PlayerFactory, TableFactory, WalletFactory

    connection.settings_dict["TEST"]["NAME"] = "bench_ledger"
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        call_command("check", verbosity=0)
        from casino.actors import Actor
        from ledger import services

        table = TableFactory()
        operators = [OperatorFactory() for _ in range(5)]
        wallets = [
            WalletFactory(player=PlayerFactory(operator=operators[index % 5]))
            for index in range(2_000)
        ]
        with transaction.atomic():
            for wallet in wallets:
                services.wallet_deposit(actor=Actor.system("bench"), wallet=wallet, amount=10**9)
        ok = True
        for n_bets, target in ((10_000, 1.0), (21, 0.050)):
            timings, baselines, legs = [], [], 0
            for run in range(RUNS[n_bets]):
                round_id = n_bets * 100 + run
                lines = _world(n_bets, round_id, table, wallets)
                timings.append(_post(lines, round_id, table))
                txn = Transaction.objects.get(round_id=round_id, kind="settlement")
                legs = Leg.objects.filter(transaction=txn).count()
                baselines.append(plain_rows_insert(legs))
            best, median = min(timings), statistics.median(timings)
            base = statistics.median(baselines)
            passed = median <= target
            ok &= passed
            print(
                f"settle {n_bets} bets ({legs} legs): median {median * 1000:.1f} ms, "
                f"best {best * 1000:.1f} ms; baseline executemany of {legs} plain rows "
                f"{base * 1000:.1f} ms"
            )
            result(
                name=f"ledger settlement post, {n_bets} bets (median of {RUNS[n_bets]})",
                figure=median * 1000,
                unit="ms",
                baseline_name=f"executemany of {legs} plain rows, ms",
                baseline=base * 1000,
                target=f"<= {target * 1000:.0f} ms",
                ok=passed,
            )
        return 0 if ok else 1
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
