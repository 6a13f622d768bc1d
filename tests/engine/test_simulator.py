"""Simulator: equivalence with the engine on the same shoes, agreement with the game maths,
reproducibility."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random

import numpy as np
import pytest

from tables.engine import get_preset
from tables.engine.gamemath import SPLIT, _vec, game_maths, preset_maths, root_key
from tables.engine.simulator import (
    STAT_NAMES,
    compile_game,
    engine_play_given_shoe,
    play_given_shoe,
    shoe_cards,
    simulate,
)

PRESETS = ["crown", "british_casino", "online_8deck", "online_2deck", "traditional"]
maths = preset_maths  # cached per process


def _clumpy(order: list[int], rng: random.Random) -> list[int]:
    """The same cards, reordered so that equal ranks come in runs: pairs, re-splits, 7-7-7,
    five-card hands and dealer Pontoons become frequent (coverage of the rare paths)."""
    by_rank: dict[int, list[int]] = {}
    for c in order:
        by_rank.setdefault(c % 13, []).append(c)
    out: list[int] = []
    ranks = list(by_rank)
    while ranks:
        rk = rng.choice(ranks)
        take = rng.randint(1, 4)
        out.extend(by_rank[rk][:take])
        del by_rank[rk][:take]
        if not by_rank[rk]:
            ranks.remove(rk)
    return out


@pytest.mark.parametrize("name", PRESETS)
def test_simulator_settles_exactly_like_the_engine(name):
    """The numba kernel and the engine (round.py + settlement.py) play the same shuffled shoes
    with the same strategy: every round's settled amount must be identical."""
    r, p = get_preset(name)
    m = maths(name)
    c = compile_game(r, p, m)
    rng = random.Random(20260)
    fresh = r.whole_shoe_each_round
    totals = np.zeros(len(STAT_NAMES), dtype=np.int64)
    rounds = 0
    for k in range(500 if fresh else 12):
        order = [int(x) for x in shoe_cards(r)]
        rng.shuffle(order)
        if k % 2:
            order = _clumpy(order, rng)
        sim, stats = play_given_shoe(c, order)
        eng, facts = engine_play_given_shoe(r, p, m, order)
        assert len(sim) == len(eng)
        for j, (x, y) in enumerate(zip(sim, eng, strict=True)):
            assert x == pytest.approx(y, abs=1e-9), (k, j, facts[j])
        totals += stats
        rounds += len(sim)
    counts = dict(zip(STAT_NAMES, totals.tolist(), strict=True))
    assert counts["strategy_misses"] == 0
    assert rounds >= 300
    # the comparison covered the paths this game has
    assert counts["split"] > 0 and counts["bust"] > 0 and counts["pontoon"] > 0
    if r.double_max_per_hand:
        assert counts["double"] > 0
    if r.rescue:
        assert counts["rescue"] > 0
    if r.player_five_card_trick:
        assert counts["five_card_trick"] > 0


@pytest.mark.parametrize("name", ["british_casino", "online_2deck"])
def test_resplits_by_pairs_played_are_looked_up_alike_in_kernel_and_engine(name):
    """Re-split decisions are keyed by the pair cards earlier split hands were dealt and played
    (the composition). The presets' tables happen not to turn on it where play reaches, so two
    made-up tables that do (re-split only after an odd / an even number of pairs played) are
    played through the kernel and the engine on clumpy shoes: the same nets, and different
    between the tables (the key is read). Every pair is split at the root, so that online_2deck
    (which splits ten-values by rank only, J-J but not J-Q) re-splits ten-values too."""
    r, p = get_preset(name)
    base = maths(name)
    rng = random.Random(7)
    orders = []
    for rank in range(13):  # every card of one rank first: pair after pair after pair
        order = [int(x) for x in shoe_cards(r)]
        rng.shuffle(order)
        orders.append(sorted(order, key=lambda x, rank=rank: x % 13 != rank))
    for a, b in itertools.permutations(range(9, 13), 2):  # ten-values of two ranks: the box
        order = [int(x) for x in shoe_cards(r)]  # a-a, dealer a-a (or a), then b, a, b, a ...
        rng.shuffle(order)
        aa = [x for x in order if x % 13 == a]
        bb = [x for x in order if x % 13 == b]
        head = aa[:4] + [y for pair in zip(bb, aa[4:], strict=False) for y in pair]
        orders.append(head + [x for x in order if x not in head])
    for _ in range(8):
        order = [int(x) for x in shoe_cards(r)]
        rng.shuffle(order)
        orders.append(_clumpy(order, rng))
    split_every_pair = dict(base.root_table)
    for up in range(11):
        for v in range(1, 11):
            for avail in (1, 3):
                key = root_key(up, _vec(v, v), avail)
                if key in split_every_pair:
                    split_every_pair[key] = SPLIT
    totals = []
    for parity in (0, 1):
        table = {key: key[4] % 2 == parity for key in base.resplit}
        m = dataclasses.replace(base, resplit=table, root_table=split_every_pair)
        c = compile_game(r, p, m)
        total = 0.0
        splits = 0
        for order in orders:
            sim, stats = play_given_shoe(c, order, max_rounds=2)
            eng, facts = engine_play_given_shoe(r, p, m, order, max_rounds=2)
            assert sim == pytest.approx(eng, abs=1e-9)
            assert stats[STAT_NAMES.index("strategy_misses")] == 0
            total += sum(sim)
            splits += sum(f["actions"].count("split") > 1 for f in facts)
        assert splits > 0  # re-splits happened
        totals.append(total)
    assert totals[0] != totals[1]


def test_super_bonus_and_bonus_ladder_settle_like_the_engine():
    """A crown shoe stacked for 7-7-7 against a dealer 7 and a five-card 21."""
    r, p = get_preset("crown")
    m = maths("crown")
    c = compile_game(r, p, m)
    order = [int(x) for x in shoe_cards(r)]
    code = {f"{'A23456789TJQK'[x % 13]}{'SHDC'[x // 13]}": x for x in order}
    stacked = ["7S", "7H", "7S", "7S"]  # box 7S, dealer 7H, box 7S, hit -> 7S (if hit)
    rest = list(order)
    for s in stacked:
        rest.remove(code[s])
    seq = [code[s] for s in stacked] + rest
    sim, stats = play_given_shoe(c, seq, max_rounds=1)
    eng, facts = engine_play_given_shoe(r, p, m, seq, max_rounds=1)
    assert sim == pytest.approx(eng)
    super_count = stats[STAT_NAMES.index("super_bonus")]
    assert (super_count == 1) == (facts[0]["bonus"] > 0)


@pytest.mark.parametrize("name", PRESETS)
def test_simulation_agrees_with_the_maths(name):
    """200k hands: within 4 standard errors (about 1 % of stake); the 20M-hand 3-SE check
    is the benchmark's long run (bench/engine.py --long)."""
    r, p = get_preset(name)
    m = maths(name)
    res = simulate(r, p, 200_000, seed=11, workers=1, maths=m, variant=name)
    assert res.counts["strategy_misses"] == 0
    assert abs(res.house_edge - m.house_edge) < 4 * res.standard_error, (
        res.house_edge,
        m.house_edge,
        res.standard_error,
    )
    assert res.hands_per_second_per_core > 100_000


def test_simulation_is_reproducible_whatever_the_workers():
    r, p = get_preset("online_2deck")
    m = maths("online_2deck")
    a = simulate(r, p, 60_000, seed=5, workers=1, maths=m, chunk=20_000)
    b = simulate(r, p, 60_000, seed=5, workers=2, maths=m, chunk=20_000)
    c = simulate(r, p, 60_000, seed=6, workers=1, maths=m, chunk=20_000)
    assert a.house_edge == pytest.approx(b.house_edge, abs=1e-12)
    assert a.counts == b.counts
    assert a.house_edge != c.house_edge


@functools.cache
def _crown_at(stake: int):
    r, p = get_preset("crown")
    return game_maths(r, p, "crown", stake)


def test_the_super_bonus_at_a_stake_is_chased_and_paid_like_the_engine():
    """At 5.00 the 1,000.00 prize is 200:1: the strategy hits 7-7 against a 7, and the kernel
    pays 3:1 (7-7-7 spades) plus 200 stakes where the engine pays the odds plus the prize."""
    r, p = get_preset("crown")
    m = _crown_at(500)
    c = compile_game(r, p, m)
    order = [int(x) for x in shoe_cards(r)]
    code = {f"{'A23456789TJQK'[x % 13]}{'SHDC'[x // 13]}": x for x in order}
    stacked = ["7S", "7H", "7S", "7S"]
    rest = list(order)
    for s in stacked:
        rest.remove(code[s])
    seq = [code[s] for s in stacked] + rest
    sim, stats = play_given_shoe(c, seq, max_rounds=1)
    eng, facts = engine_play_given_shoe(r, p, m, seq, stake=500, max_rounds=1)
    assert facts[0]["actions"] == ["hit"]
    assert stats[STAT_NAMES.index("super_bonus")] == 1
    assert facts[0]["bonus"] == 100_000
    assert sim[0] == pytest.approx(eng[0] + 100_000 / 500) == pytest.approx(3 + 200)


@pytest.mark.parametrize("stake", [500, 2500])
def test_simulation_agrees_with_the_maths_per_super_bonus_tier(stake):
    """Each tier at its lowest stake (200:1): the stake-aware strategy, prize paid."""
    r, p = get_preset("crown")
    m = _crown_at(stake)
    res = simulate(r, p, 200_000, seed=stake, workers=1, maths=m, variant="crown")
    assert res.stake == stake and res.counts["strategy_misses"] == 0
    assert abs(res.house_edge - m.house_edge) < 4 * res.standard_error
