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
- **Splits (exact for the strategy played).** Every split hand's draws and the dealer's come
  from the shoe less all cards seen, re-splits by composition: each split hand plays the split
  solver's strategy (its own cards, the up card, the pair), and a pair card dealt as a second
  card is re-split or played, whichever is worth more given hands so far, hands waiting and the
  pair cards earlier split hands were dealt and played (the best re-split table on that
  information). Values are exact (:mod:`._splitmath`: dealing order does not matter, and a
  card nobody reacts to is as if not drawn, so only the pair cards and the non-pair second
  cards the re-split structure reveals are accounted for, by a triangular system over the shoe
  less 0, 1, 2, ... more pair cards). Not computed: a strategy reacting to the values of the
  other split hands' cards (worth more; the figure is a lower bound on it). Unlimited
  re-splits are capped at 8 hands. For rank-only splits of ten-values the chance that two
  ten-values share a rank is taken from a fresh shoe.
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

import functools
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._handdp import (  # noqa: F401  (re-exported: the simulator, commands and tests use them)
    ACTION_NAMES,
    BUST,
    FIVE,
    HIT,
    MAXH_RESPLIT,
    PLAY,
    PONTOON,
    RESCUE,
    SPLIT,
    SPLIT_CAP,
    STAND,
    SURRENDER,
    VALUES,
    Game,
    _card_label,
    _odds,
    _Solver,
    _sub,
    _up_label,
    _vec,
    dealer_dist,
    hand_key,
    natural_probability,
    prize_per_unit,
    root_key,
    shoe_counts,
    state_key,
    super_suit_probability,
    ten_ranks,
)
from ._splitmath import _Context
from .rules import PayoutSchedule, RuleSet, get_preset


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
    # (up, v, hands so far, hands waiting, pairs played so far, first hand) -> re-split
    resplit: dict[tuple[int, int, int, int, int, int], bool]
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
    "seen; splits exact for the strategy played (every split hand drawn from the shoe less all "
    "cards seen, re-split or play decided by composition); bonus odds exact with suit "
    "probabilities; Super Bonus valued at the stake given, left out without one"
)


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
    resplit: dict[tuple[int, int, int, int, int, int], bool] = {}
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
