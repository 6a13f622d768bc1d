"""Game maths: dealer distributions against independent enumeration and published tables,
the player DP against a published blackjack table, and the presets' exact figures."""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pytest

from tables.engine import get_preset
from tables.engine.gamemath import (
    HIT,
    Game,
    _Context,
    _sub,
    _vec,
    dealer_distribution,
    game_maths,
    natural_probability,
    preset_maths,
    prize_per_unit,
    shoe_counts,
    super_suit_probability,
)
from tables.engine.rules import PayoutSchedule, RuleSet

maths = preset_maths  # cached per process


def _blackjack(decks: int, h17: bool) -> RuleSet:
    return RuleSet(
        name="bj",
        decks=decks,
        dealer_rule="hit_soft_17" if h17 else "stand_soft_17",
        double_on_cards=(2,),
        double_then="stand",
        split_max_hands=4,
        split_aces_max_hands=2,
        tie_rule="push",
    )


def _kernel(decks: int, h17: bool, up: int) -> dict[str, float]:
    return dealer_distribution(_blackjack(decks, h17), up)


# ---------------------------------------------------------------------- natural
def test_natural_off_the_top_of_8_spanish_decks_is_16_383():
    rules = get_preset("crown").rules
    assert natural_probability(shoe_counts(rules)) == Fraction(16, 383)
    d = dealer_distribution(rules)
    assert d["pontoon"] == pytest.approx(16 / 383, abs=1e-15)
    assert sum(d.values()) == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------------- brute force
def _brute_dealer(deck_ranks: list[int], up_rank: int | None, h17: bool):
    """Independent exhaustive enumeration over *ranks* (13 of them, not values) with exact
    fractions: every sequence of cards the dealer can draw, weighted by its probability."""
    counts = [0] * 14
    for rk in deck_ranks:
        counts[rk] += 1
    out: dict[str, Fraction] = {}

    def val(rk):
        return min(rk, 10)

    def add(key, p):
        out[key] = out.get(key, Fraction(0)) + p

    def rec(hand, p):
        hard = sum(val(x) for x in hand)
        soft = 1 in hand and hard + 10 <= 21
        best = hard + 10 if soft else hard
        if len(hand) == 2 and sorted(val(x) for x in hand) == [1, 10]:
            add("pontoon", p)
            return
        if hard > 21:
            add("bust", p)
            return
        if len(hand) >= 2 and (best > 17 or (best == 17 and not (soft and h17))):
            add(str(best), p)
            return
        left = sum(counts)
        for rk in range(1, 14):
            if counts[rk]:
                q = p * Fraction(counts[rk], left)
                counts[rk] -= 1
                rec([*hand, rk], q)
                counts[rk] += 1

    if up_rank is None:
        rec([], Fraction(1))
    else:
        counts[up_rank] -= 1
        rec([up_rank], Fraction(1))
    return out


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("up", [1, 6, 10])
def test_dealer_kernel_matches_brute_force_enumeration_one_deck(up, h17):
    deck = [rk for rk in range(1, 14) for _ in range(4)]
    exact = _brute_dealer(deck, 10 if up == 10 else up, h17)
    got = _kernel(1, h17, up)
    for key, p in exact.items():
        assert got[key] == pytest.approx(float(p), abs=1e-12), key
    assert sum(exact.values()) == 1


def test_dealer_kernel_matches_brute_force_from_a_fresh_small_shoe():
    """No up card, a shoe small enough to enumerate every deal (a 4-rank mini deck)."""
    deck = [1] * 4 + [5] * 4 + [8] * 4 + [10] * 8
    exact = _brute_dealer(deck, None, h17=True)
    counts = np.zeros(10, dtype=np.int64)
    for rk in deck:
        counts[min(rk, 10) - 1] += 1
    from tables.engine._jit import dealer_dist

    d = dealer_dist(counts, 0, 17, True, 0, False, False)
    assert d[23] == pytest.approx(float(exact["pontoon"]), abs=1e-12)
    assert d[22] == pytest.approx(float(exact["bust"]), abs=1e-12)
    for t in range(17, 22):
        assert d[t] == pytest.approx(float(exact.get(str(t), 0)), abs=1e-12)


# ---------------------------------------------------------------------- published tables
# Wizard of Odds, Blackjack Appendix 2B (dealer probabilities before the peek), S17:
# up card -> 17, 18, 19, 20, 21, BJ, bust
WOO_1D_S17 = {
    1: (0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.313726, 0.11654),
    2: (0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0, 0.352973),
    3: (0.130313, 0.130946, 0.123761, 0.123345, 0.116047, 0, 0.375588),
    4: (0.130973, 0.114163, 0.120679, 0.116286, 0.115096, 0, 0.402803),
    5: (0.119687, 0.123483, 0.116909, 0.104694, 0.106321, 0, 0.428905),
    6: (0.166948, 0.106454, 0.107192, 0.100705, 0.0978785, 0, 0.420823),
    7: (0.372345, 0.138583, 0.0773344, 0.0788967, 0.072987, 0, 0.259854),
    8: (0.130857, 0.362989, 0.129445, 0.0682898, 0.0697914, 0, 0.238627),
    9: (0.121886, 0.103921, 0.357391, 0.12225, 0.0611088, 0, 0.233442),
    10: (0.114418, 0.112879, 0.114662, 0.328879, 0.0364661, 0.0784314, 0.214264),
}
WOO_2D_S17 = {
    1: (0.128467, 0.13089, 0.130179, 0.131159, 0.0527542, 0.31068, 0.115872),
    2: (0.139367, 0.133348, 0.130744, 0.123997, 0.119254, 0, 0.353291),
}


@pytest.mark.parametrize(
    "decks,up,row",
    [(1, up, row) for up, row in WOO_1D_S17.items()]
    + [(2, up, row) for up, row in WOO_2D_S17.items()],
)
def test_dealer_matches_published_table_to_six_decimals(decks, up, row):
    got = _kernel(decks, False, up)
    keys = ("17", "18", "19", "20", "21", "pontoon", "bust")
    for key, want in zip(keys, row, strict=True):
        assert abs(got[key] - want) < 6e-7, (key, got[key], want)


def _infinite_dealer(h17: bool) -> dict[str, Fraction]:
    """Infinite-deck dealer outcome from a fresh shoe, exact (independent recursion)."""
    probs = {v: Fraction(1, 13) for v in range(1, 10)} | {10: Fraction(4, 13)}
    out: dict[str, Fraction] = {}

    @functools.cache
    def rec(hard, ace, n, first):
        res: dict[str, Fraction] = {}
        for v, p in probs.items():
            nh, na, nn = hard + v, ace or v == 1, n + 1
            f = first or v
            if nn == 2 and {f, v} == {1, 10}:
                key = "pontoon"
            elif nh > 21:
                key = "bust"
            else:
                soft = na and nh <= 11
                tot = nh + 10 if soft else nh
                if nn >= 2 and (tot > 17 or (tot == 17 and not (soft and h17))):
                    key = str(tot)
                else:
                    for k, q in rec(nh, na, nn, f).items():
                        res[k] = res.get(k, Fraction(0)) + p * q
                    continue
            res[key] = res.get(key, Fraction(0)) + p
        return res

    out = rec(0, False, 0, 0)
    return out


@pytest.mark.parametrize("h17", [False, True])
def test_dealer_kernel_converges_to_the_infinite_deck_distribution(h17):
    exact = _infinite_dealer(h17)
    got = _kernel(200_000, h17, 0)
    for key, p in exact.items():
        assert abs(got[key] - float(p)) < 2e-6, key


# ---------------------------------------------------------------------- the player DP
def test_player_dp_matches_published_composition_dependent_values():
    """Wizard of Odds Blackjack Appendix 9 (6 decks, H17, no hole card, dealer BJ takes all):
    stand / hit / double of a two-card hand against an ace, to six decimals."""
    rules = RuleSet(
        name="enhc",
        decks=6,
        dealer_rule="hit_soft_17",
        double_on_cards=(2,),
        double_then="stand",
        split_max_hands=4,
        split_aces_max_hands=2,
        tie_rule="push",
    )
    g = Game(rules, PayoutSchedule(pontoon=(3, 2)))
    ctx = _Context(g, 1, _sub(g.counts, _vec(1)))
    s = ctx.main
    published = {
        (1, 2): (-0.722356, -0.379910, -1.024099),
        (3, 2): (-0.721887, -0.529734, -1.443774),
        (1, 6): (-0.665166, -0.463296, -0.999484),
        (6, 5): (-0.720879, -0.235772, -0.535879),
    }
    for hand, (stand, hit, dbl) in published.items():
        cnt = _vec(*hand)
        _, tot, _ = s.facts(cnt, 0, 0)
        assert s._stand(cnt, 2, tot, 0, 1, 1) == pytest.approx(stand, abs=1e-6)
        assert s.draw(cnt, 0, 0, 1, 0, 1) == pytest.approx(hit, abs=1e-6)
        assert s.draw(cnt, 0, 1, 2, 0, 1) == pytest.approx(dbl, abs=1e-6)


def test_player_dp_whole_game_matches_published_house_edge():
    """Same appendix: the game's expected return is -0.72705 %. Splits are exact here for the
    split strategy played (re-split to four hands); the appendix's split strategy may differ in
    detail, so agreement to 0.0005 % is required (it is 0.0001 %)."""
    rules = RuleSet(
        name="enhc",
        decks=6,
        dealer_rule="hit_soft_17",
        double_on_cards=(2,),
        double_then="stand",
        split_max_hands=4,
        split_aces_max_hands=2,
        tie_rule="push",
    )
    m = game_maths(rules, PayoutSchedule(pontoon=(3, 2)))
    assert -m.house_edge == pytest.approx(-0.72705, abs=0.0005)


# ---------------------------------------------------------------------- presets
@pytest.mark.parametrize("name", ["online_8deck", "online_2deck", "traditional", "british_casino"])
def test_preset_maths_is_complete(name):
    # its time (<= 30 s) is measured by bench/engine.py, not asserted here
    m = maths(name)
    assert m.strategy and m.table and m.root_table
    assert -20 < m.house_edge < 20


def test_crown_maths_within_the_published_range():
    m = maths("crown")
    # Australian Pontoon, Crown-like rules: about 0.3-0.4 % (published); never tuned
    assert 0.25 < m.house_edge < 0.5
    sb = m.extras["super_bonus"]
    assert sb["probability_per_hand"] >= 0
    assert sb["envy_expected_per_other_box_if_7_7_hit"] == pytest.approx(
        sb["probability_per_hand_if_7_7_hit_against_7"] * 5_000
    )
    assert m.strategy["A"]["A,T"] == "stand"


def test_online_8deck_near_the_published_figure():
    m = maths("online_8deck")
    assert m.house_edge == pytest.approx(0.38, abs=0.1)  # Wizard of Odds 0.38 %


def test_dealer_command_keys_per_preset():
    for name in ("crown", "british_casino", "online_8deck", "online_2deck", "traditional"):
        rules = get_preset(name).rules
        d = dealer_distribution(rules)
        assert sum(d.values()) == pytest.approx(1.0, abs=1e-12)
        assert set(d) >= {"17", "18", "19", "20", "21", "pontoon", "bust"}
        assert ("five_card" in d) == rules.dealer_five_card_trick


# ---------------------------------------------------------------------- Super Bonus by stake
def _crown_7_7_against_7(stake):
    """Hit and split EVs of an unsplit 7-7 against a dealer 7 at ``stake`` (crown, one up-card
    context only: the whole game takes tens of seconds)."""
    r, p = get_preset("crown")
    g = Game(r, p, stake)
    ctx = _Context(g, 7, _sub(g.counts, _vec(7)))
    cnt = _vec(7, 7)
    return ctx.main.ev(cnt, 0, 0, 1, 0, 1), ctx.split_ev(7)


def test_prize_per_unit_stake_follows_the_tiers():
    p = get_preset("crown").payouts
    assert prize_per_unit(p, None) == 0.0
    assert prize_per_unit(p, 499) == 0.0  # below every tier: no prize
    assert prize_per_unit(p, 500) == 200.0
    assert prize_per_unit(p, 2499) == pytest.approx(100_000 / 2499)
    assert prize_per_unit(p, 2500) == 200.0
    # three 7s of one suit from 8 spanish decks less the dealer's 7 (31 sevens, 7 of its suit)
    assert super_suit_probability(8) == pytest.approx((3 * 56 + 35) / 4495)


def test_a_large_prize_turns_splitting_7_7_against_7_into_hitting():
    (play0, act0), split0 = _crown_7_7_against_7(None)
    (play200, act200), split200 = _crown_7_7_against_7(500)  # 1,000.00 on 5.00: 200:1
    (play40, _), split40 = _crown_7_7_against_7(2499)  # 1,000.00 on 24.99: about 40:1
    assert act0 == HIT and split0 > play0  # without the prize: split
    assert split200 == pytest.approx(split0) and split40 == pytest.approx(split0)  # no prize
    assert act200 == HIT and play200 > split200  # 200:1: hit, chasing the prize
    assert split40 > play40 > play0  # 40:1 is worth something, not enough to stop splitting
    p7 = 29 / 381  # the third 7: 32 less the dealer's and the player's two, of 384 - 3
    gain = p7 * super_suit_probability(8) * (200 - 100_000 / 2499)
    assert play200 - play40 == pytest.approx(gain, rel=1e-9)


@pytest.mark.parametrize(
    ("raw", "minor"), [(None, None), ("5", 500), ("24.99", 2499), ("25.00", 2500)]
)
def test_stake_option_reads_an_amount_in_minor_units(raw, minor):
    from tables.management.commands._gamecli import stake_minor

    assert stake_minor({"stake": raw}) == minor


@pytest.mark.parametrize("raw", ["abc", "0", "-5", "1.001", "NaN", "inf"])
def test_stake_option_refuses_what_is_not_a_positive_amount(raw):
    from django.core.management.base import CommandError

    from tables.management.commands._gamecli import stake_minor

    with pytest.raises(CommandError, match="--stake"):
        stake_minor({"stake": raw})
