# ruff: noqa: SIM102, SIM108, RUF059  (numba kernel: flat branches kept for readability)
"""Numba kernel of the simulator: one box, one bet, the engine's rules specialised to arrays.

Every rule here mirrors ``round.py`` / ``settlement.py`` (deal order, stops, forced draws, split
and double conditions, dealer drawing only when a hand needs it, the order of judgement);
``tests/engine/test_simulator.py`` plays the same shuffled shoes through both and compares
every settled amount. Cards are ints ``suit * 13 + rank - 1`` (suits S H D C, ranks A..K).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# int parameter slots
(
    I_SPANISH,
    I_DECKS,
    I_FRESH,
    I_CUT,
    I_DEALER_TWO,
    I_PEEK,
    I_ST,
    I_H17,
    I_BANKER,
    I_DLIMIT,
    I_DFCT,
    I_PLIMIT,
    I_MIN_STAND,
    I_STAND_HARD,
    I_SOFT21_STOPS,
    I_FORCED4,
    I_BUY_TWIST,
    I_DBL_MAX,
    I_DBL_MASK,
    I_DBL_SEQ,
    I_DBL_STAND,
    I_FIXED_ACES,
    I_AUTO_DRAW,
    I_DAS,
    I_DBL_SPLIT_ACES,
    I_RESCUE,
    I_SURRENDER,
    I_SUR_RANKS,
    I_SUR_VOID,
    I_SPLIT_MAX,
    I_SPLIT_RANK,
    I_SPLIT_ONLY_ACES,
    I_SPLIT_ACES,
    I_SPLIT_ACES_MAX,
    I_SPLIT_ACES_ONE,
    I_SPLIT_PONTOON,
    I_INSURANCE,
    I_EVEN_MONEY,
    I_PONTOON_AT_ONCE,
    I_PONTOON_SECOND_ONLY,
    I_PFCT,
    I_FCT_AT_ONCE,
    I_21_AT_ONCE,
    I_P21_WINS,
    I_OBBO,
    I_PUSH,
    I_BONUS_DOUBLED,
    I_SUPER_RANK,
    I_NPARAMS,
) = range(49)

F_WIN, F_PONTOON, F_FCT, F_EVEN, F_SUR, F_SUPER, F_NPARAMS = range(7)

# codes shared with gamemath
STAND, HIT, DOUBLE, BUY, TWIST, RESCUE, SURRENDER, SPLIT, PLAY = range(9)
OPEN, STOOD, BUSTED, SURRENDERED, RESCUED = range(5)
MAXH = 8
MAXC = 24
# statistics slots
(
    S_WIN,
    S_LOSE,
    S_PUSH,
    S_PONTOON,
    S_FIVE,
    S_BUST,
    S_DOUBLE,
    S_SPLIT,
    S_SURRENDER,
    S_RESCUE,
    S_EVEN_MONEY,
    S_DEALER_BUST,
    S_DEALER_PONTOON,
    S_SUPER,
    S_MISS,
    S_BONUS21,
    S_NSTATS,
) = range(17)


@njit(cache=True, inline="always")
def _val(card):
    r = card % 13 + 1
    return 10 if r >= 10 else r


@njit(cache=True)
def _lookup(keys, vals, key):
    i = np.searchsorted(keys, key)
    if i < keys.shape[0] and keys[i] == key:
        return vals[i]
    return -1


@njit(cache=True)
def _hand_key(cnt):
    k = np.int64(0)
    for i in range(9, -1, -1):
        k = k * 22 + cnt[i]
    return k


@njit(cache=True)
def _state_key(up, pair, first, cnt, dbl, a12, tw, m):
    k = _hand_key(cnt)
    return ((((((k * 11 + up) * 11 + pair) * 2 + first) * 3 + dbl) * 3 + a12) * 2 + tw) * 6 + m


@njit(cache=True)
def resplit_index(up, v, hands, waiting, played, first):
    """Index of a re-split decision (also computed by ``simulator.compile_game``)."""
    k = ((up * 11 + v) * (MAXH + 1) + hands) * (MAXH + 2) + waiting
    return (k * (MAXH + 1) + played) * 2 + first


RESPLIT_SIZE = 11 * 11 * (MAXH + 1) * (MAXH + 2) * (MAXH + 1) * 2


@njit(cache=True)
def _draw(shoe, pos, lazy):
    """Next card; ``lazy``: an on-the-fly Fisher-Yates shuffle of the undealt part."""
    n = shoe.shape[0]
    p = pos[0]
    if p >= n:  # never in the presets: restart the shoe
        p = 0
    if lazy:
        j = np.random.randint(p, n)
        t = shoe[p]
        shoe[p] = shoe[j]
        shoe[j] = t
    pos[0] = p + 1
    return shoe[p]


@njit(cache=True)
def _total(cards, n, fixed):
    """(best total, soft, hard) with the first two cards' aces fixed at 1 when ``fixed``."""
    hard = 0
    flex = False
    for i in range(n):
        v = _val(cards[i])
        hard += v
        if v == 1 and not (fixed and i < 2):
            flex = True
    if flex and hard <= 11:
        return hard + 10, True, hard
    return hard, False, hard


@njit(cache=True)
def play_round(shoe, pos, lazy, P, F, ladder, bonus, keys, vals, rkeys, rvals, resplit, stats):
    """Play one round of one box with a unit stake; returns the net result, Super Bonus prize
    included at ``F[F_SUPER]`` (the prize over the stake; 0: counted in stats only)."""
    cards = np.zeros((MAXH, MAXC), dtype=np.int64)
    ncards = np.zeros(MAXH, dtype=np.int64)
    cnt = np.zeros((MAXH, 10), dtype=np.int64)
    dbl = np.zeros(MAXH, dtype=np.int64)
    added = np.zeros(MAXH, dtype=np.int64)
    tw = np.zeros(MAXH, dtype=np.int64)
    status = np.zeros(MAXH, dtype=np.int64)
    acted = np.zeros(MAXH, dtype=np.int64)
    dealer = np.zeros(MAXC, dtype=np.int64)
    nd = 0
    nh = 1
    split = False
    split_aces = False
    pair = 0
    even_money = False
    # ---- deal: box, dealer, box, [dealer]
    c = _draw(shoe, pos, lazy)
    cards[0, 0] = c
    cnt[0, _val(c) - 1] += 1
    dealer[0] = _draw(shoe, pos, lazy)
    nd = 1
    c = _draw(shoe, pos, lazy)
    cards[0, 1] = c
    cnt[0, _val(c) - 1] += 1
    ncards[0] = 2
    if P[I_DEALER_TWO]:
        dealer[1] = _draw(shoe, pos, lazy)
        nd = 2
    d0 = _val(dealer[0])
    d0rank = dealer[0] % 13 + 1
    up = d0 if not P[I_DEALER_TWO] else 0
    first_pontoon_cards = (_val(cards[0, 0]) == 1 and _val(cards[0, 1]) == 10) or (
        _val(cards[0, 0]) == 10 and _val(cards[0, 1]) == 1
    )
    if P[I_PEEK] and nd == 2:
        a, b = _val(dealer[0]), _val(dealer[1])
        if (a == 1 and b == 10) or (a == 10 and b == 1):
            stats[S_DEALER_PONTOON] += 1
            stats[S_LOSE] += 1
            return -1.0
    # insurance / even money window (insurance is never taken: negative EV)
    if (P[I_INSURANCE] or P[I_EVEN_MONEY]) and d0 == 1 and not P[I_DEALER_TWO]:
        if P[I_EVEN_MONEY] and first_pontoon_cards:
            if _lookup(rkeys, rvals, -1 - d0) == 1:
                even_money = True
    # ---- play
    i = 0
    while i < nh:
        while True:
            n = ncards[i]
            if n < 2:
                c = _draw(shoe, pos, lazy)
                cards[i, n] = c
                cnt[i, _val(c) - 1] += 1
                ncards[i] = n + 1
                continue
            fixed = dbl[i] > 0 and P[I_FIXED_ACES] == 1
            tot, soft, hard = _total(cards[i], n, fixed)
            if tot > 21:
                status[i] = BUSTED
                break
            is_pont = False
            if dbl[i] == 0 and n == 2:
                a, b = _val(cards[i, 0]), _val(cards[i, 1])
                if (a == 1 and b == 10) or (a == 10 and b == 1):
                    if (
                        not split
                        or P[I_SPLIT_PONTOON] == 2
                        or (P[I_SPLIT_PONTOON] == 1 and split_aces)
                    ):
                        is_pont = True
            if (
                is_pont
                or (tot == 21 and ((not soft) or P[I_SOFT21_STOPS] == 1))
                or (P[I_PLIMIT] > 0 and n >= P[I_PLIMIT])
                or (split_aces and P[I_SPLIT_ACES_ONE] == 1)
                or (dbl[i] > 0 and P[I_DBL_STAND] == 1)
            ):
                status[i] = STOOD
                break
            if P[I_AUTO_DRAW] > 0 and dbl[i] > 0 and hard < P[I_AUTO_DRAW]:
                c = _draw(shoe, pos, lazy)
                cards[i, n] = c
                cnt[i, _val(c) - 1] += 1
                ncards[i] = n + 1
                continue
            if P[I_FORCED4] >= 0 and n == 4 and hard <= P[I_FORCED4]:
                tw[i] = 1
                c = _draw(shoe, pos, lazy)
                cards[i, n] = c
                cnt[i, _val(c) - 1] += 1
                ncards[i] = n + 1
                continue
            # ---- a decision
            a12 = 0
            if P[I_FIXED_ACES]:
                a12 = (1 if _val(cards[i, 0]) == 1 else 0) + (1 if _val(cards[i, 1]) == 1 else 0)
            first = 1
            if P[I_OBBO] and i > 0:
                first = 0
            # split possible?
            can_split = False
            if P[I_SPLIT_MAX] != 1 and n == 2 and dbl[i] == 0 and added[i] == 0 and tw[i] == 0:
                r1 = cards[i, 0] % 13 + 1
                r2 = cards[i, 1] % 13 + 1
                v1 = _val(cards[i, 0])
                aces = r1 == 1 and r2 == 1
                ok = v1 == _val(cards[i, 1])
                if aces and not P[I_SPLIT_ACES]:
                    ok = False
                if P[I_SPLIT_ONLY_ACES] and not aces:
                    ok = False
                if P[I_SPLIT_RANK] and r1 != r2:
                    ok = False
                limit = P[I_SPLIT_ACES_MAX] if aces else P[I_SPLIT_MAX]
                if limit > 0 and nh >= limit:
                    ok = False
                if nh >= MAXH:
                    ok = False
                can_split = ok
            act = -1
            if i == 0 and nh == 1 and acted[0] == 0 and n == 2:
                avail = 0
                if can_split:
                    avail |= 1
                if P[I_SURRENDER] and not P[I_DEALER_TWO] and (P[I_SUR_RANKS] >> d0rank) & 1:
                    avail |= 2
                rk = (_hand_key(cnt[i]) * 11 + up) * 4 + avail
                act = _lookup(rkeys, rvals, rk)
                if act == PLAY:
                    act = -1
            elif can_split:
                # re-split by composition: hands so far, hands waiting, and how many earlier
                # split hands were dealt a pair card and played it (each a pair card gone)
                v1 = _val(cards[i, 0])
                played = 0
                for j in range(i):
                    if _val(cards[j, 1]) == v1 and (
                        not P[I_SPLIT_RANK] or cards[j, 1] % 13 == cards[j, 0] % 13
                    ):
                        played += 1
                if resplit[resplit_index(up, v1, nh, nh - i, played, first)] == 1:
                    act = SPLIT
            if act == -1:
                key = _state_key(up, pair, first, cnt[i], dbl[i], a12, tw[i], 1 + added[i])
                act = _lookup(keys, vals, key)
                if act == -1:
                    stats[S_MISS] += 1
                    st_tot = hard if P[I_STAND_HARD] else tot
                    act = STAND if st_tot >= P[I_MIN_STAND] else (TWIST if P[I_BUY_TWIST] else HIT)
            acted[i] = 1
            if act == STAND:
                status[i] = STOOD
                break
            if act == SURRENDER:
                status[i] = SURRENDERED
                stats[S_SURRENDER] += 1
                break
            if act == SPLIT:
                stats[S_SPLIT] += 1
                aces = _val(cards[i, 0]) == 1
                if not split:
                    pair = _val(cards[i, 0])
                split = True
                split_aces = aces
                # insert the new hand at i + 1
                for j in range(nh, i + 1, -1):
                    cards[j] = cards[j - 1]
                    ncards[j] = ncards[j - 1]
                    cnt[j] = cnt[j - 1]
                    dbl[j] = dbl[j - 1]
                    added[j] = added[j - 1]
                    tw[j] = tw[j - 1]
                    status[j] = status[j - 1]
                    acted[j] = acted[j - 1]
                sc = cards[i, 1]
                cards[i + 1, 0] = sc
                ncards[i + 1] = 1
                cnt[i + 1, :] = 0
                cnt[i + 1, _val(sc) - 1] = 1
                dbl[i + 1] = 0
                added[i + 1] = 0
                tw[i + 1] = 0
                status[i + 1] = OPEN
                acted[i + 1] = 0
                cnt[i, _val(sc) - 1] -= 1
                ncards[i] = 1
                acted[i] = 0
                nh += 1
                continue
            if act == DOUBLE:
                stats[S_DOUBLE] += 1
                dbl[i] += 1
                added[i] += 1
                c = _draw(shoe, pos, lazy)
                cards[i, n] = c
                cnt[i, _val(c) - 1] += 1
                ncards[i] = n + 1
                if P[I_DBL_STAND]:
                    t2, s2, h2 = _total(cards[i], n + 1, P[I_FIXED_ACES] == 1)
                    if t2 > 21:
                        status[i] = BUSTED
                    elif P[I_RESCUE] and t2 < 21:
                        a12b = 0
                        if P[I_FIXED_ACES]:
                            a12b = (1 if _val(cards[i, 0]) == 1 else 0) + (
                                1 if _val(cards[i, 1]) == 1 else 0
                            )
                        key = _state_key(up, pair, first, cnt[i], dbl[i], a12b, tw[i], 1 + added[i])
                        ra = _lookup(keys, vals, key)
                        if ra == RESCUE:
                            status[i] = RESCUED
                            stats[S_RESCUE] += 1
                        else:
                            if ra == -1:
                                stats[S_MISS] += 1
                            status[i] = STOOD
                    else:
                        status[i] = STOOD
                    break
                continue
            if act == BUY:
                added[i] += 1
            if act == TWIST:
                tw[i] = 1
            c = _draw(shoe, pos, lazy)
            cards[i, n] = c
            cnt[i, _val(c) - 1] += 1
            ncards[i] = n + 1
        i += 1
    # ---- dealer: draws only when a hand still needs the result
    need_full = False
    need_second = False
    for i in range(nh):
        if status[i] == STOOD:
            n = ncards[i]
            fixed = dbl[i] > 0 and P[I_FIXED_ACES] == 1
            tot, soft, hard = _total(cards[i], n, fixed)
            decided = False
            if even_money and i == 0:
                decided = True
            if P[I_FCT_AT_ONCE] and P[I_PFCT] and n == 5 and tot <= 21:
                decided = True
            if P[I_21_AT_ONCE] and tot == 21:
                decided = True
            pontoon = False
            if dbl[i] == 0 and n == 2:
                a, b = _val(cards[i, 0]), _val(cards[i, 1])
                if (a == 1 and b == 10) or (a == 10 and b == 1):
                    pontoon = (
                        not split
                        or P[I_SPLIT_PONTOON] == 2
                        or (P[I_SPLIT_PONTOON] == 1 and split_aces)
                    )
            if pontoon and P[I_PONTOON_AT_ONCE] and d0 != 1 and d0 != 10:
                decided = True
            if not decided:
                if pontoon and P[I_PONTOON_SECOND_ONLY]:
                    need_second = True
                else:
                    need_full = True
        elif status[i] == SURRENDERED and P[I_SUR_VOID]:
            need_second = True
    if need_full or need_second:
        while True:
            if nd < 2:
                dealer[nd] = _draw(shoe, pos, lazy)
                nd += 1
                continue
            dt, ds, dh = _total(dealer, nd, False)
            a, b = _val(dealer[0]), _val(dealer[1])
            dpont = nd == 2 and ((a == 1 and b == 10) or (a == 10 and b == 1))
            if dpont or (not need_full) or dt > 21 or (P[I_DLIMIT] > 0 and nd >= P[I_DLIMIT]):
                break
            if P[I_BANKER]:
                if dt == 21 and not ds:
                    break
                if dt < P[I_ST]:
                    dealer[nd] = _draw(shoe, pos, lazy)
                    nd += 1
                    continue
                break
            if dt < P[I_ST] or (dt == P[I_ST] and ds and P[I_H17]):
                dealer[nd] = _draw(shoe, pos, lazy)
                nd += 1
                continue
            break
    # ---- settlement (settlement.py's order of judgement)
    dt, ds, dh = _total(dealer, nd, False)
    dpont = False
    if nd == 2:
        a, b = _val(dealer[0]), _val(dealer[1])
        dpont = (a == 1 and b == 10) or (a == 10 and b == 1)
    dbust = dt > 21
    if dpont:
        drank, dtot = 3, 0
        stats[S_DEALER_PONTOON] += 1
    elif P[I_DFCT] and nd == 5 and dt <= 21:
        drank, dtot = 2, 0
    else:
        drank, dtot = 1, dt
    if dbust and nd >= 2:
        stats[S_DEALER_BUST] += 1
    net = 0.0
    for i in range(nh):
        base = 1.0
        m = 1.0 + added[i]
        n = ncards[i]
        if status[i] == BUSTED:
            net -= m
            stats[S_BUST] += 1
            continue
        if status[i] == RESCUED:
            net -= base
            continue
        if status[i] == SURRENDERED:
            if P[I_SUR_VOID] and dpont:
                net -= m
            else:
                net += F[F_SUR] * base - base
            continue
        if even_money and i == 0:
            net += m * F[F_EVEN]
            stats[S_EVEN_MONEY] += 1
            continue
        fixed = dbl[i] > 0 and P[I_FIXED_ACES] == 1
        tot, soft, hard = _total(cards[i], n, fixed)
        pont = False
        if dbl[i] == 0 and n == 2:
            a, b = _val(cards[i, 0]), _val(cards[i, 1])
            if (a == 1 and b == 10) or (a == 10 and b == 1):
                if not split or P[I_SPLIT_PONTOON] == 2 or (P[I_SPLIT_PONTOON] == 1 and split_aces):
                    pont = True
        fct = P[I_PFCT] == 1 and n == 5 and tot <= 21
        # win odds (settlement.win_kind)
        if pont:
            odds = F[F_PONTOON]
        elif fct:
            odds = F[F_FCT]
        else:
            odds = F[F_WIN]
            if (dbl[i] == 0 or P[I_BONUS_DOUBLED]) and tot == 21:
                found = False
                if n == 3:
                    r0 = cards[i, 0] % 13 + 1
                    r1 = cards[i, 1] % 13 + 1
                    r2 = cards[i, 2] % 13 + 1
                    pat = -1
                    if r0 == 7 and r1 == 7 and r2 == 7:
                        pat = 1
                    elif (
                        r0 + r1 + r2 == 21
                        and r0 != r1
                        and r1 != r2
                        and r0 != r2
                        and min(r0, min(r1, r2)) >= 6
                        and max(r0, max(r1, r2)) <= 8
                    ):
                        pat = 0
                    if pat >= 0:
                        s0, s1, s2 = cards[i, 0] // 13, cards[i, 1] // 13, cards[i, 2] // 13
                        if s0 == s1 and s1 == s2:
                            klass = 2 if s0 == 0 else 1
                        else:
                            klass = 0
                        if bonus[pat, klass] >= 0:
                            odds = bonus[pat, klass]
                            found = True
                if not found and ladder[n] >= 0:
                    odds = ladder[n]
        win = m * odds
        if pont:
            stats[S_PONTOON] += 1
        if fct:
            stats[S_FIVE] += 1
        if fct and P[I_FCT_AT_ONCE]:
            net += win
            continue
        if P[I_P21_WINS] and tot == 21:
            net += win
            if odds != F[F_WIN] and not pont:
                stats[S_BONUS21] += 1
            # Super Bonus: 7-7-7 one suit, unsplit, undoubled, dealer first card rank
            if (
                P[I_SUPER_RANK] > 0
                and not split
                and dbl[i] == 0
                and n >= 3
                and d0rank == P[I_SUPER_RANK]
            ):
                if (
                    cards[i, 0] % 13 == 6
                    and cards[i, 1] % 13 == 6
                    and cards[i, 2] % 13 == 6
                    and cards[i, 0] // 13 == cards[i, 1] // 13
                    and cards[i, 1] // 13 == cards[i, 2] // 13
                ):
                    stats[S_SUPER] += 1
                    net += F[F_SUPER]
            continue
        if dpont and P[I_OBBO]:
            if i == 0:
                net -= base
            continue
        if dbust:
            net += win
            continue
        prank = 3 if pont else (2 if fct else 1)
        ptot = tot if prank == 1 else 0
        if prank > drank or (prank == drank and ptot > dtot):
            net += win
        elif prank == drank and ptot == dtot and P[I_PUSH]:
            pass
        else:
            net -= m
    if net > 1e-12:
        stats[S_WIN] += 1
    elif net < -1e-12:
        stats[S_LOSE] += 1
    else:
        stats[S_PUSH] += 1
    return net


@njit(cache=True)
def run_block(seed, n_rounds, shoe, P, F, ladder, bonus, keys, vals, rkeys, rvals, resplit, stats):
    """Play ``n_rounds`` from a lazily shuffled shoe (fresh each round or to the cut card)."""
    np.random.seed(seed)
    pos = np.zeros(1, dtype=np.int64)
    total = 0.0
    total2 = 0.0
    for _ in range(n_rounds):
        if P[I_FRESH] or pos[0] >= P[I_CUT]:
            pos[0] = 0
        x = play_round(
            shoe, pos, True, P, F, ladder, bonus, keys, vals, rkeys, rvals, resplit, stats
        )
        total += x
        total2 += x * x
    return total, total2


@njit(cache=True)
def run_given(order, P, F, ladder, bonus, keys, vals, rkeys, rvals, resplit, stats, out):
    """Play rounds from a given shoe order (no shuffling) until the cut card (or one round in a
    fresh-each-round game); per-round nets go to ``out``; returns the number of rounds."""
    pos = np.zeros(1, dtype=np.int64)
    k = 0
    while True:
        x = play_round(
            order, pos, False, P, F, ladder, bonus, keys, vals, rkeys, rvals, resplit, stats
        )
        out[k] = x
        k += 1
        if P[I_FRESH] or pos[0] >= P[I_CUT] or k >= out.shape[0]:
            break
    return k
