"""Exact game maths for a rule set + payout schedule (finite shoe, composition-dependent play).

Method (reported as ``method`` by :func:`game_maths`):

- **Finite shoe.** The shoe is a tuple of counts per card value (ace .. ten-value). Every draw,
  the player's and the dealer's, is made from the shoe less the cards already seen: the dealer's
  up card (one-card games), the player's own cards and, for split hands, the other pair card.
- **Dealer.** For each player hand that meets the dealer, the dealer's final-result
  distribution is computed exactly from the remaining composition by a recursive kernel
  (:mod:`._jit`), memoised on (up card, composition). Games whose dealer cards are face down
  (the online and traditional presets) give the player no up card: the dealer's cards are
  drawn, by exchangeability, from the shoe left after the player's hand. With a dealer peek the
  Pontoon mass is dropped (unnormalised weights) and ``-P(dealer Pontoon)`` is added at the
  root, which is exact: comparing actions at a node only needs ``E[X * 1{no Pontoon}]``.
- **Player.** Dynamic programming over hand states (cards held as a count vector, doubles,
  stake multiplier, twist/buy state, split kind), memoised per (up card, pair, state): the best of
  stand / hit / double (full stake) / rescue / surrender / buy / twist, with every rule of the
  engine (``round.py``) reproduced: stops, forced draws, minimum standing totals, card limits,
  Crown's aces-count-one on doubles, OBBO, player 21 always wins, decided-at-once hands (a
  crown 21 needs no dealer card: the same EV, as it wins whatever the dealer makes).
- **Payouts** follow ``settlement.py``: Pontoon, Five Card Trick, the 21-by-cards ladder and the
  6-7-8 / 7-7-7 suit classes (their suit probabilities are exact for a shoe whose seen cards'
  suits are unknown: suits of distinct ranks are independent and uniform, three sevens are a
  uniform 3-subset of the shoe's sevens). Exact fractions of the stake, no minor-unit rounding.
- **Splits (approximated).** A split hand is played exactly from the shoe less the up card and
  both pair cards; cards drawn to the *other* split hands are not removed. Re-splitting uses a
  constant probability ``q`` that a split hand's second card pairs again (the pair's value, or
  for rank-only splits the same rank) and a small recursion over (hands so far, hands waiting
  for their second card) with the best of resplit / play at each step; unlimited re-splits are
  capped at 8 hands. For rank-only splits of ten-values the chance that two ten-values share a
  rank is taken from a fresh shoe.
- **Super Bonus** (a fixed prize, not odds): valued at the stake given (``stake``, minor
  units) as ``prize / stake`` times the chance the three 7s share a suit, so the strategy for
  7-7 against the prize rank and the edge depend on the stake; without a stake it is left out
  (as below every tier). The envy bonus goes to *other* players, so it is not in this player's
  edge: it is reported per other box. The strategy ignores suits (a 7-7 suited is played like
  any 7-7).
  Insurance and even money are evaluated at the root (taken only when their EV is positive).
  Traditional staking after the first card is taken as a flat stake (EV by first card is given).
- **Doubles** are made for the full original stake (a partial Crown double is dominated: the
  outcome is linear in the double stake, so an end point is optimal); a buy is for the full
  original stake.
"""

from __future__ import annotations

import copy
import functools
import math
import operator
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._jit import BUST, FIVE, PONTOON, dealer_dist
from .cards import RANKS
from .rules import PayoutSchedule, RuleSet, get_preset

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
                if resc > val:
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


@dataclass
class GameMaths:
    variant: str
    house_edge: float  # percent, positive = house advantage
    player_ev: float  # per unit initial stake
    method: str
    seconds: float
    by_up: dict[str, dict[str, Any]]
    strategy: dict[str, dict[str, str]]  # up -> {"A,T": action}
    root_table: dict[int, int]  # root_key -> action (split / surrender / play)
    table: dict[int, int]  # state_key -> action
    resplit: dict[tuple[int, int, int, int, int], bool]  # (up, v, hands, pending, first)
    even_money: dict[int, bool]  # up -> take even money
    extras: dict[str, Any]
    dealer_calls: int = 0
    states: int = 0
    stake: int | None = None  # minor units the Super Bonus prize was valued at (None: no prize)

    def to_json(self, with_tables: bool = False) -> dict[str, Any]:
        out = {
            "variant": self.variant,
            "stake": self.stake,
            "house_edge": round(self.house_edge, 6),
            "player_ev": self.player_ev,
            "method": self.method,
            "seconds": round(self.seconds, 3),
            "states": self.states,
            "dealer_compositions": self.dealer_calls,
            "by_up_card": self.by_up,
            "strategy": self.strategy,
            **self.extras,
        }
        return out


METHOD = (
    "exact finite-shoe dynamic programming: composition-dependent player strategy over hand "
    "states, dealer final-result distributions computed exactly from the shoe less every card "
    "seen; splits approximated (each split hand played from the shoe less the up card and both "
    "pair cards, other split hands' draws not removed; re-splits with a constant re-pair "
    "probability); bonus odds exact with suit probabilities; Super Bonus valued at the stake "
    "given, left out without one"
)


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


class _Context:
    """Everything for one up card (or none): the unsplit solver and split solvers."""

    def __init__(self, g: Game, up: int, base: tuple[int, ...]):
        self.g, self.up, self.base = g, up, base
        self.main = _Solver(g, up, base)
        self.splits: dict[int, _Solver] = {}
        self.resplit: dict[tuple[int, int, int, int, int], bool] = {}

    def split_solver(self, v: int) -> _Solver:
        s = self.splits.get(v)
        if s is None:
            s = _Solver(self.g, self.up, _sub(self.base, _vec(v)), pair=v)
            self.splits[v] = s
        return s

    def split_ev(self, v: int) -> float:
        """EV (per unit original stake, all hands) of splitting a pair of value v."""
        g, r = self.g, self.g.r
        s = self.split_solver(v)
        one = _vec(v)
        comp0 = s.comp(one)
        rem0 = sum(comp0)
        if r.split_match == "rank" and v == 10:
            per_rank = 4 * r.decks
            q = max(per_rank - 2, 0) / rem0
        else:
            q = comp0[v - 1] / rem0
        limit = r.split_aces_max_hands if v == 1 else r.split_max_hands
        if limit == 0:
            limit = SPLIT_CAP
        firsts = (1, 0) if g.obbo else (1,)
        e_other, e_pair = {}, {}
        a12 = 0
        for f in firsts:
            a12 = one[0] if g.fixed_aces else 0
            e_all = s.ev(one, a12, 0, 1, 0, f)[0]
            pair_cnt = _vec(v, v)
            pa12 = pair_cnt[0] if g.fixed_aces else 0
            ep = s.after_card(pair_cnt, pa12, 0, 1, 0, f)
            e_pair[f] = ep
            e_other[f] = (e_all - q * ep) / (1 - q) if q < 1 else 0.0
        if not g.obbo:
            e_other[0], e_pair[0] = e_other[1], e_pair[1]
        memo: dict[tuple[int, int, int], float] = {}

        def V(h: int, k: int, first: int) -> float:
            if k == 0:
                return 0.0
            key = (h, k, first)
            if key in memo:
                return memo[key]
            rest = V(h, k - 1, 0)
            val = (1 - q) * (e_other[first] + rest)
            play = e_pair[first] + rest
            if h < limit:
                re = V(h + 1, k + 1, first)
                self.resplit[(self.up, v, h, k, first)] = re > play
                val += q * max(play, re)
            else:
                val += q * play
            memo[key] = val
            return val

        return V(2, 2, 1)


def _three_card_table(solver_tables):
    return solver_tables


def game_maths(
    rules: RuleSet,
    payouts: PayoutSchedule,
    variant: str | None = None,
    stake: int | None = None,
    game: Game | None = None,
) -> GameMaths:
    """Exact (finite-shoe) expected return and composition-dependent strategy of a game.

    ``stake`` (minor units): the bet the fixed Super Bonus prize is valued against, in the
    strategy and in the edge; None leaves the prize out (as a stake below every tier).
    ``game``: a compiled :class:`Game` of the same documents whose dealer cache to reuse (see
    :func:`game_maths_by_stake`)."""
    t0 = time.perf_counter()
    g = Game(rules, payouts, stake) if game is None else game.at_stake(stake)
    calls0 = g.dealer_calls
    r = rules
    full = g.counts
    N = sum(full)
    ups = list(VALUES) if g.one_card_dealer else [0]
    total_ev = 0.0
    by_up: dict[str, dict[str, Any]] = {}
    strategy: dict[str, dict[str, str]] = {}
    root_table: dict[int, int] = {}
    table: dict[int, int] = {}
    resplit: dict[tuple[int, int, int, int, int], bool] = {}
    even_money: dict[int, bool] = {}
    ins_evs: dict[str, float] = {}
    ev_first_card: dict[str, float] = {}
    super_p = 0.0
    super_if_hit = 0.0
    super_break_even = math.inf
    sb77: tuple[float, float | None] = (-1e18, None)
    tr = ten_ranks(r)
    for up in ups:
        if up:
            if full[up - 1] == 0:
                continue
            p_up = full[up - 1] / N
            base = _sub(full, _vec(up))
        else:
            p_up = 1.0
            base = full
        ctx = _Context(g, up, base)
        rem = sum(base)
        # surrender availability for this up card (fraction of its ranks that allow it)
        if r.surrender and up:
            if up == 10:
                f_sur = sum(1 for x in tr if x in r.surrender_dealer_ranks) / len(tr)
            else:
                f_sur = 1.0 if _card_label(up) in r.surrender_dealer_ranks else 0.0
        else:
            f_sur = 0.0
        ev_up = 0.0
        strat: dict[str, str] = {}
        first_card_ev = [0.0] * 10
        for c1 in VALUES:
            for c2 in range(c1, 11):
                n1 = base[c1 - 1]
                n2 = base[c2 - 1] - (1 if c1 == c2 else 0)
                if n1 <= 0 or n2 <= 0:
                    continue
                prob = n1 / rem * n2 / (rem - 1) * (1 if c1 == c2 else 2)
                cnt = _vec(c1, c2)
                a12 = cnt[0] if g.fixed_aces else 0
                play, act = ctx.main.ev(cnt, a12, 0, 1, 0, 1)
                split_ok = r.can_split and c1 == c2 and not (r.split_only_aces and c1 != 1)
                if c1 == 1 and not r.split_aces:
                    split_ok = False
                e_split = ctx.split_ev(c1) if split_ok else None
                if up == g.super_up and c1 == c2 == 7:
                    sb77 = (ctx.main.stand_ev(cnt, 0, 1, 1), e_split)
                e_sur = None
                if f_sur:
                    comp = ctx.main.comp(cnt)
                    crem = sum(comp)
                    pp = (comp[9] if up == 1 else comp[0] if up == 10 else 0) / crem
                    back = _odds(r.surrender_return)
                    e_sur = (
                        -1.0 + back * (1 - pp)
                        if r.surrender_void_on_dealer_pontoon
                        else (-1.0 + back)
                    )
                # even money (one-card dealer, ace up, player Pontoon)
                if r.even_money and up == 1 and ctx.main.is_pontoon(cnt, 2, 0):
                    em = _odds(payouts.even_money)
                    even_money[up] = em > play
                    play = max(play, em)
                # the root decision for each availability (bit0 split, bit1 surrender)
                results = {}
                for avail in range(4):
                    if (avail & 1 and e_split is None) or (avail & 2 and e_sur is None):
                        continue
                    best, bact = play, PLAY
                    if avail & 1 and e_split is not None and e_split > best:
                        best, bact = e_split, SPLIT
                    if avail & 2 and e_sur is not None and e_sur > best:
                        best, bact = e_sur, SURRENDER
                    results[avail] = (best, bact)
                    root_table[root_key(up, cnt, avail)] = bact
                split_avail = 1 if e_split is not None else 0
                if split_ok and r.split_match == "rank" and c1 == 10:
                    per_rank = 4 * r.decks
                    ps = (per_rank - 1) / (len(tr) * per_rank - 1)
                else:
                    ps = 1.0
                val = 0.0
                for sur_w, sur_bit in ((f_sur, 2), (1 - f_sur, 0)):
                    if sur_w == 0:
                        continue
                    if split_avail:
                        val += sur_w * (
                            ps * results[1 | sur_bit][0] + (1 - ps) * results[sur_bit][0]
                        )
                    else:
                        val += sur_w * results[sur_bit][0]
                # insurance (evaluated, taken only when positive)
                if r.insurance and up == 1:
                    comp = ctx.main.comp(cnt)
                    pt = comp[9] / sum(comp)
                    a, b = r.insurance_max
                    ins = a / b * (pt * _odds(payouts.insurance) - (1 - pt))
                    ins_evs[f"{_card_label(c1)},{_card_label(c2)}"] = ins
                    val += max(ins, 0.0)
                ev_up += prob * val
                bact = results[(2 if f_sur >= 0.5 else 0) | split_avail][1]
                label = ACTION_NAMES[act] if bact == PLAY else ACTION_NAMES[bact]
                strat[f"{_card_label(c1)},{_card_label(c2)}"] = label
                # EV by first card (traditional staking after the first card)
                first_card_ev[c1 - 1] += val * n1 / rem * n2 / (rem - 1)
                if c1 != c2:
                    first_card_ev[c2 - 1] += val * n1 / rem * n2 / (rem - 1)
        if g.peek:
            ev_up -= float(natural_probability(full))
        # Super Bonus probability (7-7-7 one suit, unsplit, undoubled, dealer first card 7)
        if payouts.super_bonus_tiers and up and _card_label(up) == payouts.super_bonus_dealer_rank:
            cnt77 = _vec(7, 7)
            n7 = base[6]
            p77 = n7 / rem * (n7 - 1) / (rem - 1)
            a12 = 0
            _, act77 = ctx.main.ev(cnt77, a12, 0, 1, 0, 1)
            root77 = root_table.get(root_key(up, cnt77, 1), PLAY)
            p7 = (n7 - 2) / (rem - 2)
            chase = p_up * p77 * p7 * super_suit_probability(r.decks)
            super_if_hit += chase
            if act77 == HIT and root77 == PLAY:
                super_p += chase
            # the prize multiple above which hitting 7-7 beats its best alternative
            p_prize = p7 * g.super_suit
            hit_bare = ctx.main.draw(cnt77, 0, 0, 1, 0, 1) - p7 * g.super_value
            alt = max(sb77[0], -1e18 if sb77[1] is None else sb77[1])
            super_break_even = max(alt - hit_bare, 0.0) / p_prize if p_prize else math.inf
        total_ev += p_up * ev_up
        label = _up_label(up)
        by_up[label] = {"probability": p_up, "player_ev": ev_up}
        strategy[label] = strat
        if not up:
            ev_first_card = {
                _card_label(v): first_card_ev[v - 1] / (base[v - 1] / rem)
                for v in VALUES
                if base[v - 1]
            }
        for solver_pair, solver in [(0, ctx.main), *ctx.splits.items()]:
            for (cnt, a12, dbl, m, tw, first), (_, act) in solver.memo.items():
                table[state_key(up, solver_pair, first, cnt, dbl, a12, tw, m)] = act
        resplit.update(ctx.resplit)
    extras: dict[str, Any] = {}
    if r.insurance:
        extras["insurance_ev_per_unit_stake"] = ins_evs
        extras["insurance_taken"] = any(v > 0 for v in ins_evs.values())
    if r.even_money:
        extras["even_money_taken"] = bool(even_money.get(1))
    if ev_first_card and r.staking_after_first_card:
        extras["ev_by_first_card"] = ev_first_card
        extras["staking"] = "flat stake (the player stakes the same whatever the first card)"
    if payouts.super_bonus_tiers:
        prize_unit = prize_per_unit(payouts, stake)
        extras["super_bonus"] = {
            "stake": stake,
            "prize_per_unit_stake": prize_unit,
            "in_house_edge": bool(prize_unit),
            "ev_percent_at_stake": 100 * super_p * prize_unit,
            # 7-7 against the prize rank is hit (chasing the prize) when prize / stake is at
            # least this, i.e. at stakes up to prize / this in each tier
            "hit_7_7_from_prize_multiple": super_break_even,
            "hit_7_7_up_to_stake": {
                str(lo): prize / super_break_even if super_break_even else math.inf
                for lo, prize in payouts.super_bonus_tiers
            },
            "probability_per_hand": super_p,
            "probability_per_hand_if_7_7_hit_against_7": super_if_hit,
            "strategy_note": "the strategy values the prize at the given stake (7-7 against a "
            "7 is hit when the prize is worth more than splitting); it ignores suits; "
            "without a stake the prize is left out and 7-7 against a 7 is split",
            "note": "fixed prizes: in house_edge at the given stake; EV per unit stake at each "
            "tier minimum under this strategy below",
            "ev_at_tier_minimum_percent": {
                str(lo): 100 * super_p * prize / lo for lo, prize in payouts.super_bonus_tiers
            },
            "ev_at_tier_minimum_percent_if_7_7_hit": {
                str(lo): 100 * super_if_hit * prize / lo for lo, prize in payouts.super_bonus_tiers
            },
            "envy_bonus": payouts.envy_bonus,
            # §3.3 (clarified 2026-12-01): envy follows a prize paid on another player's hand
            # (a stake at a tier's minimum or more), never a below-tier 7-7-7
            "envy_note": "paid to each player with no bet on a Super Bonus hand when a bet on "
            "that hand wins a prize; expected envy (minor units) a player receives per round "
            "for each other box staked at a tier",
            "envy_expected_per_other_box": super_p * payouts.envy_bonus,
            "envy_percent_of_stake_per_other_box": (
                100 * super_p * payouts.envy_bonus / stake if stake else 0.0
            ),
            "envy_expected_per_other_box_if_7_7_hit": super_if_hit * payouts.envy_bonus,
        }
    if g.peek:
        extras["dealer_pontoon_peeked"] = float(natural_probability(full))
    states = len(table)
    return GameMaths(
        variant=variant or rules.name,
        house_edge=-100.0 * total_ev,
        player_ev=total_ev,
        method=METHOD,
        seconds=time.perf_counter() - t0,
        by_up=by_up,
        strategy=strategy,
        root_table=root_table,
        table=table,
        resplit=resplit,
        even_money=even_money,
        extras=extras,
        dealer_calls=g.dealer_calls - calls0,
        states=states,
        stake=stake,
    )


def dealer_distribution(rules: RuleSet, up: int = 0, exact: bool = False) -> dict[str, float]:
    """The dealer's final-result distribution from a fresh shoe (``up``: given first card).

    Keys: ``"17"`` .. ``"21"`` (totals; lower totals only with a card limit and no dealer
    Five Card Trick), ``"pontoon"``, ``"five_card"`` (only where the rule gives the dealer one),
    ``"bust"``. Peeked games report the distribution before the peek."""
    g = Game(rules, PayoutSchedule())
    comp = g.counts
    if up:
        comp = _sub(comp, _vec(up))
    d = dealer_dist(np.array(comp, dtype=np.int64), up, g.st, g.h17, g.dlimit, g.dfct, False)
    out: dict[str, float] = {}
    for t in range(22):
        if d[t] > 0 or 17 <= t <= 21:
            out[str(t)] = float(d[t])
    out["pontoon"] = float(d[PONTOON])
    if g.dfct:
        out["five_card"] = float(d[FIVE])
    out["bust"] = float(d[BUST])
    return out


def game_maths_by_stake(
    rules: RuleSet, payouts: PayoutSchedule, stakes, variant: str | None = None
) -> dict[int | None, GameMaths]:
    """:func:`game_maths` at several stakes, the dealer's distributions computed once."""
    g = Game(rules, payouts)
    return {s: game_maths(rules, payouts, variant, s, game=g) for s in stakes}


def stake_points(payouts: PayoutSchedule) -> list[int | None]:
    """Where the RTP by stake is shown: no prize (None: a stake below every tier), then each
    tier's lowest stake and, below the top tier, its highest (the next minimum less one minor
    unit). The top tier has no highest stake: ``hit_7_7_up_to_stake`` in the Super Bonus
    extras says from where the prize no longer changes play (the RTP then tends to None's)."""
    tiers = payouts.super_bonus_tiers
    points: list[int | None] = [None]
    for i, (lo, _) in enumerate(tiers):
        points.append(lo)
        if i + 1 < len(tiers):
            points.append(tiers[i + 1][0] - 1)
    return points


@functools.lru_cache(maxsize=8)
def preset_maths(name: str) -> GameMaths:
    """Game maths of a preset (cached per process: presets are immutable)."""
    r, p = get_preset(name)
    return game_maths(r, p, name)
