"""Split maths against a brute-force enumeration of a whole split on a tiny shoe.

The brute force is independent of the DP: it deals the cards in the engine's order (each split
hand gets its second card and is played out before the next; a re-split pair card starts a new
hand after the current one; the dealer draws last, from whatever is left), totals and settles
the hands itself, and sums over every card sequence. Played with the split strategy the maths
computed (its decision table and its re-split table), it must give the maths' split EV exactly;
played with the best decision at every point, every card seen, it shows what reacting to the
other hands' cards would add (the maths does not: see ``tables/engine/_splitmath.py``)."""

from __future__ import annotations

import itertools

import pytest

from tables.engine._handdp import DOUBLE, HIT, STAND, Game
from tables.engine._splitmath import _Context
from tables.engine.rules import PayoutSchedule, RuleSet

# (up card, the tiny shoe with the up card taken out: values 1..10, the pair of 8s among them),
# each big enough never to run out whatever the play (the brute force checks it)
SHOES = {
    "obbo_three_hands": (9, {1: 1, 2: 1, 3: 1, 8: 5, 9: 1, 10: 5}),
    "unlimited_takes_all": (6, {1: 1, 2: 1, 8: 5, 9: 1, 10: 6}),
}
RULES = {
    # Crown-like: split to three hands, push ties, OBBO (the first hand's original stake is
    # lost to a dealer Pontoon, the rest returned), one card on a double
    "obbo_three_hands": RuleSet(
        name="tiny",
        decks=1,
        split_max_hands=3,
        tie_rule="push",
        dealer_pontoon_rule="obbo",
        double_then="stand",
    ),
    # British-like: unlimited re-splits, ties to the dealer, a dealer Pontoon takes everything
    "unlimited_takes_all": RuleSet(
        name="tiny", decks=1, split_max_hands=0, tie_rule="dealer_wins", double_then="stand"
    ),
}


def _total(cards) -> tuple[int, bool]:
    hard = sum(cards)
    soft = 1 in cards and hard <= 11
    return (hard + 10 if soft else hard), soft


def _dealer(counts: dict[int, int], cards: list[int], p: float, out: dict[str, float]) -> None:
    """Every way the dealer (stands on all 17s) finishes from ``counts``."""
    tot, _ = _total(cards)
    if len(cards) == 2 and sorted(cards) == [1, 10]:
        out["pontoon"] = out.get("pontoon", 0.0) + p
    elif sum(cards) > 21:
        out["bust"] = out.get("bust", 0.0) + p
    elif tot >= 17:
        out[str(tot)] = out.get(str(tot), 0.0) + p
    else:
        n = sum(counts.values())
        assert n, "the tiny shoe ran out: the engine would reshuffle, the maths does not"
        for v, c in counts.items():
            if c:
                counts[v] -= 1
                _dealer(counts, [*cards, v], p * c / n, out)
                counts[v] += 1


def _settle(rules: RuleSet, hands, dealer: dict[str, float]) -> float:
    total = 0.0
    for i, (cards, stake) in enumerate(hands):
        tot, _ = _total(cards)
        if sum(cards) > 21:
            total -= stake
            continue
        for res, p in dealer.items():
            if res == "pontoon":
                if rules.dealer_pontoon_rule == "obbo":
                    total -= p if i == 0 else 0.0  # original stake of the first hand only
                else:
                    total -= p * stake
            elif res == "bust" or int(res) < tot:
                total += p * stake
            elif int(res) == tot and rules.tie_rule == "push":
                pass
            else:
                total -= p * stake
    return total


def _brute_split(
    rules: RuleSet, ctx: _Context, up: int, shoe, v: int, optimal: bool, table=None
) -> float:
    """EV of splitting the pair of v's, every card sequence enumerated: with the split
    strategy and the re-split ``table`` (default: the maths'), or the best play (``optimal``)."""
    policy = ctx.split_solver(v).memo
    table = ctx.resplit if table is None else table
    limit = rules.split_max_hands or 8

    memo: dict[tuple, float] = {}

    def play(counts, hands, i):
        """Expected settlement of every hand once hands[:i] are played ([cards, stake, dbl])."""
        key = (tuple(counts.values()), tuple((tuple(h[0]), h[1], h[2]) for h in hands), i)
        if key not in memo:
            memo[key] = _play(counts, hands, i)
        return memo[key]

    def _play(counts, hands, i):
        if i == len(hands):
            return _settle(rules, [(h[0], h[1]) for h in hands], _dealer_memo(counts))
        cards, stake, dbl = hands[i]
        tot, soft = _total(cards)
        n = sum(counts.values())

        def draw(new_stake, new_dbl):
            assert n, "the tiny shoe ran out"
            acc = 0.0
            for c, k in list(counts.items()):
                if k:
                    counts[c] -= 1
                    nh = [list(h) for h in hands]
                    nh[i] = [[*cards, c], new_stake, new_dbl]
                    acc += k / n * play(counts, nh, i)
                    counts[c] += 1
            return acc

        if len(cards) == 1:
            return draw(stake, dbl)
        if sum(cards) > 21 or (tot == 21 and not soft) or dbl:
            return play(counts, hands, i + 1)  # bust, hard 21, or doubled: done
        first = 1 if i == 0 or rules.dealer_pontoon_rule != "obbo" else 0
        options = {}
        if len(cards) == 2 and cards[0] == cards[1] == v and len(hands) < limit:
            split_hands = [list(h) for h in hands]
            split_hands[i] = [[v], 1, 0]
            split_hands.insert(i + 1, [[v], 1, 0])
            resplit = play(counts, split_hands, i)
            played = sum(1 for h in hands[:i] if h[0][1] == v)  # pair cards dealt and played
            if not optimal:
                if table[(ctx.up, v, len(hands), len(hands) - i, played, first)]:
                    return resplit
            else:
                options["resplit"] = resplit
        cnt = tuple(cards.count(x) for x in range(1, 11))
        allowed = [STAND, HIT] + ([DOUBLE] if len(cards) == 2 else [])
        if not optimal:
            allowed = [policy[(cnt, 0, 0, 1, 0, first)][1]]
        for act in allowed:
            if act == STAND:
                options[act] = play(counts, hands, i + 1)
            elif act == HIT:
                options[act] = draw(1, 0)
            elif act == DOUBLE:
                options[act] = draw(2, 1)
        return max(options.values())

    dealer_memo: dict[tuple, dict[str, float]] = {}

    def _dealer_memo(counts):
        key = tuple(counts.values())
        if key not in dealer_memo:
            out: dict[str, float] = {}
            _dealer(dict(counts), [up], 1.0, out)
            dealer_memo[key] = out
        return dealer_memo[key]

    counts = dict(shoe)
    counts[v] -= 2
    return play(counts, [[[v], 1, 0], [[v], 1, 0]], 0)


def _context(rules: RuleSet, up: int, shoe) -> _Context:
    g = Game(rules, PayoutSchedule())
    return _Context(g, up, tuple(shoe.get(x, 0) for x in range(1, 11)))


@pytest.mark.parametrize("name", sorted(RULES))
def test_split_ev_is_the_brute_force_value_of_the_strategy_played(name):
    rules, (up, shoe) = RULES[name], SHOES[name]
    ctx = _context(rules, up, shoe)
    ev = ctx.split_ev(8)
    assert any(ctx.resplit.values()), "the tiny shoe must make re-splitting worth it somewhere"
    assert ev == pytest.approx(_brute_split(rules, ctx, up, shoe, 8, optimal=False), abs=1e-12)


def test_the_strategy_played_is_not_the_best_with_every_card_seen():
    """What the maths leaves out: reacting to the other split hands' cards. On a 16-card shoe,
    where a card seen weighs far more than in a casino shoe, it is worth something; the maths'
    value is below it (it must be) and is still exact for the strategy played."""
    rules = RULES["obbo_three_hands"]
    shoe = {1: 1, 3: 1, 8: 5, 9: 1, 10: 5}
    ctx = _context(rules, 9, shoe)
    ev = ctx.split_ev(8)
    assert ev == pytest.approx(_brute_split(rules, ctx, 9, shoe, 8, optimal=False), abs=1e-12)
    best = _brute_split(rules, ctx, 9, shoe, 8, optimal=True)
    assert 0 < best - ev < 0.01


# tiny shoes where the best re-split decision depends on the composition: on (hands so far,
# hands waiting, pair cards dealt and played) — re-split on one key, play the pair on another
COMPOSITION_SHOES = {
    # three hands with OBBO: the second hand re-splits unless the first hand played a pair
    "obbo_three_hands": (RULES["obbo_three_hands"], 9, {2: 4, 7: 4, 8: 4, 9: 4}),
    # four hands, OBBO (9 decision points) and the dealer taking all (8)
    "obbo_four_hands": (
        RULES["obbo_three_hands"].replace(split_max_hands=4),
        6,
        {6: 3, 7: 5, 8: 6},
    ),
    "takes_all_four_hands": (
        RULES["unlimited_takes_all"].replace(split_max_hands=4),
        2,
        {5: 1, 8: 6, 10: 4},
    ),
}


def _keys(ctx: _Context, v: int) -> list[tuple[int, ...]]:
    return sorted(k for k in ctx.resplit if k[1] == v)


def test_resplit_decisions_are_the_best_table_by_composition_three_hands():
    """Every re-split table over the decision points (2^3 of them), dealt by brute force: the
    maths values each exactly, and its own table (chosen by composition) is the best."""
    rules, up, shoe = COMPOSITION_SHOES["obbo_three_hands"]
    ctx = _context(rules, up, shoe)
    ev = ctx.split_ev(8)
    keys = _keys(ctx, 8)
    assert len(keys) == 3
    # the second hand's choice turns on whether the first hand was dealt a pair card and played it
    assert ctx.resplit[(up, 8, 2, 1, 0, 0)] != ctx.resplit[(up, 8, 2, 1, 1, 0)]
    values = {}
    for bits in itertools.product([False, True], repeat=len(keys)):
        table = dict(zip(keys, bits, strict=True))
        brute = _brute_split(rules, ctx, up, shoe, 8, optimal=False, table=table)
        assert ctx.resplit_value(8, table) == pytest.approx(brute, abs=1e-12), bits
        values[bits] = brute
    assert ev == pytest.approx(max(values.values()), abs=1e-12)
    assert ev > min(values.values()) + 1e-3  # the choice matters on this shoe


@pytest.mark.parametrize("name", ["obbo_four_hands", "takes_all_four_hands"])
def test_resplit_decisions_are_the_best_table_by_composition_four_hands(name):
    """Four hands: the maths' table is the best of all 2^8-2^9 (valued by the maths, which the
    brute force confirms for its own table, for never and for always re-splitting), and beats by
    over 0.01 stakes the best table that ignores the pair cards played (the old recursion's
    keys: hands so far, hands waiting, first hand)."""
    rules, up, shoe = COMPOSITION_SHOES[name]
    ctx = _context(rules, up, shoe)
    ev = ctx.split_ev(8)
    keys = _keys(ctx, 8)
    assert len(keys) >= 8
    assert ev == pytest.approx(_brute_split(rules, ctx, up, shoe, 8, optimal=False), abs=1e-12)
    for every in (False, True):
        table = dict.fromkeys(keys, every)
        brute = _brute_split(rules, ctx, up, shoe, 8, optimal=False, table=table)
        assert ctx.resplit_value(8, table) == pytest.approx(brute, abs=1e-12)
    best_any = best_blind = -1e9
    blind_keys = sorted({(h, k, f) for _, _, h, k, _, f in keys})
    for bits in itertools.product([False, True], repeat=len(keys)):
        best_any = max(best_any, ctx.resplit_value(8, dict(zip(keys, bits, strict=True))))
    for bits in itertools.product([False, True], repeat=len(blind_keys)):
        by = dict(zip(blind_keys, bits, strict=True))
        table = {key: by[(key[2], key[3], key[5])] for key in keys}
        best_blind = max(best_blind, ctx.resplit_value(8, table))
    assert best_any == pytest.approx(ev, abs=1e-12)
    assert ev > best_blind + 0.01


@pytest.mark.parametrize("one_card", [True, False])
def test_split_aces_that_take_one_card_are_never_resplit(one_card):
    """A split ace dealt one card stands (round.py), so an ace pair dealt to it is never a
    re-split point, whatever split_aces_max_hands allows."""
    rules = RuleSet(
        name="tiny",
        decks=1,
        split_max_hands=3,
        split_aces_max_hands=3,
        split_aces_one_card=one_card,
        tie_rule="push",
    )
    ctx = _context(rules, 9, {1: 4, 5: 4, 9: 3, 10: 8})
    ctx.split_ev(1)
    assert any(key[1] == 1 for key in ctx.resplit) is not one_card
