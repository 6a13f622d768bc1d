"""The round as an event-sourced state machine: ``state = fold(rules, payouts, events)``.

``apply(state, event)`` is pure: it copies the state (a shallow, structure-aware copy, no
``deepcopy``) and applies the event to the copy. ``fold`` copies once and applies every event
in place, which is what replay and simulation use.

Phases (:class:`~.state.Phase`): ``betting`` → ``dealing`` → [``staking`` → ``dealing``] →
[``insurance``] → ``playing`` → ``dealer`` → ``complete``. Inside ``playing`` a per-bet *match*
window can be open after a double or a split on a box with bets behind. ``turn()`` says who must
act; ``next_card_target()`` says where the next card goes (a card reader feeds cards in that
order) and ``next_card_forced()`` whether the rules deal it without a decision.

The round's values and their JSON are in :mod:`.state`, the read-only rule queries (turn,
legal actions, amounts, :func:`bet_check`) in :mod:`.legality`; this module holds the event
handlers, which are the only code that changes a state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .cards import card_allowed, hand_total, is_ace_and_ten, parse_card
from .errors import IllegalAction, ImpossibleCard, InvalidEvent, NotExpectedNow, NotTheirTurn
from .events import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    DealerDecision,
    Decision,
    EvenMoneyTaken,
    Event,
    InsuranceDeclined,
    InsuranceTaken,
    MatchDeclined,
    MatchMade,
    ShoeReplaced,
    StakePlaced,
    TimeoutDefault,
    Withdrawn,
)
from .legality import NO_MAX_STAKE, BoxBets, RoundQueries, bet_check
from .rules import PayoutSchedule, RuleSet
from .state import (
    DEALER_TARGET,
    DEALER_TURN,
    PHASES,
    Action,
    Bet,
    Box,
    CardTarget,
    Hand,
    HandStatus,
    Phase,
    TableLimits,
    TargetKind,
    Turn,
    TurnKind,
    Window,
    is_int,
)

__all__ = [
    "PHASES",
    "Action",
    "Bet",
    "Box",
    "BoxBets",
    "CardTarget",
    "Hand",
    "HandStatus",
    "Phase",
    "RoundState",
    "TableLimits",
    "TargetKind",
    "Turn",
    "TurnKind",
    "Window",
    "apply",
    "bet_check",
    "event_for_action",
    "fold",
    "new_round",
]


class RoundState(RoundQueries):
    """One round. Read it through the query methods; change it only through :func:`apply`."""

    # ------------------------------------------------------------------ applying
    def apply_in_place(self, event: Event) -> None:
        """Apply an event to this state (used by :func:`fold`; prefer :func:`apply`)."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise InvalidEvent(f"{event!r} is not a round event")
        handler(self, event)
        self.events += 1

    def _on_bet(self, e: BetPlaced) -> None:
        if self.phase != Phase.BETTING:
            raise NotExpectedNow(f"bet {e.bet_id}: betting is closed (phase {self.phase})")
        if not isinstance(e.bet_id, str) or not e.bet_id or e.bet_id in self.bets:
            raise InvalidEvent(f"bet id {e.bet_id!r} is empty or already used in this round")
        box = self.boxes.get(e.box) if is_int(e.box) else None
        index = self._box_index_get()
        box_total, players = index.get(e.box, (0, set())) if box is not None else (0, set())
        bet_check(
            self.rules,
            self.limits,
            e,
            BoxBets(box.controller, len(box.bet_ids), box_total, e.player_id in players)
            if box is not None
            else None,
            player_boxes=0
            if e.behind
            else sum(1 for bx in self.boxes.values() if bx.controller == e.player_id),
        )
        if box is None:
            box = Box(e.box, e.player_id)
            box.hands.append(Hand())
            self.boxes[e.box] = box
            self.boxes = dict(sorted(self.boxes.items()))
        r = self.rules
        self.bets[e.bet_id] = Bet(
            e.bet_id, e.box, e.player_id, e.stake, e.behind, staked=not r.staking_after_first_card
        )
        box.bet_ids.append(e.bet_id)
        box.hands[0].stakes[e.bet_id] = [e.stake, 0, 0]
        players.add(e.player_id)
        index[e.box] = (box_total + e.stake, players)

    def _box_index_get(self) -> dict[int, tuple[int, set[str]]]:
        """The per-box (stake total, player ids) of the bets placed so far, built when missing
        (after from_json). Only bets change it, and only while betting is open."""
        if self._box_index is None:
            self._box_index = {
                number: (
                    sum(self.bets[b].stake for b in box.bet_ids),
                    {self.bets[b].player_id for b in box.bet_ids},
                )
                for number, box in self.boxes.items()
            }
        return self._box_index

    def _on_close(self, e: BettingClosed) -> None:
        if self.phase != Phase.BETTING:
            raise NotExpectedNow(f"betting is not open (phase {self.phase})")
        self._box_index = None  # no more bets: nothing to keep (or copy) per box
        if not self.boxes:
            self.phase = Phase.COMPLETE
            return
        self._queue_pass(second=False)
        if not self.rules.staking_after_first_card:
            self._queue_pass(second=True)
        self.phase = Phase.DEALING

    def _queue_pass(self, second: bool) -> None:
        self.deal_pass += 1
        for b, box in self.boxes.items():
            if box.hands[0].status != HandStatus.WITHDRAWN:
                self.deal_queue.append(CardTarget(TargetKind.BOX, b, 0))
        if not second or self.rules.dealer_cards_before_play == 2:
            self.deal_queue.append(DEALER_TARGET)

    def _on_card(self, e: CardDealt) -> None:
        target = self.next_card_target()
        card = parse_card(e.card)
        if target is None:
            raise NotExpectedNow(
                f"no card is expected now (phase {self.phase}, turn {self.turn()})"
            )
        if not card_allowed(card, self.rules.deck_kind):
            raise ImpossibleCard(f"{card.code}: a {self.rules.deck_kind} shoe holds no tens")
        if self.counts[card] >= self.rules.decks:
            raise ImpossibleCard(
                f"{card.code}: already {self.counts[card]} in play "
                f"from a {self.rules.decks}-deck shoe"
            )
        self.counts[card] += 1
        if self.phase == Phase.DEALING:
            self.deal_queue.pop(0)
            if target.box is None:  # the dealer's card
                self.dealer.append(card)
            else:
                self.boxes[target.box].hands[0].cards.append(card)
            if not self.deal_queue:
                self._after_deal()
            return
        if target.kind == TargetKind.DEALER:
            self.dealer.append(card)
            self._dealer_step()
            return
        _, h = self._current()  # a box's card in play goes to the hand at the cursor
        h.cards.append(card)
        h.awaiting = False
        if h.double_card_due:
            h.double_card_due = False
            v = self.value(h)
            if self.rules.double_then == "stand":
                if self.rules.rescue and v.total < 21:
                    h.rescue_open = True
                else:
                    h.status = HandStatus.BUST if v.total > 21 else HandStatus.STOOD
        self._advance()

    def _after_deal(self) -> None:
        r = self.rules
        if r.staking_after_first_card and self.deal_pass == 1:
            pending = [b for b in self.bets if not self.bets[b].withdrawn]
            self.window = Window(TurnKind.STAKING, pending)
            self.phase = Phase.STAKING
            return
        if r.dealer_peek and self.dealer_pontoon():
            self.peeked_pontoon = True
            self.phase = Phase.COMPLETE
            self.dealer_mode = "done"
            return
        if (r.insurance or r.even_money) and self.dealer[0].is_ace:
            pending = [
                b
                for b, bet in self.bets.items()
                if not bet.withdrawn and (self._even_money_ok(b) or self._insurance_range(b))
            ]
            if pending:
                self.window = Window(TurnKind.INSURANCE, pending)
                self.phase = Phase.INSURANCE
                return
        self.phase = Phase.PLAYING
        self._advance()

    def _close_window_if_done(self) -> None:
        w = self.window
        if w is None or w.pending:
            return
        self.window = None
        if w.kind == TurnKind.STAKING:
            if not any(not b.withdrawn for b in self.bets.values()):
                self.phase = Phase.COMPLETE
                return
            self._queue_pass(second=True)
            self.phase = Phase.DEALING
        elif w.kind == TurnKind.INSURANCE:
            self.phase = Phase.PLAYING
            self._advance()
        else:
            self._advance()

    def _window_bet(self, kind: TurnKind, bet_id: str) -> Bet:
        w = self.window
        if w is None or w.kind != kind:
            raise NotExpectedNow(f"no {kind} window is open (turn {self.turn()})")
        if bet_id not in w.pending:
            raise NotTheirTurn(f"bet {bet_id!r} has no pending {kind} decision")
        w.pending.remove(bet_id)
        return self.bets[bet_id]

    @staticmethod
    def _check_amount(what: str, amount: Any, rng: tuple[int, int]) -> int:
        if not is_int(amount) or not rng[0] <= amount <= rng[1]:
            raise IllegalAction(f"{what} amount {amount!r} must be between {rng[0]} and {rng[1]}")
        return amount

    def _on_insurance(self, e: InsuranceTaken) -> None:
        w = self.window
        if w is None or w.kind != TurnKind.INSURANCE:
            raise NotExpectedNow(f"no insurance window is open (turn {self.turn()})")
        if e.bet_id not in w.pending:
            raise NotTheirTurn(f"bet {e.bet_id!r} has no pending insurance decision")
        rng = self._insurance_range(e.bet_id)
        if rng is None:
            raise IllegalAction(f"bet {e.bet_id} may not take insurance (stake too small or none)")
        amount = self._check_amount("insurance", e.amount, rng)
        self._window_bet(TurnKind.INSURANCE, e.bet_id).insurance = amount
        self._close_window_if_done()

    def _on_even_money(self, e: EvenMoneyTaken) -> None:
        if e.bet_id not in self.bets or not self._even_money_ok(e.bet_id):
            raise IllegalAction(f"bet {e.bet_id!r} may not take even money (no Pontoon)")
        self._window_bet(TurnKind.INSURANCE, e.bet_id).even_money = True
        self._close_window_if_done()

    def _on_insurance_declined(self, e: InsuranceDeclined) -> None:
        self._window_bet(TurnKind.INSURANCE, e.bet_id)
        self._close_window_if_done()

    def _on_match(self, e: MatchMade) -> None:
        w = self.window
        if w is None or w.kind != TurnKind.MATCH:
            raise NotExpectedNow(f"no match window is open (turn {self.turn()})")
        if e.bet_id not in w.pending:
            raise NotTheirTurn(f"bet {e.bet_id!r} has no pending match decision")
        rng = self._match_range(e.bet_id)
        amount = rng[1] if e.amount is None else e.amount
        self._check_amount("match", amount, rng)
        self._window_bet(TurnKind.MATCH, e.bet_id)
        hands = self.boxes[w.box].hands
        if w.action == Action.DOUBLE:
            st = hands[w.hand_index].stakes[e.bet_id]
            st[1] += amount
            st[2] += 1
        else:
            hands[w.new_hand_index].stakes[e.bet_id] = [amount, 0, 0]
        self._close_window_if_done()

    def _on_match_declined(self, e: MatchDeclined) -> None:
        self._window_bet(TurnKind.MATCH, e.bet_id)
        self._close_window_if_done()

    def _on_stake(self, e: StakePlaced) -> None:
        if self.window is None or self.window.kind != TurnKind.STAKING:
            raise NotExpectedNow(f"no staking window is open (turn {self.turn()})")
        lim = self.limits
        hi = lim.max_bet if lim.max_bet is not None else NO_MAX_STAKE
        amount = self._check_amount("stake", e.amount, (lim.min_bet, hi))
        bet = self._window_bet(TurnKind.STAKING, e.bet_id)
        bet.stake = amount
        bet.staked = True
        self.boxes[bet.box].hands[0].stakes[e.bet_id][0] = amount
        self._close_window_if_done()

    def _withdraw(self, bet_id: str) -> None:
        bet = self.bets[bet_id]
        bet.withdrawn = True
        h = self.boxes[bet.box].hands[0]
        h.status = HandStatus.WITHDRAWN
        for c in h.cards:
            if self.counts[c] > 0:  # none after a new shoe: its cards were the old shoe's
                self.counts[c] -= 1

    def _on_shoe_replaced(self, e: ShoeReplaced) -> None:
        self.counts.clear()
        self.shoe_replaced = True

    def _on_withdrawn(self, e: Withdrawn) -> None:
        self._window_bet(TurnKind.STAKING, e.bet_id)
        self._withdraw(e.bet_id)
        self._close_window_if_done()

    def _on_decision(self, e: Decision) -> None:
        t = self.turn()
        if t is None or t.kind != TurnKind.HAND:
            raise NotExpectedNow(f"no hand decision is expected now (phase {self.phase}, turn {t})")
        if (e.box, e.hand_index) != (t.box, t.hand):
            raise NotTheirTurn(f"it is {t}'s turn, not box {e.box} hand {e.hand_index}")
        self._decide(e.action, e.amount)

    def _decide(self, name: str, amount: int | None) -> None:
        """The hand at the cursor takes action ``name`` (refused unless legal now)."""
        assert self.cursor is not None, "no hand is playing"
        b, i = self.cursor
        box = self.boxes[b]
        h = box.hands[i]
        legal = self._hand_actions()
        if name not in legal:
            raise IllegalAction(
                f"{name!r} is not allowed on box {b} hand {i} "
                f"(cards {' '.join(c.code for c in h.cards)}); legal: {', '.join(legal)}"
            )
        action = Action(name)
        ctrl = box.bet_ids[0]
        staked = 0  # what a double, buy or split adds
        if action in (Action.DOUBLE, Action.BUY, Action.SPLIT):
            rng = self.amount_range(action)
            assert rng is not None
            staked = self._check_amount(action, rng[1] if amount is None else amount, rng)
        elif amount is not None:
            raise IllegalAction(f"{name!r} takes no amount")
        h.acted = True
        if action == Action.STAND:
            h.rescue_open = False
            h.status = HandStatus.STOOD
        elif action == Action.RESCUE:
            h.rescue_open = False
            h.status = HandStatus.RESCUED
        elif action == Action.SURRENDER:
            h.status = HandStatus.SURRENDERED
        elif action in (Action.HIT, Action.TWIST):
            h.awaiting = True
            if action == Action.TWIST:
                h.twisted = True
        elif action == Action.BUY:
            h.stakes[ctrl][1] += staked
            h.buys += 1
            h.awaiting = True
        elif action == Action.DOUBLE:
            h.doubles += 1
            st = h.stakes[ctrl]
            st[1] += staked
            st[2] += 1
            h.awaiting = True
            h.double_card_due = True
            pending = [k for k, s in h.stakes.items() if k != ctrl and s[2] == h.doubles - 1]
            if pending:
                self.window = Window(TurnKind.MATCH, pending, b, i, Action.DOUBLE)
                return
        elif action == Action.SPLIT:
            aces = h.cards[0].rank == 1
            second = h.cards.pop()
            new = Hand(cards=[second], stakes={ctrl: [staked, 0, 0]}, split=True, split_aces=aces)
            h.split = True
            h.split_aces = aces
            h.acted = False
            box.hands.insert(i + 1, new)
            pending = [k for k in h.stakes if k != ctrl]
            if pending:
                self.window = Window(TurnKind.MATCH, pending, b, i, Action.SPLIT, i + 1)
                return
        self._advance()

    def _on_timeout(self, e: TimeoutDefault) -> None:
        t = self.turn()
        if t is None:
            raise NotExpectedNow(f"nobody is deciding now (phase {self.phase}); no timeout applies")
        named = (e.box, e.hand_index)
        if e.box is not None and (t.kind != TurnKind.HAND or named != (t.box, t.hand)):
            raise NotTheirTurn(
                f"the timeout names box {e.box} hand {e.hand_index}; the turn is {t}"
            )
        if t.kind == TurnKind.HAND:
            if Action.STAND in self._hand_actions():
                self._decide(Action.STAND, None)
            else:
                buy_twist = self.rules.player_actions == "buy_twist"
                self._decide(Action.TWIST if buy_twist else Action.HIT, None)
        elif t.kind == TurnKind.DEALER:
            v = self.dealer_value()
            hit = v.total < self.rules.dealer_stand_total
            self._dealer_decide(Action.HIT if hit else Action.STAND)
        else:
            w = self.window
            assert w is not None
            pending, w.pending = list(w.pending), []
            if t.kind == TurnKind.STAKING:
                for bet_id in pending:
                    self._withdraw(bet_id)
            self._close_window_if_done()

    def _on_dealer_decision(self, e: DealerDecision) -> None:
        if self.turn() != DEALER_TURN:
            raise NotExpectedNow(f"the dealer is not deciding now (phase {self.phase})")
        if e.action not in (Action.HIT, Action.STAND):
            raise IllegalAction(f"dealer action {e.action!r} must be 'hit' or 'stand'")
        self._dealer_decide(Action(e.action))

    def _dealer_decide(self, action: Action) -> None:
        if action == Action.HIT:
            self.dealer_mode = "card"
        else:
            self.dealer_mode = "done"
            self.phase = Phase.COMPLETE

    # ------------------------------------------------------------------ progress
    def _advance(self) -> None:
        """Move the cursor to the first hand that needs a card or a decision, else the dealer."""
        r = self.rules
        for b, box in self.boxes.items():
            hands = box.hands
            for i, h in enumerate(hands):
                if h.status != HandStatus.OPEN:
                    continue
                self.cursor = (b, i)
                if h.awaiting:
                    return
                if len(h.cards) < 2:
                    h.awaiting = True
                    return
                v = self.value(h)
                if v.total > 21:
                    h.status = HandStatus.BUST
                    continue
                if h.rescue_open:
                    return
                n = len(h.cards)
                if (
                    self.is_pontoon(h)
                    or (v.total == 21 and (not v.soft or r.soft_21_stops))
                    or (r.player_card_limit is not None and n >= r.player_card_limit)
                    or (h.split_aces and r.split_aces_one_card)
                    or (h.doubles and r.double_then == "stand")
                ):
                    h.status = HandStatus.STOOD
                    continue
                if (
                    r.doubled_auto_draw_below_hard
                    and h.doubles
                    and v.hard < r.doubled_auto_draw_below_hard
                ):
                    h.awaiting = True
                    h.forced_cards += (n,)
                    return
                if (
                    r.forced_draw_four_cards_hard_max is not None
                    and n == 4
                    and v.hard <= r.forced_draw_four_cards_hard_max
                ):
                    h.twisted = True
                    h.awaiting = True
                    h.forced_cards += (n,)
                    return
                return
        self.cursor = None
        self._start_dealer()

    def _start_dealer(self) -> None:
        self.phase = Phase.DEALER
        full = second = False
        for box in self.boxes.values():
            for h in box.hands:
                if h.status == HandStatus.STOOD:
                    if all(self.decided_at_once(h, k) for k in h.stakes):
                        continue
                    if self.rules.pontoon_waits_for_second_card_only and self.is_pontoon(h):
                        second = True
                    else:
                        full = True
                elif h.status == HandStatus.SURRENDERED and not self.decided_at_once(h):
                    second = True
        if any(b.insurance for b in self.bets.values()):
            second = True
        self.dealer_need = "full" if full else ("second_card" if second else "")
        if not self.dealer_need:
            self.dealer_mode = "done"
            self.phase = Phase.COMPLETE
            return
        self._dealer_step()

    def _dealer_step(self) -> None:
        r = self.rules
        d = self.dealer
        n = len(d)
        if n < 2:
            self.dealer_mode = "card"
            return
        v = hand_total(d)
        stop = (
            is_ace_and_ten(d)
            or self.dealer_need == "second_card"
            or v.total > 21
            or (r.dealer_card_limit is not None and n >= r.dealer_card_limit)
        )
        if not stop:
            if r.dealer_rule == "banker_choice":
                if v.total == 21 and not v.soft:
                    stop = True
                else:
                    self.dealer_mode = "decision"
                    return
            elif v.total < r.dealer_stand_total or (
                v.total == r.dealer_stand_total and v.soft and r.dealer_rule == "hit_soft_17"
            ):
                self.dealer_mode = "card"
                return
        self.dealer_mode = "done"
        self.phase = Phase.COMPLETE


_HANDLERS: dict[type[Event], Callable[[RoundState, Any], None]] = {
    BetPlaced: RoundState._on_bet,
    BettingClosed: RoundState._on_close,
    CardDealt: RoundState._on_card,
    Decision: RoundState._on_decision,
    TimeoutDefault: RoundState._on_timeout,
    DealerDecision: RoundState._on_dealer_decision,
    InsuranceTaken: RoundState._on_insurance,
    EvenMoneyTaken: RoundState._on_even_money,
    InsuranceDeclined: RoundState._on_insurance_declined,
    MatchMade: RoundState._on_match,
    MatchDeclined: RoundState._on_match_declined,
    StakePlaced: RoundState._on_stake,
    Withdrawn: RoundState._on_withdrawn,
    ShoeReplaced: RoundState._on_shoe_replaced,
}


def new_round(
    rule_set: RuleSet, schedule: PayoutSchedule, limits: TableLimits | None = None
) -> RoundState:
    rule_set.validate()
    schedule.validate()
    return RoundState(rule_set, schedule, limits)


def apply(state: RoundState, event: Event) -> RoundState:
    """A new state with ``event`` applied; ``state`` is left unchanged (also when it raises)."""
    new = state.copy()
    new.apply_in_place(event)
    return new


def fold(
    rule_set: RuleSet,
    schedule: PayoutSchedule,
    events: Iterable[Event],
    limits: TableLimits | None = None,
) -> RoundState:
    state = new_round(rule_set, schedule, limits)
    for event in events:
        state.apply_in_place(event)
    return state


def event_for_action(
    state: RoundState, action: str, amount: int | None = None, bet_id: str | None = None
) -> Event:
    """The event that performs ``action`` (a name from ``legal_actions``) in the current turn."""
    t = state.turn()
    if t is None:
        raise NotExpectedNow(f"nobody is deciding now (phase {state.phase})")
    if t.kind == TurnKind.HAND:
        assert t.box is not None and t.hand is not None
        return Decision(t.box, t.hand, action, amount)
    if t.kind == TurnKind.DEALER:
        return DealerDecision(action)
    if bet_id is None:
        raise InvalidEvent(f"a {t.kind} decision needs the bet id")
    table: dict[tuple[TurnKind, Action], Event] = {
        (TurnKind.MATCH, Action.MATCH): MatchMade(bet_id, amount),
        (TurnKind.MATCH, Action.DECLINE): MatchDeclined(bet_id),
        (TurnKind.INSURANCE, Action.INSURANCE): InsuranceTaken(
            bet_id, amount if amount is not None else -1
        ),
        (TurnKind.INSURANCE, Action.EVEN_MONEY): EvenMoneyTaken(bet_id),
        (TurnKind.INSURANCE, Action.DECLINE): InsuranceDeclined(bet_id),
        (TurnKind.STAKING, Action.STAKE): StakePlaced(bet_id, amount if amount is not None else -1),
        (TurnKind.STAKING, Action.WITHDRAW): Withdrawn(bet_id),
    }
    try:
        return table[(t.kind, Action(action))]
    except (KeyError, ValueError):
        raise IllegalAction(f"{action!r} is not an action of a {t.kind} window") from None
