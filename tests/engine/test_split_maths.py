"""Split maths against a brute-force enumeration of a whole split on a tiny shoe.

The brute force is independent of the DP: it deals the cards in the engine's order (each split
hand gets its second card and is played out before the next; a re-split pair card starts a new
hand after the current one; the dealer draws last, from whatever is left), totals and settles
the hands itself, and sums over every card sequence. Played with the split strategy the maths
computed (its decision table and its re-split table), it must give the maths' split EV exactly;
played with the best decision at every point, every card seen, it shows what reacting to the
other hands' cards would add (the maths does not: see ``tables/engine/_splitmath.py``)."""

from __future__ import annotations

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


def _brute_split(rules: RuleSet, ctx: _Context, up: int, shoe, v: int, optimal: bool) -> float:
    """EV of splitting the pair of v's, every card sequence enumerated."""
    policy = ctx.split_solver(v).memo
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
            if not optimal and ctx.resplit[(ctx.up, v, len(hands), len(hands) - i, first)]:
                return resplit
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
