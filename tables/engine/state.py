"""The round's words and values: the engine's vocabulary as ``StrEnum``s, turns and card targets
as named tuples, the round's value types, and their JSON.

The enums are ``str``s, so they compare equal to, and serialise as, the plain words that
persisted states, events and the API have always used ("dealer", "stood", "hit", ...): a state
written before the enums existed reads back unchanged. :class:`RoundStateBase` holds a round's
data with its copying and JSON; the rule queries are layered on it in :mod:`.legality` and the
event handlers in :mod:`.round` (``RoundState``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, NamedTuple, Self

from .cards import Card, parse_card
from .rules import PayoutSchedule, RuleSet


class Phase(StrEnum):
    """The round's phase: ``betting`` → ``dealing`` → [``staking`` → ``dealing``] →
    [``insurance``] → ``playing`` → ``dealer`` → ``complete``."""

    BETTING = "betting"
    DEALING = "dealing"
    STAKING = "staking"
    INSURANCE = "insurance"
    PLAYING = "playing"
    DEALER = "dealer"
    COMPLETE = "complete"


PHASES = tuple(Phase)


class HandStatus(StrEnum):
    OPEN = "open"
    STOOD = "stood"
    BUST = "bust"
    SURRENDERED = "surrendered"
    RESCUED = "rescued"
    WITHDRAWN = "withdrawn"


class TurnKind(StrEnum):
    """Who decides: a hand's controller, the bets of a window (insurance / even money, a match
    after a double or split, traditional staking), or the dealer (banker's choice)."""

    HAND = "hand"
    INSURANCE = "insurance"
    MATCH = "match"
    STAKING = "staking"
    DEALER = "dealer"


class TargetKind(StrEnum):
    BOX = "box"
    DEALER = "dealer"


class Action(StrEnum):
    """Every decision's name: a hand's (hit … twist), the dealer's (hit, stand) and a window
    bet's (decline … withdraw)."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    RESCUE = "rescue"
    BUY = "buy"
    TWIST = "twist"
    DECLINE = "decline"
    INSURANCE = "insurance"
    EVEN_MONEY = "even_money"
    MATCH = "match"
    STAKE = "stake"
    WITHDRAW = "withdraw"


class Turn(NamedTuple):
    """Who must decide now (``RoundState.turn``). ``box`` and ``hand``: the deciding hand, or
    for a match window the hand whose double or split opened it (None for the others);
    ``bets``: the bets a window waits for (empty for a hand or the dealer)."""

    kind: TurnKind
    box: int | None = None
    hand: int | None = None
    bets: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.kind == TurnKind.DEALER:
            return "the dealer"
        if self.kind == TurnKind.HAND:
            return f"box {self.box} hand {self.hand}"
        where = f" of box {self.box} hand {self.hand}" if self.kind == TurnKind.MATCH else ""
        return f"the {self.kind} window{where} (bets {', '.join(self.bets)})"


class CardTarget(NamedTuple):
    """Where the next card goes (``RoundState.next_card_target``): a box's hand, or the dealer
    (``box`` and ``hand`` None)."""

    kind: TargetKind
    box: int | None = None
    hand: int | None = None

    def __str__(self) -> str:
        if self.kind == TargetKind.DEALER:
            return "the dealer"
        return f"box {self.box} hand {self.hand}"

    def to_json(self) -> list[Any]:
        """The persisted form: ``["box", box, hand]`` or ``["dealer"]``."""
        if self.kind == TargetKind.DEALER:
            return [self.kind.value]
        return [self.kind.value, self.box, self.hand]

    @classmethod
    def from_json(cls, data: list[Any]) -> CardTarget:
        return cls(TargetKind(data[0]), *data[1:3])


DEALER_TARGET = CardTarget(TargetKind.DEALER)
DEALER_TURN = Turn(TurnKind.DEALER)


def is_int(v: Any) -> bool:
    """An int that is not a bool (JSON true is not a stake)."""
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
    status: HandStatus = HandStatus.OPEN
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
        h.status = HandStatus(d["status"])
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

    kind: TurnKind  # insurance | match | staking
    pending: list[str]
    box: int = 0
    hand_index: int = 0
    action: Action | Literal[""] = ""  # match: double | split
    new_hand_index: int = 0  # split: the hand a matching bet's stake goes to

    def copy(self) -> Window:
        return Window(**dict(self.__dict__, pending=list(self.pending)))

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__, pending=list(self.pending))

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Window:
        w = cls(**d)
        w.kind = TurnKind(d["kind"])
        w.action = Action(d["action"]) if d["action"] else ""
        return w


class RoundStateBase:
    """A round's data, its copying and its JSON (no rules: :mod:`.legality` and :mod:`.round`
    add those)."""

    def __init__(self, rules: RuleSet, payouts: PayoutSchedule, limits: TableLimits | None = None):
        self.rules = rules
        self.payouts = payouts
        self.limits = limits or TableLimits()
        self.phase = Phase.BETTING
        self.bets: dict[str, Bet] = {}
        self.boxes: dict[int, Box] = {}  # kept in ascending box order
        self.dealer: list[Card] = []
        self.deal_queue: list[CardTarget] = []
        self.deal_pass = 0
        self.window: Window | None = None
        self.cursor: tuple[int, int] | None = None
        self.dealer_need = ""  # "" | second_card | full
        self.dealer_mode = ""  # "" | card | decision | done
        self.peeked_pontoon = False
        self.events = 0
        self.counts: Counter[Card] = Counter()  # live cards, for impossible-card checks
        self.shoe_replaced = False  # counts then hold only the new shoe's cards (ShoeReplaced)
        # Per box during betting: (stake total, ids of the players with a bet on it), so that
        # each bet's checks are O(1) instead of a scan of the box (derived from bets/boxes:
        # rebuilt lazily after from_json, copied in copy; see _box_index_get).
        self._box_index: dict[int, tuple[int, set[str]]] | None = {}

    def copy(self) -> Self:
        s = type(self).__new__(type(self))
        s.__dict__.update(self.__dict__)
        s.bets = {k: Bet(**v.__dict__) for k, v in self.bets.items()}
        s.boxes = {k: b.copy() for k, b in self.boxes.items()}
        s.dealer = list(self.dealer)
        s.deal_queue = list(self.deal_queue)
        s.window = None if self.window is None else self.window.copy()
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
            "deal_queue": [t.to_json() for t in self.deal_queue],
            "deal_pass": self.deal_pass,
            "window": None if self.window is None else self.window.to_json(),
            "cursor": None if self.cursor is None else list(self.cursor),
            "dealer_need": self.dealer_need,
            "dealer_mode": self.dealer_mode,
            "peeked_pontoon": self.peeked_pontoon,
            "events": self.events,
            # Only after a new shoe, when counts no longer follow from the live cards: the
            # state of every other round keeps the form it always had.
            **(
                {"shoe_counts": dict(sorted((c.code, n) for c, n in self.counts.items() if n))}
                if self.shoe_replaced
                else {}
            ),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Self:
        s = cls(
            RuleSet.from_json(d["rules"]),
            PayoutSchedule.from_json(d["payouts"]),
            TableLimits(**d["limits"]),
        )
        s.phase = Phase(d["phase"])
        s.bets = {b["bet_id"]: Bet(**b) for b in d["bets"]}
        s.boxes = {b["number"]: Box.from_json(b) for b in d["boxes"]}
        s.dealer = [parse_card(c) for c in d["dealer"]]
        s.deal_queue = [CardTarget.from_json(t) for t in d["deal_queue"]]
        s.deal_pass = d["deal_pass"]
        s.window = None if d["window"] is None else Window.from_json(d["window"])
        cursor = d["cursor"]
        s.cursor = None if cursor is None else (cursor[0], cursor[1])
        s.dealer_need = d["dealer_need"]
        s.dealer_mode = d["dealer_mode"]
        s.peeked_pontoon = d["peeked_pontoon"]
        s.events = d["events"]
        if "shoe_counts" in d:
            s.shoe_replaced = True
            s.counts = Counter({parse_card(code): n for code, n in d["shoe_counts"].items()})
        else:
            s.counts = Counter(s.live_cards())
        s._box_index = None  # rebuilt on the next bet (betting phase only)
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundStateBase) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(phase={self.phase.value!r}, events={self.events})"

    def hand(self, box: int, hand_index: int) -> Hand:
        return self.boxes[box].hands[hand_index]

    def controller_bet(self, box: int) -> Bet:
        return self.bets[self.boxes[box].bet_ids[0]]

    def live_cards(self) -> list[Card]:
        """The cards in play: the dealer's and every hand's but a withdrawn one's."""
        out = list(self.dealer)
        for box in self.boxes.values():
            for h in box.hands:
                if h.status != HandStatus.WITHDRAWN:
                    out.extend(h.cards)
        return out
