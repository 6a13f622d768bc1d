"""The round as an event-sourced state machine: ``state = fold(rules, payouts, events)``.

``apply(state, event)`` is pure: it copies the state (a shallow, structure-aware copy, no
``deepcopy``) and applies the event to the copy. ``fold`` copies once and applies every event
in place, which is what replay and simulation use.

Phases: ``betting`` → ``dealing`` → [``staking`` → ``dealing``] → [``insurance``] → ``playing``
→ ``dealer`` → ``complete``. Inside ``playing`` a per-bet *match* window can be open after a
double or a split on a box with bets behind. ``turn()`` says who must act; ``next_card_target()``
says where the next card goes (a card reader feeds cards in that order) and
``next_card_forced()`` whether the rules deal it without a decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, HandValue, card_allowed, hand_total, is_ace_and_ten, parse_card
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
    StakePlaced,
    TimeoutDefault,
    Withdrawn,
)
from .rules import PayoutSchedule, RuleSet

OPEN, STOOD, BUST, SURRENDERED, RESCUED, WITHDRAWN = (
    "open",
    "stood",
    "bust",
    "surrendered",
    "rescued",
    "withdrawn",
)
PHASES = ("betting", "dealing", "staking", "insurance", "playing", "dealer", "complete")
_NO_ACE_ONE: frozenset[int] = frozenset()
_FIRST_TWO = frozenset((0, 1))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class TableLimits:
    """Table money limits (minor units). ``min_unit``: smallest partial double / insurance."""

    min_bet: int = 1
    max_bet: int | None = None
    min_unit: int = 1
    box_max: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "min_unit": self.min_unit,
            "box_max": self.box_max,
        }


@dataclass
class Bet:
    bet_id: str
    box: int
    player_id: str
    stake: int  # original stake
    behind: bool = False
    insurance: int = 0
    even_money: bool = False
    withdrawn: bool = False
    staked: bool = True  # traditional: False until StakePlaced

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Hand:
    cards: list[Card] = field(default_factory=list)
    # bet_id -> [base stake, added stake (doubles / buys), doubles matched]
    stakes: dict[str, list[int]] = field(default_factory=dict)
    status: str = OPEN
    split: bool = False
    split_aces: bool = False
    doubles: int = 0
    buys: int = 0
    twisted: bool = False
    acted: bool = False
    awaiting: bool = False  # a requested card is due
    double_card_due: bool = False
    rescue_open: bool = False
    # Positions in ``cards`` of the cards the rules dealt without a decision (§6 a doubled hand
    # under hard 15, §7 the fifth card of four cards hard 11 or less); a due card's position is
    # listed from the moment it is due (``RoundState.next_card_forced``).
    forced_cards: tuple[int, ...] = ()

    def copy(self) -> Hand:
        h = Hand.__new__(Hand)
        h.__dict__.update(self.__dict__)
        h.cards = list(self.cards)
        h.stakes = {k: list(v) for k, v in self.stakes.items()}
        return h

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["cards"] = [c.code for c in self.cards]
        d["stakes"] = {k: list(v) for k, v in self.stakes.items()}
        d["forced_cards"] = list(self.forced_cards)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Hand:
        h = cls(**d)
        h.cards = [parse_card(c) for c in d["cards"]]
        h.stakes = {k: list(v) for k, v in d["stakes"].items()}
        h.forced_cards = tuple(d.get("forced_cards", ()))
        return h


@dataclass
class Box:
    number: int
    controller: str
    bet_ids: list[str] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)

    def copy(self) -> Box:
        return Box(self.number, self.controller, list(self.bet_ids), [h.copy() for h in self.hands])

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "controller": self.controller,
            "bet_ids": list(self.bet_ids),
            "hands": [h.to_json() for h in self.hands],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Box:
        return cls(
            d["number"],
            d["controller"],
            list(d["bet_ids"]),
            [Hand.from_json(h) for h in d["hands"]],
        )


@dataclass
class Window:
    """A per-bet decision window: insurance / even money, a match, or traditional staking."""

    kind: str  # insurance | match | staking
    pending: list[str]
    box: int = 0
    hand_index: int = 0
    action: str = ""  # match: double | split
    new_hand_index: int = 0  # split: the hand a matching bet's stake goes to

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__, pending=list(self.pending))


class RoundState:
    """One round. Read it through the query methods; change it only through :func:`apply`."""

    def __init__(self, rules: RuleSet, payouts: PayoutSchedule, limits: TableLimits | None = None):
        self.rules = rules
        self.payouts = payouts
        self.limits = limits or TableLimits()
        self.phase = "betting"
        self.bets: dict[str, Bet] = {}
        self.boxes: dict[int, Box] = {}  # kept in ascending box order
        self.dealer: list[Card] = []
        self.deal_queue: list[tuple[Any, ...]] = []
        self.deal_pass = 0
        self.window: Window | None = None
        self.cursor: tuple[int, int] | None = None
        self.dealer_need = ""  # "" | second_card | full
        self.dealer_mode = ""  # "" | card | decision | done
        self.peeked_pontoon = False
        self.events = 0
        self.counts: Counter[Card] = Counter()  # live cards, for impossible-card checks
        # Per box during betting: (stake total, ids of the players with a bet on it), so that
        # each bet's checks are O(1) instead of a scan of the box (derived from bets/boxes:
        # rebuilt lazily after from_json, copied in copy; see _box_index_get).
        self._box_index: dict[int, tuple[int, set[str]]] | None = {}

    # ------------------------------------------------------------------ copying / JSON
    def copy(self) -> RoundState:
        s = RoundState.__new__(RoundState)
        s.__dict__.update(self.__dict__)
        s.bets = {k: Bet(**v.__dict__) for k, v in self.bets.items()}
        s.boxes = {k: b.copy() for k, b in self.boxes.items()}
        s.dealer = list(self.dealer)
        s.deal_queue = list(self.deal_queue)
        s.window = (
            None
            if self.window is None
            else Window(**dict(self.window.__dict__, pending=list(self.window.pending)))
        )
        s.counts = Counter(self.counts)
        if self._box_index is not None:
            s._box_index = {k: (v[0], set(v[1])) for k, v in self._box_index.items()}
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "payouts": self.payouts.to_json(),
            "limits": self.limits.to_json(),
            "phase": self.phase,
            "bets": [b.to_json() for b in self.bets.values()],
            "boxes": [b.to_json() for b in self.boxes.values()],
            "dealer": [c.code for c in self.dealer],
            "deal_queue": [list(t) for t in self.deal_queue],
            "deal_pass": self.deal_pass,
            "window": None if self.window is None else self.window.to_json(),
            "cursor": None if self.cursor is None else list(self.cursor),
            "dealer_need": self.dealer_need,
            "dealer_mode": self.dealer_mode,
            "peeked_pontoon": self.peeked_pontoon,
            "events": self.events,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RoundState:
        s = cls(
            RuleSet.from_json(d["rules"]),
            PayoutSchedule.from_json(d["payouts"]),
            TableLimits(**d["limits"]),
        )
        s.phase = d["phase"]
        s.bets = {b["bet_id"]: Bet(**b) for b in d["bets"]}
        s.boxes = {b["number"]: Box.from_json(b) for b in d["boxes"]}
        s.dealer = [parse_card(c) for c in d["dealer"]]
        s.deal_queue = [tuple(t) for t in d["deal_queue"]]
        s.deal_pass = d["deal_pass"]
        s.window = None if d["window"] is None else Window(**d["window"])
        s.cursor = None if d["cursor"] is None else tuple(d["cursor"])
        s.dealer_need = d["dealer_need"]
        s.dealer_mode = d["dealer_mode"]
        s.peeked_pontoon = d["peeked_pontoon"]
        s.events = d["events"]
        s.counts = Counter(s.live_cards())
        s._box_index = None  # rebuilt on the next bet (betting phase only)
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundState) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"RoundState(phase={self.phase!r}, events={self.events})"

    # ------------------------------------------------------------------ hand facts
    def hand(self, box: int, hand_index: int) -> Hand:
        return self.boxes[box].hands[hand_index]

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
        if hand.status in (BUST, RESCUED, WITHDRAWN):
            return True
        if hand.status == SURRENDERED:
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
            hand.status == STOOD or not v.soft or self.rules.soft_21_stops or self.is_pontoon(hand)
        )

    def live_cards(self) -> list[Card]:
        out = list(self.dealer)
        for box in self.boxes.values():
            for h in box.hands:
                if h.status != WITHDRAWN:
                    out.extend(h.cards)
        return out

    def controller_bet(self, box: int) -> Bet:
        return self.bets[self.boxes[box].bet_ids[0]]

    # ------------------------------------------------------------------ queries
    def turn(self) -> tuple[Any, ...] | None:
        """Who must decide now: ``("hand", box, i)``, ``("insurance", bet_ids)``,
        ``("match", box, i, bet_ids)``, ``("staking", bet_ids)``, ``("dealer",)`` or None
        (betting, a card is due, or the round is complete)."""
        w = self.window
        if w is not None:
            if w.kind == "match":
                return ("match", w.box, w.hand_index, tuple(w.pending))
            return (w.kind, tuple(w.pending))
        if self.phase == "playing" and self.cursor is not None:
            b, i = self.cursor
            if not self.boxes[b].hands[i].awaiting:
                return ("hand", b, i)
        if self.phase == "dealer" and self.dealer_mode == "decision":
            return ("dealer",)
        return None

    def next_card_target(self) -> tuple[Any, ...] | None:
        """Where the next card goes: ``("box", box, hand_index)``, ``("dealer",)`` or None."""
        if self.phase == "dealing":
            return self.deal_queue[0]
        if self.window is not None:
            return None
        if self.phase == "playing" and self.cursor is not None:
            b, i = self.cursor
            if self.boxes[b].hands[i].awaiting:
                return ("box", b, i)
        if self.phase == "dealer" and self.dealer_mode == "card":
            return ("dealer",)
        return None

    def next_card_forced(self) -> bool:
        """Whether the next card is a forced draw: the rules deal it to a hand without a
        decision (its position is in the hand's ``forced_cards``)."""
        t = self.next_card_target()
        if t is None or t[0] != "box" or self.phase != "playing":
            return False
        h = self.boxes[t[1]].hands[t[2]]
        return len(h.cards) in h.forced_cards

    def legal_actions(self, bet_id: str | None = None) -> list[str]:
        """Actions accepted now. Hand turn: the controller's actions; windows: the actions of
        ``bet_id``; dealer turn: hit / stand. Empty when nobody is asked."""
        t = self.turn()
        if t is None:
            return []
        kind = t[0]
        if kind == "hand":
            return self._hand_actions(t[1], t[2])
        if kind == "dealer":
            return ["hit", "stand"]
        if bet_id is None or bet_id not in self.window.pending:  # type: ignore[union-attr]
            return []
        if kind == "match":
            return ["decline", "match"]
        if kind == "staking":
            return ["stake", "withdraw"]
        acts = ["decline"]
        if self._even_money_ok(bet_id):
            acts.append("even_money")
        if self._insurance_range(bet_id) is not None:
            acts.append("insurance")
        return acts

    def amount_range(self, action: str, bet_id: str | None = None) -> tuple[int, int] | None:
        """Allowed amount for an action that takes one (double, buy, split, match, insurance,
        stake) in the current turn, as an inclusive range; None if it takes none."""
        t = self.turn()
        if t is None:
            return None
        if t[0] == "hand":
            base = self.hand(t[1], t[2]).stakes[self.boxes[t[1]].bet_ids[0]][0]
            if action == "double":
                if self.rules.double_amount == "equal_original":
                    return (base, base)
                return (min(self.limits.min_unit, base), base)
            if action == "buy":
                return (min(self.limits.min_bet, base), base)
            if action == "split":
                return (base, base)
            return None
        if bet_id is None:
            return None
        if t[0] == "match" and action == "match":
            return self._match_range(bet_id)
        if t[0] == "insurance" and action == "insurance":
            return self._insurance_range(bet_id)
        if t[0] == "staking" and action == "stake":
            return (self.limits.min_bet, self.limits.max_bet or 10**15)
        return None

    # ------------------------------------------------------------------ hand actions
    def _hand_actions(self, b: int, i: int) -> list[str]:
        box = self.boxes[b]
        h = box.hands[i]
        if h.rescue_open:
            return ["rescue", "stand"]
        r = self.rules
        v = self.value(h)
        acts = []
        stand_total = v.hard if r.min_stand_total_kind == "hard" else v.total
        if stand_total >= r.min_stand_total:
            acts.append("stand")
        if r.player_actions == "buy_twist":
            acts.append("twist")
            if not h.twisted:
                acts.append("buy")
        else:
            acts.append("hit")
            if self._can_double(h):
                acts.append("double")
            if (
                r.surrender
                and len(box.hands) == 1
                and not h.acted
                and len(h.cards) == 2
                and self.dealer
                and self.dealer[0].code[0] in r.surrender_dealer_ranks
            ):
                acts.append("surrender")
        if self._can_split(box, h):
            acts.append("split")
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
        if w.action == "double" and self.rules.match_double == "up_to_original":
            return (min(self.limits.min_unit, base), base)
        return (base, base)

    # ------------------------------------------------------------------ applying
    def apply_in_place(self, event: Event) -> None:
        """Apply an event to this state (used by :func:`fold`; prefer :func:`apply`)."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise InvalidEvent(f"{event!r} is not a round event")
        handler(self, event)
        self.events += 1

    def _on_bet(self, e: BetPlaced) -> None:
        if self.phase != "betting":
            raise NotExpectedNow(f"bet {e.bet_id}: betting is closed (phase {self.phase})")
        if not isinstance(e.bet_id, str) or not e.bet_id or e.bet_id in self.bets:
            raise InvalidEvent(f"bet id {e.bet_id!r} is empty or already used in this round")
        box = self.boxes.get(e.box) if _is_int(e.box) else None
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
        if self.phase != "betting":
            raise NotExpectedNow(f"betting is not open (phase {self.phase})")
        self._box_index = None  # no more bets: nothing to keep (or copy) per box
        if not self.boxes:
            self.phase = "complete"
            return
        self._queue_pass(second=False)
        if not self.rules.staking_after_first_card:
            self._queue_pass(second=True)
        self.phase = "dealing"

    def _queue_pass(self, second: bool) -> None:
        self.deal_pass += 1
        for b, box in self.boxes.items():
            if box.hands[0].status != WITHDRAWN:
                self.deal_queue.append(("box", b, 0))
        if not second or self.rules.dealer_cards_before_play == 2:
            self.deal_queue.append(("dealer",))

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
        if self.phase == "dealing":
            self.deal_queue.pop(0)
            if target[0] == "dealer":
                self.dealer.append(card)
            else:
                self.boxes[target[1]].hands[0].cards.append(card)
            if not self.deal_queue:
                self._after_deal()
            return
        if target[0] == "dealer":
            self.dealer.append(card)
            self._dealer_step()
            return
        h = self.boxes[target[1]].hands[target[2]]
        h.cards.append(card)
        h.awaiting = False
        if h.double_card_due:
            h.double_card_due = False
            v = self.value(h)
            if self.rules.double_then == "stand":
                if self.rules.rescue and v.total < 21:
                    h.rescue_open = True
                else:
                    h.status = BUST if v.total > 21 else STOOD
        self._advance()

    def _after_deal(self) -> None:
        r = self.rules
        if r.staking_after_first_card and self.deal_pass == 1:
            pending = [b for b in self.bets if not self.bets[b].withdrawn]
            self.window = Window("staking", pending)
            self.phase = "staking"
            return
        if r.dealer_peek and self.dealer_pontoon():
            self.peeked_pontoon = True
            self.phase = "complete"
            self.dealer_mode = "done"
            return
        if (r.insurance or r.even_money) and self.dealer[0].is_ace:
            pending = [
                b
                for b, bet in self.bets.items()
                if not bet.withdrawn and (self._even_money_ok(b) or self._insurance_range(b))
            ]
            if pending:
                self.window = Window("insurance", pending)
                self.phase = "insurance"
                return
        self.phase = "playing"
        self._advance()

    def _close_window_if_done(self) -> None:
        w = self.window
        if w is None or w.pending:
            return
        self.window = None
        if w.kind == "staking":
            if not any(not b.withdrawn for b in self.bets.values()):
                self.phase = "complete"
                return
            self._queue_pass(second=True)
            self.phase = "dealing"
        elif w.kind == "insurance":
            self.phase = "playing"
            self._advance()
        else:
            self._advance()

    def _window_bet(self, kind: str, bet_id: str) -> Bet:
        w = self.window
        if w is None or w.kind != kind:
            raise NotExpectedNow(f"no {kind} window is open (turn {self.turn()})")
        if bet_id not in w.pending:
            raise NotTheirTurn(f"bet {bet_id!r} has no pending {kind} decision")
        w.pending.remove(bet_id)
        return self.bets[bet_id]

    @staticmethod
    def _check_amount(what: str, amount: Any, rng: tuple[int, int]) -> int:
        if not _is_int(amount) or not rng[0] <= amount <= rng[1]:
            raise IllegalAction(f"{what} amount {amount!r} must be between {rng[0]} and {rng[1]}")
        return amount

    def _on_insurance(self, e: InsuranceTaken) -> None:
        w = self.window
        if w is None or w.kind != "insurance":
            raise NotExpectedNow(f"no insurance window is open (turn {self.turn()})")
        if e.bet_id not in w.pending:
            raise NotTheirTurn(f"bet {e.bet_id!r} has no pending insurance decision")
        rng = self._insurance_range(e.bet_id)
        if rng is None:
            raise IllegalAction(f"bet {e.bet_id} may not take insurance (stake too small or none)")
        amount = self._check_amount("insurance", e.amount, rng)
        self._window_bet("insurance", e.bet_id).insurance = amount
        self._close_window_if_done()

    def _on_even_money(self, e: EvenMoneyTaken) -> None:
        if e.bet_id not in self.bets or not self._even_money_ok(e.bet_id):
            raise IllegalAction(f"bet {e.bet_id!r} may not take even money (no Pontoon)")
        self._window_bet("insurance", e.bet_id).even_money = True
        self._close_window_if_done()

    def _on_insurance_declined(self, e: InsuranceDeclined) -> None:
        self._window_bet("insurance", e.bet_id)
        self._close_window_if_done()

    def _on_match(self, e: MatchMade) -> None:
        w = self.window
        if w is None or w.kind != "match":
            raise NotExpectedNow(f"no match window is open (turn {self.turn()})")
        if e.bet_id not in w.pending:
            raise NotTheirTurn(f"bet {e.bet_id!r} has no pending match decision")
        rng = self._match_range(e.bet_id)
        amount = rng[1] if e.amount is None else e.amount
        self._check_amount("match", amount, rng)
        self._window_bet("match", e.bet_id)
        hands = self.boxes[w.box].hands
        if w.action == "double":
            st = hands[w.hand_index].stakes[e.bet_id]
            st[1] += amount
            st[2] += 1
        else:
            hands[w.new_hand_index].stakes[e.bet_id] = [amount, 0, 0]
        self._close_window_if_done()

    def _on_match_declined(self, e: MatchDeclined) -> None:
        self._window_bet("match", e.bet_id)
        self._close_window_if_done()

    def _on_stake(self, e: StakePlaced) -> None:
        if self.window is None or self.window.kind != "staking":
            raise NotExpectedNow(f"no staking window is open (turn {self.turn()})")
        lim = self.limits
        hi = lim.max_bet if lim.max_bet is not None else 10**15
        amount = self._check_amount("stake", e.amount, (lim.min_bet, hi))
        bet = self._window_bet("staking", e.bet_id)
        bet.stake = amount
        bet.staked = True
        self.boxes[bet.box].hands[0].stakes[e.bet_id][0] = amount
        self._close_window_if_done()

    def _withdraw(self, bet_id: str) -> None:
        bet = self.bets[bet_id]
        bet.withdrawn = True
        h = self.boxes[bet.box].hands[0]
        h.status = WITHDRAWN
        for c in h.cards:
            self.counts[c] -= 1

    def _on_withdrawn(self, e: Withdrawn) -> None:
        self._window_bet("staking", e.bet_id)
        self._withdraw(e.bet_id)
        self._close_window_if_done()

    def _on_decision(self, e: Decision) -> None:
        t = self.turn()
        if t is None or t[0] != "hand":
            raise NotExpectedNow(f"no hand decision is expected now (phase {self.phase}, turn {t})")
        if (e.box, e.hand_index) != (t[1], t[2]):
            raise NotTheirTurn(
                f"it is box {t[1]} hand {t[2]}'s turn, not box {e.box} hand {e.hand_index}"
            )
        self._decide(e.action, e.amount)

    def _decide(self, action: str, amount: int | None) -> None:
        assert self.cursor is not None
        b, i = self.cursor
        box = self.boxes[b]
        h = box.hands[i]
        legal = self._hand_actions(b, i)
        if action not in legal:
            raise IllegalAction(
                f"{action!r} is not allowed on box {b} hand {i} "
                f"(cards {' '.join(c.code for c in h.cards)}); legal: {', '.join(legal)}"
            )
        ctrl = box.bet_ids[0]
        if action in ("double", "buy", "split"):
            rng = self.amount_range(action)
            assert rng is not None
            amount = self._check_amount(action, rng[1] if amount is None else amount, rng)
        elif amount is not None:
            raise IllegalAction(f"{action!r} takes no amount")
        h.acted = True
        if action == "stand":
            h.rescue_open = False
            h.status = STOOD
        elif action == "rescue":
            h.rescue_open = False
            h.status = RESCUED
        elif action == "surrender":
            h.status = SURRENDERED
        elif action in ("hit", "twist"):
            h.awaiting = True
            if action == "twist":
                h.twisted = True
        elif action == "buy":
            h.stakes[ctrl][1] += amount  # type: ignore[operator]
            h.buys += 1
            h.awaiting = True
        elif action == "double":
            h.doubles += 1
            st = h.stakes[ctrl]
            st[1] += amount  # type: ignore[operator]
            st[2] += 1
            h.awaiting = True
            h.double_card_due = True
            pending = [k for k, s in h.stakes.items() if k != ctrl and s[2] == h.doubles - 1]
            if pending:
                self.window = Window("match", pending, b, i, "double")
                return
        elif action == "split":
            aces = h.cards[0].rank == 1
            second = h.cards.pop()
            new = Hand(cards=[second], stakes={ctrl: [amount, 0, 0]}, split=True, split_aces=aces)  # type: ignore[list-item]
            h.split = True
            h.split_aces = aces
            h.acted = False
            box.hands.insert(i + 1, new)
            pending = [k for k in h.stakes if k != ctrl]
            if pending:
                self.window = Window("match", pending, b, i, "split", i + 1)
                return
        self._advance()

    def _on_timeout(self, e: TimeoutDefault) -> None:
        t = self.turn()
        if t is None:
            raise NotExpectedNow(f"nobody is deciding now (phase {self.phase}); no timeout applies")
        if e.box is not None and (t[0] != "hand" or (e.box, e.hand_index) != (t[1], t[2])):
            raise NotTheirTurn(
                f"the timeout names box {e.box} hand {e.hand_index}; the turn is {t}"
            )
        kind = t[0]
        if kind == "hand":
            legal = self._hand_actions(t[1], t[2])
            if "stand" in legal:
                self._decide("stand", None)
            else:
                self._decide("twist" if self.rules.player_actions == "buy_twist" else "hit", None)
        elif kind == "dealer":
            v = self.dealer_value()
            self._dealer_decide("hit" if v.total < self.rules.dealer_stand_total else "stand")
        else:
            w = self.window
            assert w is not None
            pending, w.pending = list(w.pending), []
            if kind == "staking":
                for bet_id in pending:
                    self._withdraw(bet_id)
            self._close_window_if_done()

    def _on_dealer_decision(self, e: DealerDecision) -> None:
        if self.turn() != ("dealer",):
            raise NotExpectedNow(f"the dealer is not deciding now (phase {self.phase})")
        if e.action not in ("hit", "stand"):
            raise IllegalAction(f"dealer action {e.action!r} must be 'hit' or 'stand'")
        self._dealer_decide(e.action)

    def _dealer_decide(self, action: str) -> None:
        if action == "hit":
            self.dealer_mode = "card"
        else:
            self.dealer_mode = "done"
            self.phase = "complete"

    # ------------------------------------------------------------------ progress
    def _advance(self) -> None:
        """Move the cursor to the first hand that needs a card or a decision, else the dealer."""
        r = self.rules
        for b, box in self.boxes.items():
            hands = box.hands
            for i, h in enumerate(hands):
                if h.status != OPEN:
                    continue
                self.cursor = (b, i)
                if h.awaiting:
                    return
                if len(h.cards) < 2:
                    h.awaiting = True
                    return
                v = self.value(h)
                if v.total > 21:
                    h.status = BUST
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
                    h.status = STOOD
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
        self.phase = "dealer"
        full = second = False
        for box in self.boxes.values():
            for h in box.hands:
                if h.status == STOOD:
                    if any(not self.decided_at_once(h, k) for k in h.stakes):
                        full = True
                elif h.status == SURRENDERED and not self.decided_at_once(h):
                    second = True
        if any(b.insurance for b in self.bets.values()):
            second = True
        self.dealer_need = "full" if full else ("second_card" if second else "")
        if not self.dealer_need:
            self.dealer_mode = "done"
            self.phase = "complete"
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
        self.phase = "complete"


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
    if not _is_int(bet.box) or not 1 <= bet.box <= r.boxes:
        raise InvalidEvent(f"box {bet.box!r} does not exist (boxes 1..{r.boxes})")
    if not _is_int(bet.stake):
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


_HANDLERS = {
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
    kind = t[0]
    if kind == "hand":
        return Decision(t[1], t[2], action, amount)
    if kind == "dealer":
        return DealerDecision(action)
    if bet_id is None:
        raise InvalidEvent(f"a {kind} decision needs the bet id")
    table: dict[tuple[str, str], Event] = {
        ("match", "match"): MatchMade(bet_id, amount),
        ("match", "decline"): MatchDeclined(bet_id),
        ("insurance", "insurance"): InsuranceTaken(bet_id, amount if amount is not None else -1),
        ("insurance", "even_money"): EvenMoneyTaken(bet_id),
        ("insurance", "decline"): InsuranceDeclined(bet_id),
        ("staking", "stake"): StakePlaced(bet_id, amount if amount is not None else -1),
        ("staking", "withdraw"): Withdrawn(bet_id),
    }
    try:
        return table[(kind, action)]
    except KeyError:
        raise IllegalAction(f"{action!r} is not an action of a {kind} window") from None
