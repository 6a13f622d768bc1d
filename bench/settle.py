"""Benchmark: settling a round through the real settlement service (``tables.round_settle``).

Measured from the start of the Celery task (run in-process with ``task.apply``) to its
commit: fold the round's persisted engine events, ``settle()`` through the engine, post the
payouts to the ledger in one transaction, mark the round settled (its settlement record),
write the audit events.

Two rounds (docs/architecture §4):
- a 10,000-bet round, target <= 1 s. No preset holds 10,000 bets, so the rule set is the Crown
  preset with more boxes and bets behind (the engine's RuleSet is data). Two shapes:
  100 boxes x 100 bets (the primary figure) and 10 boxes x 1,000 bets behind (the engine's
  per-bet checks in ``RoundState._on_bet`` scan the whole box, so this shape shows their cost).
  Placing 10,000 bets one API call at a time takes minutes, so the round is built in bulk: the
  engine folds the same events (bets, close, cards, stands) in memory, then the bets, their
  engine events and the ledger rows ``ledger.services.stake_debit`` writes for each bet (one
  stake transaction with its two legs) are written with a few set-based statements and the
  round is left in ``settling`` exactly as the services leave it. Only the settlement is timed.
- a full 7-box x 3-bet Crown round (21 bets), target <= 50 ms, played entirely through the
  services (``bet_place``, ``round_close_betting``, ``card_post``, ``decision_make``).

Baseline (same run, same database): inserting as many plain rows as the settlement wrote legs
into an index-free, trigger-free temporary table with one ``executemany``. A breakdown (fold,
engine settle, ledger post, the rest) is printed for every size; ``--profile`` adds a cProfile
of one 10,000-bet settlement.

Run: ``python -m bench settle`` (``make bench``); it creates and drops its own database
``bench_settle``.
"""

from __future__ import annotations

import logging
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("CASINO_ENV", "test")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench._baselines import plain_rows_insert  # noqa: E402
from bench._stakes import stakes_bulk  # noqa: E402
from bench.report import result  # noqa: E402

logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
logging.getLogger("kombu.connection").setLevel(logging.ERROR)

STAKE = 100
# (boxes, bets per box, runs): the first shape is the primary 10,000-bet figure.
BIG_SHAPES = [(100, 100, 2), (10, 1000, 1)]
if os.environ.get("BENCH_SETTLE_QUICK"):
    BIG_SHAPES = [(100, 100, 1)]
CROWN_RUNS = 15
DECK = [rank + suit for rank in "A23456789JQK" for suit in "SHDC"]  # Spanish: no tens


class Breakdown:
    """Wall time spent in the settlement's main steps (module attributes wrapped)."""

    def __init__(self):
        self.spent: dict[str, float] = defaultdict(float)
        self._saved = []

    def wrap(self, owner, attr: str, label: str):
        original = getattr(owner, attr)

        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.spent[label] += time.perf_counter() - started

        self._saved.append((owner, attr, original))
        setattr(owner, attr, timed)

    def __enter__(self):
        from ledger import services as ledger
        from tables import engine as eng
        from tables import events, selectors

        self.wrap(selectors, "round_state_replay", "fold")
        self.wrap(eng, "settle", "engine settle")
        self.wrap(ledger, "round_settlement_post", "ledger post")
        self.wrap(events, "round_settled", "audit round_settled")
        return self

    def __exit__(self, *exc):
        for owner, attr, original in reversed(self._saved):
            setattr(owner, attr, original)


def _settle_timed(round_id: int, breakdown: Breakdown | None = None) -> float:
    from tables.models import Round
    from tables.tasks import round_settle_task

    started = time.perf_counter()
    if breakdown is None:
        outcome = round_settle_task.apply(args=[round_id])
    else:
        with breakdown:
            outcome = round_settle_task.apply(args=[round_id])
    elapsed = time.perf_counter() - started
    assert outcome.successful(), outcome.traceback
    assert Round.objects.get(pk=round_id).phase == "settled"
    return elapsed


def _legs(round_id: int) -> int:
    from ledger.models import Leg, Transaction

    txn = Transaction.objects.get(round_id=round_id, kind="settlement")
    return Leg.objects.filter(transaction=txn).count()


def _table(actor, code: str, rules_doc: dict, payouts) -> object:
    from tables import services
    from tables.models import Casino

    casino, _ = Casino.objects.get_or_create(code="main", defaults={"name": "Main casino"})
    rule_set = services.rule_set_version_create(actor=actor, name=code, document=rules_doc)
    schedule = services.payout_schedule_version_create(
        actor=actor, name=code, document=payouts.to_json()
    )
    table = services.table_create(
        actor=actor, casino=casino, code=code, name=code, rule_set=rule_set,
        payout_schedule=schedule, card_source="card_reader", min_bet=STAKE,
        betting_seconds=3600, decision_seconds=3600,
    )  # fmt: skip
    services.table_open(actor=actor, table_id=table.pk)
    services.shoe_load(actor=actor, table_id=table.pk, shuffle_method="shuffler", device_id="b")
    return table


def _players(actor, count: int):
    from ledger.services import wallet_deposit
    from tests.factories import OperatorFactory, PlayerFactory, WalletFactory

    operator = OperatorFactory()
    wallets = []
    with transaction.atomic():
        for _ in range(count):
            wallet = WalletFactory(player=PlayerFactory(operator=operator))
            wallet_deposit(actor=actor, wallet=wallet, amount=10**10)
            wallets.append(wallet)
    return wallets


def _play_out(state, rng: random.Random, eng) -> list:
    """Close betting and play the round to completion in memory: every box stands on its
    first two cards, the dealer plays by the rules. Returns the events."""
    shoe = DECK * 8
    rng.shuffle(shoe)
    out = [eng.BettingClosed()]
    state.apply_in_place(out[0])
    while state.phase != eng.Phase.COMPLETE:
        if state.next_card_target() is not None:
            event = eng.CardDealt(shoe.pop())
        else:
            turn = state.turn()
            actions = state.legal_actions()
            if turn.kind == eng.TurnKind.HAND:
                action = "stand" if "stand" in actions else actions[0]
                event = eng.Decision(turn.box, turn.hand, action)
            elif turn.kind == eng.TurnKind.DEALER:
                event = eng.DealerDecision("stand" if "stand" in actions else actions[0])
            else:
                raise RuntimeError(f"unexpected turn {turn}")
        state.apply_in_place(event)
        out.append(event)
    return out


def _big_round_build(actor, table, wallets, boxes: int, per_box: int, seed: int) -> int:
    """A round in ``settling`` with boxes x per_box bets, built in bulk (see the docstring)."""
    from tables import engine as eng
    from tables import selectors
    from tables import services as table_services
    from tables.models import Bet, Round, RoundEvent

    started = time.perf_counter()
    rnd = table_services.round_open(actor=actor, table_id=table.pk)
    players = len(wallets)
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        state = selectors.round_state(rnd)
        engine_events, bets = [], []
        for box in range(1, boxes + 1):
            for index in range(per_box):
                wallet = wallets[(box - 1 + index) % players]
                ref = f"r{rnd.pk}-{box}-{index}"
                event = eng.BetPlaced(ref, box, STAKE, str(wallet.player_id), index > 0)
                engine_events.append(event)
                bets.append(
                    Bet(round=rnd, ref=ref, box=box, behind=index > 0, player_id=wallet.player_id,
                        wallet=wallet, operator_id=wallet.operator_id, stake=STAKE,
                        staked_total=STAKE)
                )  # fmt: skip
        for event in engine_events:
            state.apply_in_place(event)
        engine_events += _play_out(state, random.Random(seed), eng)
        built = time.perf_counter()
        Bet.objects.bulk_create(bets, batch_size=2000)
    # The stakes: the rows stake_debit writes, for all the bets at once (bench/_stakes.py).
    stakes_bulk(
        actor=actor, table_id=rnd.table_id, round_id=rnd.pk, currency=rnd.currency,
        stakes=[(b.ref, b.wallet_id, b.operator_id, STAKE)
                for b in sorted(bets, key=lambda b: b.wallet_id)],
    )  # fmt: skip
    debited = time.perf_counter()
    with transaction.atomic():
        RoundEvent.objects.bulk_create(
            [
                RoundEvent(round=rnd, table_id=rnd.table_id, seq=seq, type=event.type,
                           payload=event.to_json(), public=event.to_json(), actor=actor.label)
                for seq, event in enumerate(engine_events, start=1)
            ],
            batch_size=2000,
        )  # fmt: skip
        now = timezone.now()
        Round.objects.filter(pk=rnd.pk).update(
            phase="settling", seq=len(engine_events), state=state.to_json(),
            closed_at=now, settling_since=now, betting_closes_at=None,
        )  # fmt: skip
    with connection.cursor() as cursor:  # as autovacuum would (see bench/_stakes.py)
        cursor.execute("ANALYZE tables_bet, tables_roundevent")
    print(f"  engine fold {built - started:.2f}s, stake debits {debited - built:.2f}s")
    return rnd.pk


def _crown_round(actor, table, wallets, seed: int) -> int:
    """A full Crown round (7 boxes x 3 bets) played through the services; it ends settling."""
    from tables import engine as eng
    from tables import selectors
    from tables import services as table_services
    from tables.models import Round

    rng = random.Random(seed)
    # A fresh reader shoe per round, dealt without replacement (the shoe checks every card).
    table_services.shoe_load(actor=actor, table_id=table.pk, shuffle_method="shuffler",
                             device_id="b")  # fmt: skip
    shoe = DECK * 8
    rng.shuffle(shoe)
    rnd = table_services.round_open(actor=actor, table_id=table.pk)
    players = {w.player_id: w.player for w in wallets}
    ids = list(players)
    for box in range(1, 8):
        for index in range(3):
            player = players[ids[(box - 1) * 3 + index]]
            table_services.bet_place(
                actor=actor, round_id=rnd.pk, player=player, box=box, stake=STAKE * (index + 1),
                behind=index > 0,
            )  # fmt: skip
    table_services.round_close_betting(actor=actor, round_id=rnd.pk)
    while True:
        rnd = Round.objects.get(pk=rnd.pk)
        if rnd.phase not in Round.LIVE:
            break
        state = selectors.round_state(rnd)
        if state.next_card_target() is not None:
            table_services.card_post(actor=actor, round_id=rnd.pk, card=shoe.pop())
            continue
        turn, actions = state.turn(), state.legal_actions()
        if turn.kind == eng.TurnKind.HAND:
            controller = players[int(state.boxes[turn.box].controller)]
            table_services.decision_make(
                actor=actor, round_id=rnd.pk, player=controller,
                action="stand" if "stand" in actions else actions[0],
            )  # fmt: skip
        elif turn.kind == eng.TurnKind.DEALER:
            table_services.dealer_decision_make(
                actor=actor, round_id=rnd.pk, action="stand" if "stand" in actions else "hit"
            )
        else:
            raise RuntimeError(f"unexpected turn {turn}")
    assert rnd.phase == "settling", rnd.phase
    return rnd.pk


def _report(label, timings, baselines, legs, target, breakdown: Breakdown, runs: int) -> bool:
    median, best = statistics.median(timings), min(timings)
    base = statistics.median(baselines)
    parts = ", ".join(f"{k} {v / runs * 1000:.1f} ms" for k, v in breakdown.spent.items())
    rest = median - sum(breakdown.spent.values()) / runs
    print(
        f"{label} ({legs} legs): median {median * 1000:.1f} ms, best {best * 1000:.1f} ms; "
        f"mean breakdown: {parts}, rest {rest * 1000:.1f} ms; baseline executemany of "
        f"{legs} plain rows {base * 1000:.1f} ms"
    )
    passed = median <= target
    result(
        name=f"settlement (round_settle task, start to commit), {label} (median of {runs})",
        figure=median * 1000, unit="ms",
        baseline_name=f"executemany of {legs} plain rows, ms", baseline=base * 1000,
        target=f"<= {target * 1000:.0f} ms", ok=passed,
    )  # fmt: skip
    return passed


def main(argv: list[str]) -> int:
    from casino.actors import Actor
    from tables import engine as eng

    profile = "--profile" in argv
    connection.settings_dict["TEST"]["NAME"] = "bench_settle"
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    ok = True
    try:
        actor = Actor.system("bench.settle")
        crown = eng.PRESETS["crown"]

        # Crown 7 x 3, through the services.
        table = _table(actor, "bench-crown", crown.rules.to_json(), crown.payouts)
        wallets = _players(actor, 21)
        timings, baselines, breakdown, legs = [], [], Breakdown(), 0
        for run in range(CROWN_RUNS + 2):
            round_id = _crown_round(actor, table, wallets, seed=run)
            took = _settle_timed(round_id, breakdown if run >= 2 else None)
            if run < 2:
                continue  # warm-up: imports, first queries
            timings.append(took)
            legs = _legs(round_id)
            baselines.append(plain_rows_insert(legs))
        ok &= _report("Crown 7 boxes x 3 bets", timings, baselines, legs, 0.050, breakdown,
                      CROWN_RUNS)  # fmt: skip

        for boxes, per_box, runs in BIG_SHAPES:
            doc = {
                **crown.rules.to_json(), "name": f"bench-{boxes}x{per_box}", "boxes": boxes,
                "bets_per_box": per_box,
            }  # fmt: skip
            table = _table(actor, f"bench-{boxes}x{per_box}", doc, crown.payouts)
            wallets = _players(actor, max(per_box, boxes))
            timings, baselines, breakdown = [], [], Breakdown()
            for run in range(runs):
                started = time.perf_counter()
                round_id = _big_round_build(actor, table, wallets, boxes, per_box, seed=run)
                print(f"built a {boxes}x{per_box} round in {time.perf_counter() - started:.1f}s")
                if profile and run == 0:
                    import cProfile
                    import pstats

                    profiler = cProfile.Profile()
                    profiler.enable()
                    took = _settle_timed(round_id)
                    profiler.disable()
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
                else:
                    took = _settle_timed(round_id, breakdown)
                timings.append(took)
                legs = _legs(round_id)
                baselines.append(plain_rows_insert(legs))
            runs_timed = runs - (1 if profile else 0)
            ok &= _report(f"{boxes * per_box:,} bets ({boxes} boxes x {per_box} bets)", timings,
                          baselines, legs, 1.0, breakdown, max(runs_timed, 1))  # fmt: skip
        return 0 if ok else 1
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
