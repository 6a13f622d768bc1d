"""Numba kernels for the game maths and the simulator (imported lazily; never by the engine core).

The web process imports ``tables.engine`` only; this module pulls in numba, so it is imported
by :mod:`tables.engine.gamemath` and :mod:`tables.engine.simulator` alone. Kernels are compiled
with ``cache=True`` (the first run in a fresh clone spends a few seconds compiling).

Dealer outcome vector (length :data:`NOUT`): index 0..21 a standing total (totals under the
stand total appear only with a dealer card limit and no dealer Five Card Trick), 22 bust,
23 Pontoon (ace + ten-value as the first two cards), 24 dealer Five Card Trick.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NOUT = 25
BUST, PONTOON, FIVE = 22, 23, 24


@njit(cache=True)
def _dealer_rec(counts, rem, hard, ace, n, first, prob, out, st, h17, limit, fct, excl):
    if rem <= 0:
        return
    for v in range(1, 11):
        c = counts[v - 1]
        if c == 0:
            continue
        p = prob * c / rem
        nh = hard + v
        na = ace or v == 1
        nn = n + 1
        f = first if n > 0 else v
        if nn == 2 and ((f == 1 and v == 10) or (f == 10 and v == 1)):
            if not excl:
                out[23] += p
            continue
        if nh > 21:
            out[22] += p
            continue
        soft = na and nh <= 11
        tot = nh + 10 if soft else nh
        if limit > 0 and nn >= limit:
            if fct and nn == 5:
                out[24] += p
            else:
                out[tot] += p
            continue
        if nn >= 2 and (tot > st or (tot == st and not (soft and h17))):
            out[tot] += p
            continue
        counts[v - 1] = c - 1
        _dealer_rec(counts, rem - 1, nh, na, nn, f, p, out, st, h17, limit, fct, excl)
        counts[v - 1] = c


@njit(cache=True)
def dealer_dist(counts, up, st, h17, limit, fct, excl):
    """Final-result distribution of a dealer holding ``up`` (0: no card yet) who draws from
    ``counts`` (cards left by value, index 0 = ace .. 9 = ten-value) under the rule
    (stand total ``st``, ``h17`` hits a soft stand total, card ``limit`` (0 none), dealer Five
    Card Trick ``fct``). ``excl``: drop the Pontoon mass (a peeked game: weights then sum to
    P(no dealer Pontoon))."""
    out = np.zeros(NOUT)
    work = counts.copy()
    rem = 0
    for i in range(10):
        rem += work[i]
    hard = np.int64(up)
    ace = up == 1
    n = np.int64(1 if up > 0 else 0)
    first = np.int64(up)
    _dealer_rec(work, rem, hard, ace, n, first, 1.0, out, st, h17, limit, fct, excl)
    return out
