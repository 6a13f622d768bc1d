"""Monte-Carlo simulator: N rounds of a game played with the game maths' strategy.

The hot loop is a numba kernel (:mod:`._simkernel`) specialised to arrays; it reproduces the
engine's rules and is checked against the engine itself (``tests/engine/test_simulator.py``
plays the same shuffled shoes through both and compares every settled amount). One box, one
unit stake, per round; the shoe is shuffled lazily (an exact Fisher-Yates shuffle drawn card by
card) with numpy's generator seeded per chunk, so a run is reproducible from its seed whatever
the number of workers. Rounds are split into chunks played in parallel by a process pool.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import numpy as np

from . import _simkernel as K
from .cards import RANKS
from .gamemath import MAXH_RESPLIT, GameMaths, game_maths, hand_key, prize_per_unit
from .rules import PayoutSchedule, RuleSet

CHUNK = 250_000
STAT_NAMES = (
    "win",
    "lose",
    "push",
    "pontoon",
    "five_card_trick",
    "bust",
    "double",
    "split",
    "surrender",
    "rescue",
    "even_money",
    "dealer_bust",
    "dealer_pontoon",
    "super_bonus",
    "strategy_misses",
    "bonus_21",
)


@dataclass
class Compiled:
    """The game as arrays for the kernel (picklable, sent once to each worker)."""

    P: np.ndarray
    F: np.ndarray
    ladder: np.ndarray
    bonus: np.ndarray
    keys: np.ndarray
    vals: np.ndarray
    rkeys: np.ndarray
    rvals: np.ndarray
    resplit: np.ndarray
    shoe: np.ndarray

    def args(self) -> tuple:
        return (
            self.P,
            self.F,
            self.ladder,
            self.bonus,
            self.keys,
            self.vals,
            self.rkeys,
            self.rvals,
            self.resplit,
        )


def shoe_cards(rules: RuleSet) -> np.ndarray:
    """Card ids (``suit * 13 + rank - 1``) of a fresh shoe in canonical order."""
    one = [s * 13 + r for s in range(4) for r in range(13)]
    if rules.deck_kind == "spanish":
        one = [c for c in one if c % 13 != 9]
    return np.array(one * rules.decks, dtype=np.int64)


def compile_game(rules: RuleSet, payouts: PayoutSchedule, maths: GameMaths) -> Compiled:
    r, p = rules, payouts
    P = np.zeros(K.I_NPARAMS, dtype=np.int64)
    n_cards = (48 if r.deck_kind == "spanish" else 52) * r.decks
    P[K.I_SPANISH] = r.deck_kind == "spanish"
    P[K.I_DECKS] = r.decks
    P[K.I_FRESH] = r.whole_shoe_each_round
    P[K.I_CUT] = n_cards if P[K.I_FRESH] else n_cards * r.penetration_percent // 100
    P[K.I_DEALER_TWO] = r.dealer_cards_before_play == 2
    P[K.I_PEEK] = r.dealer_peek
    P[K.I_ST] = r.dealer_stand_total
    P[K.I_H17] = r.dealer_rule == "hit_soft_17"
    P[K.I_BANKER] = r.dealer_rule == "banker_choice"
    P[K.I_DLIMIT] = r.dealer_card_limit or 0
    P[K.I_DFCT] = r.dealer_five_card_trick
    P[K.I_PLIMIT] = r.player_card_limit or 0
    P[K.I_MIN_STAND] = r.min_stand_total
    P[K.I_STAND_HARD] = r.min_stand_total_kind == "hard"
    P[K.I_SOFT21_STOPS] = r.soft_21_stops
    P[K.I_FORCED4] = (
        -1 if r.forced_draw_four_cards_hard_max is None else (r.forced_draw_four_cards_hard_max)
    )
    P[K.I_BUY_TWIST] = r.player_actions == "buy_twist"
    P[K.I_DBL_MAX] = r.double_max_per_hand
    P[K.I_DBL_SEQ] = r.doubles_in_sequence
    P[K.I_DBL_STAND] = r.double_then == "stand"
    P[K.I_FIXED_ACES] = r.double_aces_count_one
    P[K.I_AUTO_DRAW] = r.doubled_auto_draw_below_hard or 0
    P[K.I_DAS] = r.double_after_split
    P[K.I_DBL_SPLIT_ACES] = r.double_split_aces
    P[K.I_RESCUE] = r.rescue
    P[K.I_SURRENDER] = r.surrender
    P[K.I_SUR_RANKS] = sum(1 << (RANKS.index(x) + 1) for x in r.surrender_dealer_ranks)
    P[K.I_SUR_VOID] = r.surrender_void_on_dealer_pontoon
    P[K.I_SPLIT_MAX] = r.split_max_hands
    P[K.I_SPLIT_RANK] = r.split_match == "rank"
    P[K.I_SPLIT_ONLY_ACES] = r.split_only_aces
    P[K.I_SPLIT_ACES] = r.split_aces
    P[K.I_SPLIT_ACES_MAX] = r.split_aces_max_hands
    P[K.I_SPLIT_ACES_ONE] = r.split_aces_one_card
    P[K.I_SPLIT_PONTOON] = {"never": 0, "split_aces": 1, "any": 2}[r.split_pontoon]
    P[K.I_INSURANCE] = r.insurance
    P[K.I_EVEN_MONEY] = r.even_money
    P[K.I_PONTOON_AT_ONCE] = r.pontoon_decided_at_once
    P[K.I_PONTOON_SECOND_ONLY] = r.pontoon_waits_for_second_card_only
    P[K.I_PFCT] = r.player_five_card_trick
    P[K.I_FCT_AT_ONCE] = r.five_card_trick_decided_at_once
    P[K.I_21_AT_ONCE] = r.twenty_one_decided_at_once
    P[K.I_P21_WINS] = r.player_21_always_wins
    P[K.I_OBBO] = r.dealer_pontoon_rule == "obbo"
    P[K.I_PUSH] = r.tie_rule == "push"
    P[K.I_BONUS_DOUBLED] = p.bonus_odds_on_doubled
    P[K.I_SUPER_RANK] = (RANKS.index(p.super_bonus_dealer_rank) + 1) if p.super_bonus_tiers else 0
    F = np.zeros(K.F_NPARAMS)
    F[K.F_WIN] = p.win[0] / p.win[1]
    F[K.F_PONTOON] = p.pontoon[0] / p.pontoon[1]
    F[K.F_FCT] = p.five_card_trick[0] / p.five_card_trick[1]
    F[K.F_EVEN] = p.even_money[0] / p.even_money[1]
    F[K.F_SUR] = r.surrender_return[0] / r.surrender_return[1]
    F[K.F_SUPER] = prize_per_unit(p, maths.stake)  # the stake the strategy was computed for
    ladder = np.full(K.MAXC + 1, -1.0)
    for n in range(K.MAXC + 1):
        for count, o in p.twenty_one_by_cards:
            if count <= n:
                ladder[n] = o[0] / o[1]
    bonus = np.full((2, 3), -1.0)
    for pat, klass, o in p.three_card_bonuses:
        bonus[("678", "777").index(pat), ("mixed", "suited", "spades").index(klass)] = o[0] / o[1]
    items = sorted(maths.table.items())
    keys = np.array([k for k, _ in items], dtype=np.int64)
    vals = np.array([v for _, v in items], dtype=np.int64)
    root = dict(maths.root_table)
    for up, take in maths.even_money.items():
        root[-1 - up] = 1 if take else 0
    ritems = sorted(root.items())
    rkeys = np.array([k for k, _ in ritems], dtype=np.int64)
    rvals = np.array([v for _, v in ritems], dtype=np.int64)
    resplit = np.zeros(K.RESPLIT_SIZE, dtype=np.int64)
    for (up, v, h, k, played, first), yes in maths.resplit.items():
        if h <= K.MAXH and k <= K.MAXH + 1 and played <= K.MAXH and yes:
            resplit[K.resplit_index(up, v, h, k, played, first)] = 1
    return Compiled(P, F, ladder, bonus, keys, vals, rkeys, rvals, resplit, shoe_cards(r))


assert MAXH_RESPLIT <= K.MAXH
assert hand_key  # shared encoding (see gamemath.state_key / _simkernel._state_key)

# ---------------------------------------------------------------------------- workers
_COMPILED: Compiled | None = None


def _init_worker(compiled: Compiled) -> None:
    global _COMPILED
    _COMPILED = compiled
    stats = np.zeros(K.S_NSTATS, dtype=np.int64)
    K.run_block(0, 1, compiled.shoe.copy(), *compiled.args(), stats)  # JIT load / warm-up


def _chunk_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2**31 - 1)


def _run_chunk(job: tuple[int, int, int]) -> tuple[int, int, float, float, np.ndarray, float]:
    index, seed, n = job
    c = _COMPILED
    assert c is not None
    stats = np.zeros(K.S_NSTATS, dtype=np.int64)
    t0 = time.perf_counter()
    s, s2 = K.run_block(_chunk_seed(seed, index), n, c.shoe.copy(), *c.args(), stats)
    return index, n, s, s2, stats, time.perf_counter() - t0


@dataclass
class SimResult:
    variant: str
    hands: int
    house_edge: float  # percent
    standard_error: float  # percent
    hands_per_second: float
    hands_per_second_per_core: float
    workers: int
    seed: int
    seconds: float
    frequencies: dict[str, float]
    counts: dict[str, int]
    stake: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "hands": self.hands,
            "house_edge": self.house_edge,
            "standard_error": self.standard_error,
            "hands_per_second": self.hands_per_second,
            "hands_per_second_per_core": self.hands_per_second_per_core,
            "workers": self.workers,
            "seed": self.seed,
            "seconds": self.seconds,
            "frequencies": self.frequencies,
            "counts": self.counts,
            "stake": self.stake,
            "unit": "one box, one unit stake per round; the Super Bonus prize is paid as a "
            "multiple of the stake when a stake is given, else only counted",
        }


def simulate(
    rules: RuleSet,
    payouts: PayoutSchedule,
    hands: int,
    seed: int = 1,
    workers: int = 1,
    maths: GameMaths | None = None,
    progress: bool = False,
    variant: str | None = None,
    chunk: int = CHUNK,
    stake: int | None = None,
) -> SimResult:
    """Play ``hands`` rounds with the maths' strategy; house edge with its standard error.
    ``stake`` (minor units, when ``maths`` is not given): the Super Bonus prize is valued at it
    in the strategy and paid at it; a given ``maths`` brings its own stake."""
    maths = maths or game_maths(rules, payouts, variant, stake)
    compiled = compile_game(rules, payouts, maths)
    jobs = []
    left, i = hands, 0
    while left > 0:
        n = min(chunk, left)
        jobs.append((i, seed, n))
        left -= n
        i += 1
    workers = max(1, min(workers, len(jobs)))
    results: list[tuple] = []
    prog = None
    task = None
    if progress:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        prog = Progress(
            TextColumn(f"simulate {variant or rules.name}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            transient=True,
        )
        prog.start()
        task = prog.add_task("hands", total=hands)
    busy = 0.0
    try:
        if workers == 1:
            _init_worker(compiled)
            t0 = time.perf_counter()
            for job in jobs:
                res = _run_chunk(job)
                results.append(res)
                busy += res[5]
                if prog is not None:
                    prog.update(task, advance=res[1])
            wall = time.perf_counter() - t0
        else:
            ctx = get_context("fork" if os.name == "posix" else "spawn")
            with ctx.Pool(workers, initializer=_init_worker, initargs=(compiled,)) as pool:
                # warm every worker before the clock starts
                pool.map(_noop, range(workers))
                t0 = time.perf_counter()
                for res in pool.imap_unordered(_run_chunk, jobs):
                    results.append(res)
                    busy += res[5]
                    if prog is not None:
                        prog.update(task, advance=res[1])
                wall = time.perf_counter() - t0
    finally:
        if prog is not None:
            prog.stop()
    results.sort(key=lambda x: x[0])
    n = sum(x[1] for x in results)
    s = sum(x[2] for x in results)
    s2 = sum(x[3] for x in results)
    stats = np.sum([x[4] for x in results], axis=0)
    mean = s / n
    var = max(s2 / n - mean * mean, 0.0)
    se = math.sqrt(var / n)
    counts = {name: int(stats[k]) for k, name in enumerate(STAT_NAMES)}
    freqs = {name: counts[name] / n for name in STAT_NAMES}
    return SimResult(
        variant=variant or rules.name,
        hands=n,
        house_edge=-100.0 * mean,
        standard_error=100.0 * se,
        hands_per_second=n / wall if wall > 0 else float("inf"),
        hands_per_second_per_core=n / busy if busy > 0 else float("inf"),
        workers=workers,
        seed=seed,
        seconds=wall,
        frequencies=freqs,
        counts=counts,
        stake=maths.stake,
    )


def _noop(_: int) -> None:
    return None


def play_given_shoe(compiled: Compiled, order: list[int] | np.ndarray, max_rounds: int = 10_000):
    """Rounds played from a given shoe order (no shuffling): per-round nets and stats."""
    out = np.zeros(max_rounds)
    stats = np.zeros(K.S_NSTATS, dtype=np.int64)
    k = K.run_given(np.array(order, dtype=np.int64), *compiled.args(), stats, out)
    return list(out[:k]), stats


# ---------------------------------------------------------------------------- engine oracle
def _code(card_id: int) -> str:
    return RANKS[card_id % 13] + "SHDC"[card_id // 13]


def engine_play_given_shoe(
    rules: RuleSet,
    payouts: PayoutSchedule,
    maths: GameMaths,
    order: list[int] | np.ndarray,
    stake: int = 1000,
    max_rounds: int = 10_000,
) -> tuple[list[float], list[dict[str, Any]]]:
    """The same rounds as :func:`play_given_shoe`, played through the engine itself
    (``round.py`` + ``settlement.py``) with the same strategy tables: per-round nets in units of
    the stake (prizes excluded) and per-round facts (events, settlement lines)."""
    from .events import (
        BetPlaced,
        BettingClosed,
        CardDealt,
        DealerDecision,
        Decision,
        EvenMoneyTaken,
        InsuranceDeclined,
        StakePlaced,
    )
    from .gamemath import ACTION_NAMES, PLAY, RESCUE, SPLIT, root_key, state_key
    from .round import TableLimits, new_round
    from .settlement import settle
    from .state import TurnKind

    r = rules
    codes = [_code(int(c)) for c in order]
    n_cards = len(codes)
    cut = n_cards if r.whole_shoe_each_round else n_cards * r.penetration_percent // 100
    obbo = r.dealer_pontoon_rule == "obbo"
    one_card = r.dealer_cards_before_play == 1
    pos = 0
    nets: list[float] = []
    facts: list[dict[str, Any]] = []

    def value(card) -> int:
        return 10 if card.rank >= 10 else card.rank

    while True:
        state = new_round(r, payouts, TableLimits(min_bet=1, min_unit=1))
        first_stake = 0 if r.staking_after_first_card else stake
        state.apply_in_place(BetPlaced("b1", 1, first_stake, "p1"))
        state.apply_in_place(BettingClosed())
        actions: list[str] = []
        while state.phase != "complete":
            if state.next_card_target() is not None:
                state.apply_in_place(CardDealt(codes[pos]))
                pos += 1
                continue
            turn = state.turn()
            assert turn is not None  # a round not complete and wanting no card waits on someone
            kind = turn.kind
            if kind == TurnKind.STAKING:
                state.apply_in_place(StakePlaced("b1", stake))
                continue
            if kind == TurnKind.INSURANCE:
                legal = state.legal_actions("b1")
                up = value(state.dealer[0])
                if "even_money" in legal and maths.even_money.get(up):
                    state.apply_in_place(EvenMoneyTaken("b1"))
                else:
                    state.apply_in_place(InsuranceDeclined("b1"))
                continue
            if kind == TurnKind.DEALER:
                tot = state.dealer_value().total
                state.apply_in_place(
                    DealerDecision("hit" if tot < r.dealer_stand_total else "stand")
                )
                continue
            b, i = turn.box, turn.hand
            box = state.boxes[b]
            h = box.hands[i]
            legal = state.legal_actions()
            cnt = [0] * 10
            for c in h.cards:
                cnt[value(c) - 1] += 1
            cnt_t = tuple(cnt)
            up = value(state.dealer[0]) if one_card else 0
            split = any(x.split for x in box.hands)
            pair = value(box.hands[0].cards[0]) if split else 0
            first = 0 if (obbo and i > 0) else 1
            a12 = 0
            if r.double_aces_count_one:
                a12 = sum(1 for c in h.cards[:2] if c.rank == 1)
            m = 1 + h.stakes["b1"][1] // stake
            n = len(h.cards)
            act = None
            if h.rescue_open:
                code = maths.table.get(
                    state_key(up, pair, first, cnt_t, h.doubles, a12, int(h.twisted), m)
                )
                act = "rescue" if code == RESCUE else "stand"
            elif i == 0 and len(box.hands) == 1 and not h.acted and n == 2:
                avail = (1 if "split" in legal else 0) | (2 if "surrender" in legal else 0)
                code = maths.root_table[root_key(up, cnt_t, avail)]
                if code != PLAY:
                    act = ACTION_NAMES[code]
            elif "split" in legal:
                v = value(h.cards[0])
                played = sum(  # earlier split hands dealt a pair card and played it
                    1
                    for x in box.hands[:i]
                    if value(x.cards[1]) == v
                    and (r.split_match != "rank" or x.cards[1].rank == x.cards[0].rank)
                )
                if maths.resplit.get((up, v, len(box.hands), len(box.hands) - i, played, first)):
                    act = "split"
            if act is None:
                code = maths.table[
                    state_key(up, pair, first, cnt_t, h.doubles, a12, int(h.twisted), m)
                ]
                assert code != SPLIT
                act = ACTION_NAMES[code]
            if act not in legal:
                raise AssertionError(f"strategy chose {act!r}; engine allows {legal}")
            amount = stake if act in ("double", "buy", "split") else None
            actions.append(act)
            state.apply_in_place(Decision(b, i, act, amount))
        st = settle(state)
        net = sum(x.stake_returned + x.winnings - x.stake for x in st.lines) / stake
        nets.append(net)
        facts.append(
            {
                "actions": actions,
                "dealer": [c.code for c in state.dealer],
                "hands": [[c.code for c in h.cards] for h in state.boxes[1].hands],
                "bonus": sum(x.bonus for x in st.lines),
                "lines": [
                    (x.result, x.odds_kind, x.stake, x.stake_returned + x.winnings)
                    for x in st.lines
                ],
            }
        )
        if r.whole_shoe_each_round or pos >= cut or len(nets) >= max_rounds:
            break
    return nets, facts
