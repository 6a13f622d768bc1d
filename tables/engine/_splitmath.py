"""Split maths: the expected value of splitting a pair, every split hand's draws (and the
dealer's) made from the shoe less all cards seen, re-splits decided by composition.

**What is exact.** Each split hand is played by one strategy (the split solver's, keyed by the
hand's own cards, the up card and the pair). Whether a pair card dealt as a second card is
re-split or played is decided at each re-split point from what the split has revealed: hands so
far ``h``, hands waiting ``k``, and the pair cards earlier split hands were dealt and played
(``p``; with the re-splits, ``i = h - 2 + p`` extra pair cards are gone and ``m = h - k - p``
second cards are known not to be pair cards), plus OBBO's first-hand flag. The decision is the
better of the two exact values (re-split, or play ``v, v`` and go on), so the re-split table
(``resplit``: ``(up, v, h, k, p, first)``, the one the simulator plays) is the best of all
re-split tables on that information, by backward induction over the states ``(h, k, i, m)``.
Values are computed exactly, not approximated, from two facts:

1. *Order does not matter.* Drawing without replacement, any sequence of cards has probability
   ``prod_c (n_c)_(k_c) / (N)_K``, which depends only on the cards drawn; so two ways of dealing
   that give every hand (and the dealer) the same cards under the same decision rules give the
   same joint law. A hand's hits and a second card dealt once no re-split is possible are seen
   by no other hand's decisions, so they may be dealt after everything else: for the other
   hands they are as if not drawn. What does matter is what the re-split structure reveals:
   the cards drawn as second cards while a re-split was possible are known to be pair cards
   (removed: ``i`` extra) or known *not* to be (``m`` of them, values unknown).
2. *A burnt card changes nothing.* For a fixed strategy, ``phi(B)`` (the hand's value from
   shoe ``B``) equals the average of ``phi(B - X)`` over a card ``X`` drawn from ``B``. Over
   ``s`` burnt cards, ``u`` of which are pair cards (hypergeometric), the rest a uniform sample
   of the non-pair cards: ``phi(B - t·v) = sum_u Hyp(u) a(t + u, s - u)``, where ``a(t, s)`` is
   the value with ``t`` extra pair cards and ``s`` unknown non-pair cards removed — a triangular
   system solved from ``phi`` at ``B, B - v, .., B - (i + m)·v`` (the split solver's strategy
   evaluated on those shoes).

``tests/engine/test_split_maths.py`` deals whole splits on tiny shoes by brute force: the
maths' value of any re-split table is the brute force's, and no table beats the maths' own
(including every table that ignores ``p``, which the old constant re-pair recursion used).

**What is not done.** The hands' own play and the re-split choice do not react to the *values*
of the other split hands' cards (a strategy over all the hands' cards is a tree far beyond the
30 s budget): the figure is the exact value of the strategy played, a lower bound on the best
play's; on a 16-card shoe the brute force puts the best play over every card seen under 0.01
stakes per split above it. Split ten-values of one rank (rank-only splits) after a ten up card
use the up card's chance of being that rank.
"""

from __future__ import annotations

import math

from ._handdp import SPLIT_CAP, Game, _Solver, _sub, _vec, ten_ranks


def _falling(x: float, j: int) -> float:
    out = 1.0
    for t in range(j):
        out *= x - t
    return out


def hypergeometric(u: int, s: int, pairs: float, n: float) -> float:
    """P(u pair cards among s drawn from n cards holding ``pairs``; ``pairs`` may be an
    expectation, for rank-only splits of ten-values)."""
    den = _falling(n, s)
    if den <= 0:
        return 0.0
    return math.comb(s, u) * _falling(pairs, u) * _falling(n - pairs, s - u) / den


class _Context:
    """Everything for one up card (or none): the unsplit solver and split solvers."""

    def __init__(self, g: Game, up: int, base: tuple[int, ...]):
        self.g, self.up, self.base = g, up, base
        self.main = _Solver(g, up, base)
        self.splits: dict[int, _Solver] = {}
        # (up, v, hands so far, hands waiting, pairs played so far, first hand) -> re-split
        self.resplit: dict[tuple[int, int, int, int, int, int], bool] = {}

    def split_solver(self, v: int) -> _Solver:
        s = self.splits.get(v)
        if s is None:
            s = _Solver(self.g, self.up, _sub(self.base, _vec(v)), pair=v)
            self.splits[v] = s
        return s

    def _limit(self, v: int) -> int:
        r = self.g.r
        if v == 1 and r.split_aces_one_card:
            return 2  # a split ace gets one card and stands: never re-split
        limit = r.split_aces_max_hands if v == 1 else r.split_max_hands
        return SPLIT_CAP if limit == 0 else min(limit, SPLIT_CAP)

    def _pairs(self, v: int, drawable: tuple[int, ...]) -> float:
        """Cards in ``drawable`` that would pair v again (same value, or same rank)."""
        r = self.g.r
        if r.split_match == "rank" and v == 10:
            tr = ten_ranks(r)
            return max(4 * r.decks - 2 - (1 / len(tr) if self.up == 10 else 0.0), 0.0)
        return float(drawable[v - 1])

    def split_ev(self, v: int) -> float:
        """EV (per unit original stake, all hands) of splitting a pair of value v, re-splits
        decided by composition (recorded in ``resplit``)."""
        return self._split_value(v)

    def resplit_value(self, v: int, table: dict[tuple[int, ...], bool]) -> float:
        """The exact EV of splitting v with another re-split ``table`` (keyed as ``resplit``;
        the tests compare it with a brute-force enumeration and with the maths' own)."""
        return self._split_value(v, table)

    # -- the re-split decisions and the exact value of the strategy ------------------------
    def _split_value(self, v: int, table: dict[tuple[int, ...], bool] | None = None) -> float:
        g = self.g
        s0 = self.split_solver(v)
        one, two = _vec(v), _vec(v, v)
        a12_one = one[0] if g.fixed_aces else 0
        a12_two = two[0] if g.fixed_aces else 0
        drawable = s0.comp(one)  # the shoe a split hand's second card comes from
        n0, p0 = sum(drawable), self._pairs(v, drawable)
        limit = self._limit(v)
        solvers: dict[int, _Solver | None] = {0: s0}
        phis: dict[tuple[int, int, int], float] = {}

        def solver(i: int) -> _Solver | None:
            """The split strategy played from the shoe less i more pair cards."""
            if i not in solvers:
                base = tuple(c - (i * (j == v - 1)) for j, c in enumerate(s0.base))
                ok = base[v - 1] >= 1
                solvers[i] = _Solver(g, self.up, base, v, policy=s0.memo) if ok else None
            return solvers[i]

        def phi(kind: int, i: int, f: int) -> float:
            """kind 0: a hand holding v, its second card to come; 1: a hand holding v, v."""
            key = (kind, i, f if g.obbo else 1)
            if key not in phis:
                s = solver(i)
                if s is None or s.base[v - 1] < 1 + kind:  # not in the shoe: weight 0
                    phis[key] = 0.0
                elif kind == 0:
                    phis[key] = s.ev(one, a12_one, 0, 1, 0, key[2])[0]
                else:
                    phis[key] = s.after_card(two, a12_two, 0, 1, 0, key[2])
            return phis[key]

        avgs: dict[tuple[int, int, int, int], float] = {}

        def avg(kind: int, i: int, m: int, f: int) -> float:
            """phi averaged over m unknown non-pair cards removed (the triangular system)."""
            key = (kind, i, m, f if g.obbo else 1)
            if key in avgs:
                return avgs[key]
            memo: dict[tuple[int, int], float] = {}

            def a(t: int, s: int) -> float:
                if s == 0:
                    return phi(kind, i + t, f)
                if (t, s) not in memo:
                    pt, nt = p0 - i - t - kind, n0 - i - t - kind
                    acc = phi(kind, i + t, f)
                    for u in range(1, s + 1):
                        w = hypergeometric(u, s, pt, nt)
                        if w:
                            acc -= w * a(t + u, s - u)
                    h0 = hypergeometric(0, s, pt, nt)
                    memo[(t, s)] = acc / h0 if h0 > 0 else 0.0
                return memo[(t, s)]

            avgs[key] = a(0, m)
            return avgs[key]

        wmemo: dict[tuple[int, int, int, int, int], float] = {}

        def W(h: int, k: int, i: int, m: int, f: int) -> float:
            """Value of the k hands still waiting for a second card, the current one first,
            re-splits decided to maximise it: h hands so far, i extra pair cards and m non-pair
            second cards known removed (a pair card drawn and played, not re-split, adds to i
            without adding a hand: ``i - (h - 2)`` such hands so far)."""
            if k == 0:
                return 0.0
            f = f if g.obbo else 1  # without OBBO every hand is settled as a first hand
            key = (h, k, i, m, f)
            if key in wmemo:
                return wmemo[key]
            if h >= limit:  # no re-split left: every second card is just a card
                val = avg(0, i, m, f) + (k - 1) * avg(0, i, m, 0)
            else:
                pn, nn = p0 - i, n0 - i - m
                q = pn / nn if nn > 0 and pn > 0 else 0.0
                # second card not a pair card: (1-q) E[hand | not pair] = E[hand] - q E[v, v]
                val = avg(0, i, m, f) - q * avg(1, i, m, f) + (1 - q) * W(h, k - 1, i, m + 1, 0)
                if q > 0:
                    # a pair card: re-split, or play v, v, whichever is worth more given what
                    # the re-split structure has revealed (both values exact)
                    play = avg(1, i, m, f) + W(h, k - 1, i + 1, m, 0)
                    again = W(h + 1, k + 1, i + 1, m, f)
                    dk = (self.up, v, h, k, i - (h - 2), f)
                    yes = again > play if table is None else table[dk]
                    if table is None:
                        self.resplit[dk] = yes
                    val += q * (again if yes else play)
            wmemo[key] = val
            return val

        for f in (1, 0) if g.obbo else (1,):  # the split strategy, before any smaller shoe
            phi(0, 0, f)  # plays it (every state they reach is in its table)
        return W(2, 2, 0, 0, 1)
