"""The player's hand DP of the game maths: a rule set + payout schedule compiled (:class:`Game`)
and the dynamic programme over one hand's states (:class:`_Solver`), optimal or, given a
policy, evaluating that fixed strategy on another shoe (the split maths needs both).

The method is described in :mod:`.gamemath`."""

from __future__ import annotations

import copy
import math
import operator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ._jit import BUST, FIVE, PONTOON, dealer_dist
from .cards import RANKS
from .rules import PayoutSchedule, RuleSet

VALUES = range(1, 11)
SPLIT_CAP = 8
MAXH_RESPLIT = SPLIT_CAP
# action codes (shared with the simulator)
STAND, HIT, DOUBLE, BUY, TWIST, RESCUE, SURRENDER, SPLIT, PLAY = 0, 1, 2, 3, 4, 5, 6, 7, 8
ACTION_NAMES = ("stand", "hit", "double", "buy", "twist", "rescue", "surrender", "split", "play")


def shoe_counts(rules: RuleSet) -> tuple[int, ...]:
    """Cards of each value (ace .. ten-value) in a fresh shoe."""
    d = rules.decks
    tens = (3 if rules.deck_kind == "spanish" else 4) * 4 * d
    return tuple([4 * d] * 9 + [tens])


def ten_ranks(rules: RuleSet) -> tuple[str, ...]:
    return ("J", "Q", "K") if rules.deck_kind == "spanish" else ("T", "J", "Q", "K")


def natural_probability(counts: tuple[int, ...]) -> Fraction:
    """Exact probability that the first two cards off a shoe are ace + ten-value."""
    n = sum(counts)
    return Fraction(2 * counts[0] * counts[9], n * (n - 1))


def _odds(o: tuple[int, int]) -> float:
    return o[0] / o[1]


def hand_key(cnt: tuple[int, ...]) -> int:
    """Cards held, as an integer (base 22 per value): shared with the simulator."""
    k = 0
    for i in range(9, -1, -1):
        k = k * 22 + cnt[i]
    return k


def state_key(up: int, pair: int, first: int, cnt, dbl: int, a12: int, tw: int, m: int) -> int:
    """Decision-table key of a hand state (also computed by the simulator's kernel)."""
    k = hand_key(cnt)
    k = ((((((k * 11 + up) * 11 + pair) * 2 + first) * 3 + dbl) * 3 + a12) * 2 + tw) * 6 + m
    return k


def root_key(up: int, cnt, avail: int) -> int:
    return (hand_key(cnt) * 11 + up) * 4 + avail


def prize_per_unit(payouts: PayoutSchedule, stake: int | None) -> float:
    """The Super Bonus prize as a multiple of a bet of ``stake`` minor units (0 below the
    lowest tier, or when no stake is given): fixed prizes are worth more to a smaller stake."""
    if not stake:
        return 0.0
    prize = 0
    for lo, amount in payouts.super_bonus_tiers:
        if stake >= lo:
            prize = amount
    return prize / stake


def super_suit_probability(decks: int) -> float:
    """P(three 7s dealt to the player share a suit | the dealer shows a 7 of unknown suit):
    the shoe's 7s less the dealer's, averaged over its suit (the strategy ignores suits)."""
    n = 4 * decks - 1
    if n < 3:
        return 0.0
    return (3 * math.comb(decks, 3) + math.comb(decks - 1, 3)) / math.comb(n, 3)


class Game:
    """A rule set + payout schedule compiled for the DP (derived numbers, dealer cache)."""

    def __init__(self, rules: RuleSet, payouts: PayoutSchedule, stake: int | None = None):
        rules.validate()
        payouts.validate()
        if rules.dealer_rule == "banker_choice":
            st, h17 = rules.dealer_stand_total, False  # house policy: stand on any 17
        else:
            st, h17 = rules.dealer_stand_total, rules.dealer_rule == "hit_soft_17"
        self.r, self.p = rules, payouts
        self.counts = shoe_counts(rules)
        self.st, self.h17 = st, h17
        self.dlimit = rules.dealer_card_limit or 0
        self.dfct = rules.dealer_five_card_trick
        self.one_card_dealer = rules.dealer_cards_before_play == 1
        self.peek = rules.dealer_peek
        self.obbo = rules.dealer_pontoon_rule == "obbo"
        self.push = rules.tie_rule == "push"
        self.fixed_aces = rules.double_aces_count_one
        self._dealer: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self.payoff: dict[tuple, np.ndarray] = {}
        self.dealer_calls = 0
        d = rules.decks
        n7 = 4 * d
        s777 = math.comb(d, 3) / math.comb(n7, 3) if n7 >= 3 else 0.0
        self.suit_probs = {
            "678": {"spades": 1 / 64, "suited": 3 / 64, "mixed": 60 / 64},
            "777": {"spades": s777, "suited": 3 * s777, "mixed": 1 - 4 * s777},
        }
        self.s777 = s777
        self.bonus = {(pat, klass): _odds(o) for pat, klass, o in payouts.three_card_bonuses}
        self.ladder = [(n, _odds(o)) for n, o in payouts.twenty_one_by_cards]
        self.win = _odds(payouts.win)
        # Super Bonus: a fixed prize valued at the given stake, so the strategy (7-7 against
        # the prize rank) and the edge depend on the stake
        self.stake = stake
        self.super_up = min(RANKS.index(payouts.super_bonus_dealer_rank) + 1, 10)
        self.super_suit = super_suit_probability(rules.decks)
        self.super_value = prize_per_unit(payouts, stake) * self.super_suit

    def at_stake(self, stake: int | None) -> Game:
        """The same game with the prize valued at another stake, sharing the dealer cache (the
        dealer's distributions do not depend on the stake)."""
        other = copy.copy(self)
        other.stake = stake
        other.super_value = prize_per_unit(self.p, stake) * self.super_suit
        return other

    def dealer(self, up: int, comp: tuple[int, ...]) -> np.ndarray:
        key = (up, comp)
        d = self._dealer.get(key)
        if d is None:
            self.dealer_calls += 1
            d = dealer_dist(
                np.array(comp, dtype=np.int64),
                up,
                self.st,
                self.h17,
                self.dlimit,
                self.dfct,
                self.peek,
            )
            self._dealer[key] = d
        return d

    def ladder_odds(self, n: int) -> float | None:
        best = None
        for count, o in self.ladder:
            if count <= n:
                best = o
        return best

    def twentyone_odds(self, cnt: tuple[int, ...], n: int) -> float:
        """Expected odds of a winning 21 (not Pontoon / FCT) with bonus odds allowed."""
        base = self.ladder_odds(n)
        fallback = self.win if base is None else base
        if n == 3 and self.bonus:
            pat = None
            if cnt[5] == 1 and cnt[6] == 1 and cnt[7] == 1:
                pat = "678"
            elif cnt[6] == 3:
                pat = "777"
            if pat is not None:
                return sum(
                    prob * self.bonus.get((pat, klass), fallback)
                    for klass, prob in self.suit_probs[pat].items()
                )
        return fallback


@dataclass
class _Solver:
    """Player DP for one (up card, pair) context: composition = base - hand cards."""

    g: Game
    up: int
    base: tuple[int, ...]
    pair: int = 0  # 0: unsplit hand; v: a hand split from a pair of value v
    memo: dict[tuple, tuple[float, int]] = field(default_factory=dict)
    # another solver's memo: play its actions (a fixed strategy) instead of the best ones
    policy: dict[tuple, tuple[float, int]] | None = None

    def comp(self, cnt: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(map(operator.sub, self.base, cnt))

    # -- hand facts -------------------------------------------------------------------
    def facts(self, cnt, dbl, a12):
        hard = 0
        for i, c in enumerate(cnt):
            hard += (i + 1) * c
        fixed = a12 if (dbl and self.g.fixed_aces) else 0
        soft = cnt[0] - fixed > 0 and hard <= 11
        return hard, (hard + 10 if soft else hard), soft

    def is_pontoon(self, cnt, n, dbl) -> bool:
        if dbl or n != 2 or cnt[0] != 1 or cnt[9] != 1:
            return False
        if not self.pair:
            return True
        sp = self.g.r.split_pontoon
        return sp == "any" or (sp == "split_aces" and self.pair == 1)

    # -- standing -----------------------------------------------------------------------
    def stand_ev(self, cnt, dbl, m, first) -> float:
        n = sum(cnt)
        _, tot, _ = self.facts(cnt, dbl, 0)
        return self._stand(cnt, n, tot, dbl, m, first)

    def _stand(self, cnt, n, tot, dbl, m, first) -> float:
        g, r = self.g, self.g.r
        D = g.dealer(self.up, self.comp(cnt))
        pontoon = self.is_pontoon(cnt, n, dbl)
        fct = r.player_five_card_trick and n == 5 and tot <= 21
        if pontoon:
            odds = _odds(g.p.pontoon)
        elif fct:
            odds = _odds(g.p.five_card_trick)
        elif tot == 21 and (not dbl or g.p.bonus_odds_on_doubled):
            odds = g.twentyone_odds(cnt, n)
        else:
            odds = g.win
        win = m * odds
        if (
            g.super_value
            and n == 3
            and cnt[6] == 3
            and not self.pair
            and not dbl
            and self.up == g.super_up
        ):
            win += g.super_value  # the prize: paid on top of the 7-7-7 odds, stake undoubled
        if (fct and r.five_card_trick_decided_at_once) or (r.player_21_always_wins and tot == 21):
            return win * float(D.sum())
        prank = 3 if pontoon else (2 if fct else 1)
        vkey = (prank, tot if prank == 1 else 0, win, m, first)
        vec = g.payoff.get(vkey)
        if vec is None:
            vec = np.zeros(25)
            ptot = vkey[1]
            for o in range(25):
                if o == BUST:
                    vec[o] = win
                    continue
                if o == PONTOON:
                    if g.obbo:
                        vec[o] = -1.0 if first else 0.0
                        continue
                    drank, dtot = 3, 0
                elif o == FIVE:
                    drank, dtot = 2, 0
                else:
                    drank, dtot = 1, o
                if (prank, ptot) > (drank, dtot):
                    vec[o] = win
                elif (prank, ptot) == (drank, dtot) and g.push:
                    vec[o] = 0.0
                else:
                    vec[o] = -m
            g.payoff[vkey] = vec
        return float(D @ vec)

    # -- playing ------------------------------------------------------------------------
    def draw(self, cnt, a12, dbl, m, tw, first) -> float:
        comp = self.comp(cnt)
        rem = sum(comp)
        if rem <= 0:
            return self.stand_ev(cnt, dbl, m, first)
        ev = 0.0
        n = sum(cnt)
        hard0 = 0
        for i, c in enumerate(cnt):
            hard0 += (i + 1) * c
        set_a12 = n == 1 and self.g.fixed_aces
        memo_get = self.memo.get
        evf = self.ev
        peek = self.g.peek
        for i in range(10):
            c = comp[i]
            if not c:
                continue
            nc = (*cnt[:i], cnt[i] + 1, *cnt[i + 1 :])
            if hard0 + i + 1 > 21:  # bust whatever the aces
                ev -= c * m * (self.w(nc) if peek else 1.0)
                continue
            na12 = nc[0] if set_a12 else a12
            got = memo_get((nc, na12, dbl, m, tw, first))
            if got is None:
                got = evf(nc, na12, dbl, m, tw, first)
            ev += c * got[0]
        return ev / rem

    def w(self, cnt) -> float:
        """Weight of a result decided without the dealer: P(no dealer Pontoon) in a peeked
        game (the round would have ended at the peek), else 1."""
        if not self.g.peek:
            return 1.0
        comp = self.comp(cnt)
        rem = sum(comp)
        return 1.0 - 2.0 * comp[0] * comp[9] / (rem * (rem - 1))

    def after_card(self, cnt, a12, dbl, m, tw, first) -> float:
        _, tot, _ = self.facts(cnt, dbl, a12)
        if tot > 21:
            return -float(m) * self.w(cnt)
        return self.ev(cnt, a12, dbl, m, tw, first)[0]

    def can_double(self, n, dbl) -> bool:
        r = self.g.r
        if r.player_actions != "hit_double" or dbl >= r.double_max_per_hand:
            return False
        if r.double_on_cards is not None and n not in r.double_on_cards:
            return False
        if r.doubles_in_sequence and n != dbl + 2:
            return False
        if self.pair and not r.double_after_split:
            return False
        return not (self.pair == 1 and not r.double_split_aces)

    def ev(self, cnt, a12, dbl, m, tw, first) -> tuple[float, int]:
        """Best EV (per unit original stake) and action of a live (not bust) hand state."""
        key = (cnt, a12, dbl, m, tw, first)
        got = self.memo.get(key)
        if got is not None:
            return got
        r = self.g.r
        n = sum(cnt)
        hard, tot, soft = self.facts(cnt, dbl, a12)
        if n < 2:  # a split hand waiting for its second card
            res = (self.draw(cnt, a12, dbl, m, tw, first), HIT)
            self.memo[key] = res
            return res
        stopped = (
            self.is_pontoon(cnt, n, dbl)
            or (tot == 21 and (not soft or r.soft_21_stops))
            or (r.player_card_limit is not None and n >= r.player_card_limit)
            or (self.pair == 1 and r.split_aces_one_card)
            or (dbl and r.double_then == "stand")
        )
        if stopped:
            val = self._stand(cnt, n, tot, dbl, m, first)
            act = STAND
            if dbl and r.double_then == "stand" and r.rescue and tot < 21:
                resc = -1.0 * self.w(cnt)
                fixed = self._fixed(key)
                if (resc > val) if fixed is None else fixed == RESCUE:
                    val, act = resc, RESCUE
            res = (val, act)
        elif r.doubled_auto_draw_below_hard and dbl and hard < r.doubled_auto_draw_below_hard:
            res = (self.draw(cnt, a12, dbl, m, tw, first), HIT)
        elif (
            r.forced_draw_four_cards_hard_max is not None
            and n == 4
            and hard <= r.forced_draw_four_cards_hard_max
        ):
            res = (self.draw(cnt, a12, dbl, m, 1, first), TWIST)
        elif (fixed := self._fixed(key)) is not None:
            res = (self._play(fixed, cnt, n, tot, a12, dbl, m, tw, first), fixed)
        else:
            best, act = -1e18, -1
            stand_total = hard if r.min_stand_total_kind == "hard" else tot
            if stand_total >= r.min_stand_total:
                best, act = self._stand(cnt, n, tot, dbl, m, first), STAND
            if r.player_actions == "buy_twist":
                v = self.draw(cnt, a12, dbl, m, 1, first)
                if v > best:
                    best, act = v, TWIST
                if not tw:
                    v = self.draw(cnt, a12, dbl, m + 1, 0, first)
                    if v > best:
                        best, act = v, BUY
            else:
                v = self.draw(cnt, a12, dbl, m, tw, first)
                if v > best:
                    best, act = v, HIT
                if self.can_double(n, dbl):
                    v = self.draw(cnt, a12, dbl + 1, m + 1, tw, first)
                    if v > best:
                        best, act = v, DOUBLE
            res = (best, act)
        self.memo[key] = res
        return res

    def _fixed(self, key) -> int | None:
        """The policy's action at this state (None: optimise; every state reachable from a
        smaller shoe was reached from the policy's larger one, so it is there)."""
        if self.policy is None:
            return None
        got = self.policy.get(key)
        return None if got is None else got[1]

    def _play(self, act, cnt, n, tot, a12, dbl, m, tw, first) -> float:
        if act == STAND:
            return self._stand(cnt, n, tot, dbl, m, first)
        if act == TWIST:
            return self.draw(cnt, a12, dbl, m, 1, first)
        if act == BUY:
            return self.draw(cnt, a12, dbl, m + 1, 0, first)
        if act == DOUBLE:
            return self.draw(cnt, a12, dbl + 1, m + 1, tw, first)
        return self.draw(cnt, a12, dbl, m, tw, first)


def _up_label(up: int) -> str:
    return "none" if up == 0 else ("A" if up == 1 else ("T" if up == 10 else str(up)))


def _card_label(v: int) -> str:
    return "A" if v == 1 else ("T" if v == 10 else str(v))


def _vec(*vals: int) -> tuple[int, ...]:
    c = [0] * 10
    for v in vals:
        c[v - 1] += 1
    return tuple(c)


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))
