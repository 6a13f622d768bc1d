"""Settlement maths: every bet on every hand gets one independent ledger line.

Money is integer minor units. A win at odds a:b on a total stake S pays
``S + floor(S * a / b)``; the part rounded away is ``remainder``, an exact
:class:`~fractions.Fraction` of one minor unit (``(S * a mod b) / b``). Halving (surrender)
rounds down the same way. Envy bonuses and insurance are lines of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import RoundNotComplete
from .round import RoundState
from .rules import Odds
from .state import Hand, HandStatus, Phase

WIN_RESULTS = ("win", "pontoon", "five_card_trick", "even_money", "insurance_win")
NO_ODDS: Odds = (0, 1)


@dataclass(frozen=True)
class BetSettlement:
    bet_id: str
    player_id: str
    hand: tuple[int, int]  # (box, hand_index); insurance lines name hand 0 of the box
    result: str  # win pontoon five_card_trick even_money lose bust push surrender
    # surrender_void rescue obbo_returned insurance_win insurance_lose envy_bonus void_returned
    odds: Odds  # odds applied to the winnings ((0, 1) when none)
    odds_kind: str  # which schedule row: win, pontoon, 21_6_cards, 777_spades, ...
    stake: int  # this bet's total stake on this hand (doubles, buys, matches included)
    stake_returned: int
    winnings: int
    bonus: int = 0
    bonus_kind: str = ""  # super_bonus | envy
    remainder: Fraction = field(default=Fraction(0))  # minor units rounded away, exact

    @property
    def paid(self) -> int:
        return self.stake_returned + self.winnings + self.bonus

    def to_json(self) -> dict[str, Any]:
        return {
            "bet_id": self.bet_id,
            "player_id": self.player_id,
            "hand": list(self.hand),
            "result": self.result,
            "odds": list(self.odds),
            "odds_kind": self.odds_kind,
            "stake": self.stake,
            "stake_returned": self.stake_returned,
            "winnings": self.winnings,
            "bonus": self.bonus,
            "bonus_kind": self.bonus_kind,
            "paid": self.paid,
            "remainder": f"{self.remainder.numerator}/{self.remainder.denominator}",
        }


@dataclass(frozen=True)
class RoundSettlement:
    lines: list[BetSettlement]
    void: bool = False

    @property
    def total_stake(self) -> int:
        return sum(x.stake for x in self.lines)

    @property
    def total_paid(self) -> int:
        return sum(x.paid for x in self.lines)

    def for_bet(self, bet_id: str) -> list[BetSettlement]:
        return [x for x in self.lines if x.bet_id == bet_id]

    def to_json(self) -> dict[str, Any]:
        return {"void": self.void, "lines": [x.to_json() for x in self.lines]}


_NOTHING = Fraction(0)


def _odds_pay(stake: int, odds: Odds) -> tuple[int, Fraction]:
    a, b = odds
    q, r = divmod(stake * a, b)
    return q, (Fraction(r, b) if r else _NOTHING)


def _three_card_kind(hand: Hand) -> tuple[str, str] | None:
    c = hand.cards
    if len(c) != 3:
        return None
    ranks = sorted(x.rank for x in c)
    pattern = "678" if ranks == [6, 7, 8] else "777" if ranks == [7, 7, 7] else None
    if pattern is None:
        return None
    suits = {x.suit for x in c}
    klass = ("spades" if "S" in suits else "suited") if len(suits) == 1 else "mixed"
    return pattern, klass


class _Judge:
    def __init__(self, state: RoundState):
        self.s = state
        self.r = state.rules
        self.p = state.payouts
        d = state.dealer
        self.dealer_pontoon = state.dealer_pontoon()
        dv = state.dealer_value()
        self.dealer_bust = dv.total > 21
        if self.dealer_pontoon:
            self.dealer_rank = (3, 0)
        elif self.r.dealer_five_card_trick and len(d) == 5 and dv.total <= 21:
            self.dealer_rank = (2, 0)
        else:
            self.dealer_rank = (1, dv.total)
        # Per hand, what every bet on it shares (a box may carry hundreds of bets behind).
        self._hand_facts: dict[tuple[int, int], tuple[bool, bool, int]] = {}
        self._win_kinds: dict[tuple[int, int], tuple[str, str, Odds]] = {}

    def hand_facts(self, box: int, i: int, h: Hand) -> tuple[bool, bool, int]:
        """(pontoon, five-card trick, total) of a hand, worked out once."""
        facts = self._hand_facts.get((box, i))
        if facts is None:
            s = self.s
            facts = (s.is_pontoon(h), s.is_five_card_trick(h), s.value(h).total)
            self._hand_facts[(box, i)] = facts
        return facts

    def line(
        self,
        bet_id: str,
        box: int,
        i: int,
        result: str,
        stake: int,
        returned: int,
        odds: Odds = NO_ODDS,
        kind: str = "",
        win_on: int = 0,
        remainder: Fraction = Fraction(0),
    ) -> BetSettlement:
        winnings = 0
        if win_on:
            winnings, remainder = _odds_pay(win_on, odds)
        return BetSettlement(
            bet_id,
            self.s.bets[bet_id].player_id,
            (box, i),
            result,
            odds,
            kind,
            stake,
            returned,
            winnings,
            0,
            "",
            remainder,
        )

    def win_kind(self, h: Hand) -> tuple[str, str, Odds]:
        s, p = self.s, self.p
        if s.is_pontoon(h):
            return "pontoon", "pontoon", p.pontoon
        if s.is_five_card_trick(h):
            return "five_card_trick", "five_card_trick", p.five_card_trick
        if (not h.doubles or p.bonus_odds_on_doubled) and s.value(h).total == 21:
            three = _three_card_kind(h)
            if three is not None:
                for pattern, klass, odds in p.three_card_bonuses:
                    if (pattern, klass) == three:
                        return "win", f"{pattern}_{klass}", odds
            n = len(h.cards)
            best = None
            for count, odds in p.twenty_one_by_cards:
                if count <= n:
                    best = (count, odds)
            if best is not None:
                return "win", f"21_{n}_cards", best[1]
        return "win", "win", p.win

    def judge(self, box: int, i: int, h: Hand, bet_id: str) -> BetSettlement:
        s, r = self.s, self.r
        base, added, _ = h.stakes[bet_id]
        total = base + added

        def win() -> BetSettlement:
            found = self._win_kinds.get((box, i))
            if found is None:
                found = self._win_kinds[(box, i)] = self.win_kind(h)
            result, kind, odds = found
            return self.line(bet_id, box, i, result, total, total, odds, kind, total)

        def lose(result: str = "lose") -> BetSettlement:
            return self.line(bet_id, box, i, result, total, 0)

        if h.status == HandStatus.BUST:
            return lose("bust")
        if h.status == HandStatus.RESCUED:
            return self.line(bet_id, box, i, "rescue", total, added)
        if h.status == HandStatus.SURRENDERED:
            if r.surrender_void_on_dealer_pontoon and self.dealer_pontoon:
                return lose("surrender_void")
            back, rem = _odds_pay(base, r.surrender_return)
            return self.line(bet_id, box, i, "surrender", total, back + added, remainder=rem)
        if s.bets[bet_id].even_money and i == 0:
            return self.line(
                bet_id, box, i, "even_money", total, total, self.p.even_money, "even_money", total
            )
        pontoon, fct, total_value = self.hand_facts(box, i, h)
        if fct and r.five_card_trick_decided_at_once:
            return win()
        if r.player_21_always_wins and total_value == 21:
            return win()
        if self.dealer_pontoon and r.dealer_pontoon_rule == "obbo":
            if i == 0:
                return self.line(bet_id, box, i, "lose", total, added)
            return self.line(bet_id, box, i, "obbo_returned", total, total)
        if self.dealer_bust:
            return win()
        rank = (3, 0) if pontoon else (2, 0) if fct else (1, total_value)
        if rank > self.dealer_rank:
            return win()
        if rank == self.dealer_rank and r.tie_rule == "push":
            return self.line(bet_id, box, i, "push", total, total)
        return lose()

    def insurance(self, bet_id: str) -> BetSettlement:
        bet = self.s.bets[bet_id]
        amt = bet.insurance
        if self.dealer_pontoon:
            return self.line(
                bet_id, bet.box, 0, "insurance_win", amt, amt, self.p.insurance, "insurance", amt
            )
        return self.line(bet_id, bet.box, 0, "insurance_lose", amt, 0)


def _stakes(state: RoundState):
    for b, box in state.boxes.items():
        for i, h in enumerate(box.hands):
            if h.status == HandStatus.WITHDRAWN:
                continue
            for bet_id, (base, added, _) in h.stakes.items():
                if base + added:
                    yield b, i, h, bet_id


def settle(state: RoundState) -> RoundSettlement:
    """Settle a complete round, following the spec's order of judgement."""
    if state.phase != Phase.COMPLETE:
        raise RoundNotComplete(f"the round is in phase '{state.phase}'; settle it when complete")
    j = _Judge(state)
    lines = [j.judge(b, i, h, bet_id) for b, i, h, bet_id in _stakes(state)]
    lines += [j.insurance(k) for k, bet in state.bets.items() if bet.insurance]
    return RoundSettlement(_with_bonuses(state, lines))


def _with_bonuses(state: RoundState, lines: list[BetSettlement]) -> list[BetSettlement]:
    p = state.payouts
    if not p.super_bonus_tiers or not state.dealer:
        return lines
    if state.dealer[0].code[0] != p.super_bonus_dealer_rank:
        return lines
    out: list[BetSettlement] = []
    prized: dict[tuple[int, int], bool] = {}  # Super Bonus hand -> some bet on it won a prize
    for line in lines:
        box, i = line.hand
        h = state.boxes[box].hands[i]
        c = h.cards
        if (
            line.result == "win"
            and not h.split
            and not h.doubles
            and len(c) >= 3
            and c[0].rank == c[1].rank == c[2].rank == 7
            and c[0].suit == c[1].suit == c[2].suit
        ):
            base = h.stakes[line.bet_id][0]
            prize = 0
            for lo, amount in p.super_bonus_tiers:
                if base >= lo:
                    prize = amount
            if prize:
                line = BetSettlement(
                    **{**line.__dict__, "bonus": prize, "bonus_kind": "super_bonus"}
                )
            prized[(box, i)] = prized.get((box, i), False) or bool(prize)
        out.append(line)
    if p.envy_bonus:
        # §3.3 (clarified 2026-12-01): envy follows a prize actually paid on the hand, and goes
        # only to players with no bet on that hand (a below-tier bet on it gets neither).
        first_bet: dict[str, str] = {}
        for _, _, _, bet_id in _stakes(state):
            first_bet.setdefault(state.bets[bet_id].player_id, bet_id)
        for (box, i), any_prize in prized.items():
            if not any_prize:
                continue
            on_hand = {
                state.bets[k].player_id
                for k, (base, added, _) in state.boxes[box].hands[i].stakes.items()
                if base + added
            }
            for player, bet_id in first_bet.items():
                if player not in on_hand:
                    out.append(
                        BetSettlement(
                            bet_id,
                            player,
                            (box, i),
                            "envy_bonus",
                            NO_ODDS,
                            "envy",
                            0,
                            0,
                            0,
                            p.envy_bonus,
                            "envy",
                        )
                    )
    return out


def _pontoon_decided_by_the_dealers_cards(state: RoundState, h: Hand) -> bool:
    """Only a dealer Pontoon beats a Pontoon, and in the dealer's phase (the dealer's cards face
    up) a dealer Pontoon on two cards has ended the round: a Pontoon there has won."""
    return (
        state.rules.void_pays_pontoon_after_dealer_two_cards
        and state.phase == Phase.DEALER
        and len(state.dealer) >= 2
        and state.is_pontoon(h)
    )


def settle_void(state: RoundState) -> RoundSettlement:
    """Void (§8): outcomes already decided stand (a decided win, such as a crown 21, is paid at
    its odds; no prizes); every undecided stake is returned."""
    j = _Judge(state)
    lines: list[BetSettlement] = []
    for b, i, h, bet_id in _stakes(state):
        if (
            h.status in (HandStatus.BUST, HandStatus.RESCUED, HandStatus.SURRENDERED)
            or (state.phase != Phase.BETTING and state.decided_at_once(h, bet_id))
            or _pontoon_decided_by_the_dealers_cards(state, h)
            or (
                state.rules.void_stands_once_the_dealer_has_finished
                and state.phase == Phase.COMPLETE
            )
        ):
            if h.status == HandStatus.SURRENDERED:
                base, added, _ = h.stakes[bet_id]
                back, rem = _odds_pay(base, state.rules.surrender_return)
                lines.append(
                    j.line(bet_id, b, i, "surrender", base + added, back + added, remainder=rem)
                )
            else:
                lines.append(j.judge(b, i, h, bet_id))
        else:
            total = sum(h.stakes[bet_id][:2])
            lines.append(j.line(bet_id, b, i, "void_returned", total, total))
    for k, bet in state.bets.items():
        if bet.insurance:
            if len(state.dealer) >= 2:
                lines.append(j.insurance(k))
            else:
                lines.append(j.line(k, bet.box, 0, "void_returned", bet.insurance, bet.insurance))
    return RoundSettlement(lines, void=True)
