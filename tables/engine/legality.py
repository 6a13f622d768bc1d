"""What the rules say about a round as it stands: hand facts (totals, Pontoon, five-card trick,
decided at once), whose turn it is, where the next card goes, which actions and amounts are
legal now, and whether a new bet may be placed (:func:`bet_check`). Read-only: nothing here
changes the state (the handlers in :mod:`.round` do)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import HandValue, hand_total, is_ace_and_ten
from .errors import IllegalAction, InvalidEvent
from .events import BetPlaced
from .rules import RuleSet
from .state import (
    DEALER_TARGET,
    DEALER_TURN,
    Action,
    Box,
    CardTarget,
    Hand,
    HandStatus,
    Phase,
    RoundStateBase,
    TableLimits,
    TargetKind,
    Turn,
    TurnKind,
    is_int,
)

_NO_ACE_ONE: frozenset[int] = frozenset()
_FIRST_TWO = frozenset((0, 1))
# A stake with no table maximum is still bounded (minor units).
NO_MAX_STAKE = 10**15


class RoundQueries(RoundStateBase):
    """The round's data with the rules' read-only queries (``RoundState`` adds the handlers)."""

    # ------------------------------------------------------------------ hand facts
    def value(self, hand: Hand) -> HandValue:
        fixed = _FIRST_TWO if hand.doubles and self.rules.double_aces_count_one else _NO_ACE_ONE
        return hand_total(hand.cards, fixed)

    def is_pontoon(self, hand: Hand) -> bool:
        if hand.doubles or not is_ace_and_ten(hand.cards):
            return False
        if not hand.split:
            return True
        sp = self.rules.split_pontoon
        return sp == "any" or (sp == "split_aces" and hand.split_aces)

    def is_five_card_trick(self, hand: Hand) -> bool:
        return (
            self.rules.player_five_card_trick
            and len(hand.cards) == 5
            and self.value(hand).total <= 21
        )

    def dealer_value(self) -> HandValue:
        return hand_total(self.dealer)

    def dealer_pontoon(self) -> bool:
        return is_ace_and_ten(self.dealer)

    def decided_at_once(self, hand: Hand, bet_id: str | None = None) -> bool:
        """The hand's result is already fixed whatever the dealer makes (for this bet)."""
        if hand.status in (HandStatus.BUST, HandStatus.RESCUED, HandStatus.WITHDRAWN):
            return True
        if hand.status == HandStatus.SURRENDERED:
            return not self.rules.surrender_void_on_dealer_pontoon
        if self.peeked_pontoon:
            return True
        if (
            bet_id is not None
            and self.bets[bet_id].even_money
            and hand is self.boxes[self.bets[bet_id].box].hands[0]
        ):
            return True
        if self.rules.five_card_trick_decided_at_once and self.is_five_card_trick(hand):
            return True
        if self.rules.twenty_one_decided_at_once and self._stops_at_21(hand):
            return True
        return bool(
            self.rules.pontoon_decided_at_once
            and self.is_pontoon(hand)
            and self.dealer
            and not (self.dealer[0].is_ace or self.dealer[0].is_ten_value)
        )

    def _stops_at_21(self, hand: Hand) -> bool:
        """A 21 that takes no further card (a soft 21 that may still draw is not final)."""
        v = self.value(hand)
        return v.total == 21 and (
            hand.status == HandStatus.STOOD
            or not v.soft
            or self.rules.soft_21_stops
            or self.is_pontoon(hand)
        )

    def _current(self) -> tuple[Box, Hand]:
        """The box and hand at the cursor (the hand that is playing)."""
        assert self.cursor is not None, "no hand is playing"
        b, i = self.cursor
        box = self.boxes[b]
        return box, box.hands[i]

    # ------------------------------------------------------------------ turn and next card
    def turn(self) -> Turn | None:
        """Who must decide now: a hand, a window's bets, the dealer, or None (betting, a card is
        due, or the round is complete)."""
        w = self.window
        if w is not None:
            if w.kind == TurnKind.MATCH:
                return Turn(TurnKind.MATCH, w.box, w.hand_index, tuple(w.pending))
            return Turn(w.kind, bets=tuple(w.pending))
        if self.phase == Phase.PLAYING and self.cursor is not None:
            b, i = self.cursor
            if not self.boxes[b].hands[i].awaiting:
                return Turn(TurnKind.HAND, b, i)
        if self.phase == Phase.DEALER and self.dealer_mode == "decision":
            return DEALER_TURN
        return None

    def next_card_target(self) -> CardTarget | None:
        """Where the next card goes (a box's hand or the dealer), or None."""
        if self.phase == Phase.DEALING:
            return self.deal_queue[0]
        if self.window is not None:
            return None
        if self.phase == Phase.PLAYING and self.cursor is not None:
            b, i = self.cursor
            if self.boxes[b].hands[i].awaiting:
                return CardTarget(TargetKind.BOX, b, i)
        if self.phase == Phase.DEALER and self.dealer_mode == "card":
            return DEALER_TARGET
        return None

    def next_card_forced(self) -> bool:
        """Whether the next card is a forced draw: the rules deal it to a hand without a
        decision (its position is in the hand's ``forced_cards``)."""
        if self.phase != Phase.PLAYING or self.window is not None or self.cursor is None:
            return False
        _, h = self._current()
        return h.awaiting and len(h.cards) in h.forced_cards

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, bet_id: str | None = None) -> list[Action]:
        """Actions accepted now. Hand turn: the controller's actions; windows: the actions of
        ``bet_id``; dealer turn: hit / stand. Empty when nobody is asked."""
        t = self.turn()
        if t is None:
            return []
        if t.kind == TurnKind.HAND:
            return self._hand_actions()
        if t.kind == TurnKind.DEALER:
            return [Action.HIT, Action.STAND]
        if bet_id is None or bet_id not in t.bets:
            return []
        if t.kind == TurnKind.MATCH:
            return [Action.DECLINE, Action.MATCH]
        if t.kind == TurnKind.STAKING:
            return [Action.STAKE, Action.WITHDRAW]
        acts = [Action.DECLINE]
        if self._even_money_ok(bet_id):
            acts.append(Action.EVEN_MONEY)
        if self._insurance_range(bet_id) is not None:
            acts.append(Action.INSURANCE)
        return acts

    def amount_range(self, action: str, bet_id: str | None = None) -> tuple[int, int] | None:
        """Allowed amount for an action that takes one (double, buy, split, match, insurance,
        stake) in the current turn, as an inclusive range; None if it takes none."""
        t = self.turn()
        if t is None:
            return None
        if t.kind == TurnKind.HAND:
            box, h = self._current()
            base = h.stakes[box.bet_ids[0]][0]
            if action == Action.DOUBLE:
                if self.rules.double_amount == "equal_original":
                    return (base, base)
                return (min(self.limits.min_unit, base), base)
            if action == Action.BUY:
                return (min(self.limits.min_bet, base), base)
            if action == Action.SPLIT:
                return (base, base)
            return None
        if bet_id is None:
            return None
        if t.kind == TurnKind.MATCH and action == Action.MATCH:
            return self._match_range(bet_id)
        if t.kind == TurnKind.INSURANCE and action == Action.INSURANCE:
            return self._insurance_range(bet_id)
        if t.kind == TurnKind.STAKING and action == Action.STAKE:
            return (self.limits.min_bet, self.limits.max_bet or NO_MAX_STAKE)
        return None

    def _hand_actions(self) -> list[Action]:
        """The actions of the hand at the cursor."""
        box, h = self._current()
        if h.rescue_open:
            return [Action.RESCUE, Action.STAND]
        r = self.rules
        v = self.value(h)
        acts = []
        stand_total = v.hard if r.min_stand_total_kind == "hard" else v.total
        if stand_total >= r.min_stand_total:
            acts.append(Action.STAND)
        if r.player_actions == "buy_twist":
            acts.append(Action.TWIST)
            if not h.twisted:
                acts.append(Action.BUY)
        else:
            acts.append(Action.HIT)
            if self._can_double(h):
                acts.append(Action.DOUBLE)
            if (
                r.surrender
                and len(box.hands) == 1
                and not h.acted
                and len(h.cards) == 2
                and self.dealer
                and self.dealer[0].code[0] in r.surrender_dealer_ranks
            ):
                acts.append(Action.SURRENDER)
        if self._can_split(box, h):
            acts.append(Action.SPLIT)
        return sorted(acts)

    def _can_double(self, h: Hand) -> bool:
        r = self.rules
        n = len(h.cards)
        if h.doubles >= r.double_max_per_hand:
            return False
        if r.double_on_cards is not None and n not in r.double_on_cards:
            return False
        if r.doubles_in_sequence and n != h.doubles + 2:
            return False
        if h.split and not r.double_after_split:
            return False
        return not (h.split_aces and not r.double_split_aces)

    def _can_split(self, box: Box, h: Hand) -> bool:
        r = self.rules
        if not r.can_split or len(h.cards) != 2 or h.doubles or h.buys or h.twisted:
            return False
        a, c = h.cards
        aces = a.rank == 1 and c.rank == 1
        if aces and not r.split_aces:
            return False
        if r.split_only_aces and not aces:
            return False
        if r.split_match == "rank" and a.rank != c.rank:
            return False
        if a.value != c.value:
            return False
        limit = r.split_aces_max_hands if aces else r.split_max_hands
        return not (limit and len(box.hands) >= limit)

    def _even_money_ok(self, bet_id: str) -> bool:
        bet = self.bets[bet_id]
        return self.rules.even_money and self.is_pontoon(self.boxes[bet.box].hands[0])

    def _insurance_range(self, bet_id: str) -> tuple[int, int] | None:
        if not self.rules.insurance:
            return None
        a, b = self.rules.insurance_max
        hi = self.bets[bet_id].stake * a // b
        lo = self.limits.min_unit
        return (lo, hi) if hi >= lo else None

    def _match_range(self, bet_id: str) -> tuple[int, int]:
        w = self.window
        assert w is not None
        base = self.boxes[w.box].hands[w.hand_index].stakes[bet_id][0]
        if w.action == Action.DOUBLE and self.rules.match_double == "up_to_original":
            return (min(self.limits.min_unit, base), base)
        return (base, base)


@dataclass(frozen=True)
class BoxBets:
    """What a new bet on a box is checked against: the box's bets so far in the round."""

    controller: str  # the player of the controlling bet
    bets: int  # how many bets the box holds (the controller's included)
    stake_total: int  # their stakes
    player_has_bet: bool  # the new bet's player already has one of them


def bet_check(
    rules: RuleSet,
    limits: TableLimits,
    bet: BetPlaced,
    box: BoxBets | None,
    *,
    player_boxes: int,
) -> None:
    """Refuse ``bet`` unless the rules allow it on a box holding ``box`` (None: no bet yet),
    for a player who controls ``player_boxes`` boxes of the round (counted for a controlling
    bet only). The round's phase and the bet id's uniqueness are the caller's to check.

    Pure and O(1): the fold applies it to every ``BetPlaced``, and the bet path applies it to
    the facts it reads under the box's lock, without the rest of the round (so a bet does not
    need, or rewrite, the round's state; ``tables/services/bets.py``)."""
    r, lim = rules, limits
    if not is_int(bet.box) or not 1 <= bet.box <= r.boxes:
        raise InvalidEvent(f"box {bet.box!r} does not exist (boxes 1..{r.boxes})")
    if not is_int(bet.stake):
        raise InvalidEvent(f"stake must be an integer of minor units, got {bet.stake!r}")
    if r.staking_after_first_card:
        if bet.stake != 0:
            raise IllegalAction(
                "this game stakes after the first card: join the box with stake 0, "
                "then place the stake in the staking window"
            )
    elif bet.stake < lim.min_bet or (lim.max_bet is not None and bet.stake > lim.max_bet):
        raise IllegalAction(
            f"stake {bet.stake} is outside the table limits {lim.min_bet}..{lim.max_bet}"
        )
    if not bet.behind:
        if box is not None:
            raise IllegalAction(f"box {bet.box} already has a controlling bet")
        if player_boxes >= r.max_boxes_per_player:
            raise IllegalAction(
                f"player {bet.player_id} already plays {player_boxes} box(es); "
                f"the limit is {r.max_boxes_per_player}"
            )
    else:
        if box is None:
            raise IllegalAction(f"box {bet.box} has no controlling bet to bet behind")
        if r.bets_per_box < 2:
            raise IllegalAction("this game has no bets behind (bets_per_box = 1)")
        if box.bets >= r.bets_per_box:
            raise IllegalAction(f"box {bet.box} already holds {r.bets_per_box} bets")
        if box.player_has_bet:
            raise IllegalAction(f"player {bet.player_id} already has a bet on box {bet.box}")
    total = (box.stake_total if box is not None else 0) + bet.stake
    if lim.box_max is not None and total > lim.box_max:
        raise IllegalAction(f"box {bet.box} total {total} would exceed the box limit {lim.box_max}")
