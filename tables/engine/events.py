"""Round events. Each is a frozen dataclass with a ``type`` tag and a flat JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from .cards import parse_card
from .errors import InvalidEvent


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass(frozen=True)
class BetPlaced(Event):
    """A bet on a box. ``behind``: a bet behind another player's box. In a game with
    ``staking_after_first_card`` the stake must be 0: the bet only joins the box, and the stake
    comes with :class:`StakePlaced`."""

    type: ClassVar[str] = "bet_placed"
    bet_id: str
    box: int
    stake: int
    player_id: str
    behind: bool = False


@dataclass(frozen=True)
class BettingClosed(Event):
    type: ClassVar[str] = "betting_closed"


@dataclass(frozen=True)
class CardDealt(Event):
    """The next card. The state decides which hand it belongs to (``next_card_target``)."""

    type: ClassVar[str] = "card_dealt"
    card: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", parse_card(self.card).code)


@dataclass(frozen=True)
class Decision(Event):
    """A controller's decision on a hand: hit stand double split surrender rescue buy twist."""

    type: ClassVar[str] = "decision"
    box: int
    hand_index: int
    action: str
    amount: int | None = None


@dataclass(frozen=True)
class TimeoutDefault(Event):
    """The decision window of the current turn ran out; the server applies §8's default.
    ``box`` / ``hand_index``, when given, must name the hand whose turn it is."""

    type: ClassVar[str] = "timeout_default"
    box: int | None = None
    hand_index: int | None = None


@dataclass(frozen=True)
class DealerDecision(Event):
    """The banker's choice (``hit`` or ``stand``) in a banker's-choice game."""

    type: ClassVar[str] = "dealer_decision"
    action: str


@dataclass(frozen=True)
class InsuranceTaken(Event):
    type: ClassVar[str] = "insurance_taken"
    bet_id: str
    amount: int


@dataclass(frozen=True)
class EvenMoneyTaken(Event):
    type: ClassVar[str] = "even_money_taken"
    bet_id: str


@dataclass(frozen=True)
class InsuranceDeclined(Event):
    type: ClassVar[str] = "insurance_declined"
    bet_id: str


@dataclass(frozen=True)
class MatchMade(Event):
    """A bet behind matches its controller's double or split (amount None: the full match)."""

    type: ClassVar[str] = "match_made"
    bet_id: str
    amount: int | None = None


@dataclass(frozen=True)
class MatchDeclined(Event):
    type: ClassVar[str] = "match_declined"
    bet_id: str


@dataclass(frozen=True)
class StakePlaced(Event):
    """Traditional: a joined box stakes after seeing its first card."""

    type: ClassVar[str] = "stake_placed"
    bet_id: str
    amount: int


@dataclass(frozen=True)
class Withdrawn(Event):
    """Traditional: a joined box withdraws instead of staking; its card goes to the discards."""

    type: ClassVar[str] = "withdrawn"
    bet_id: str


@dataclass(frozen=True)
class ShoeReplaced(Event):
    """A reader-fed table's dealer loaded a new shoe during the round (§8: "the dealer loads a
    new shoe, with its shuffle record, and continues"). The cards in play came from the old
    one: the impossible-card count starts again from the new shoe's whole composition."""

    type: ClassVar[str] = "shoe_replaced"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        BetPlaced,
        BettingClosed,
        CardDealt,
        Decision,
        TimeoutDefault,
        DealerDecision,
        InsuranceTaken,
        EvenMoneyTaken,
        InsuranceDeclined,
        MatchMade,
        MatchDeclined,
        StakePlaced,
        Withdrawn,
        ShoeReplaced,
    )
}


# A fold parses every event of a round (10,000+ at settlement): the names once per type.
_FIELD_NAMES = {
    cls: frozenset(f.name for f in fields(cls)) | {"type"} for cls in EVENT_TYPES.values()
}


def event_from_json(data: dict[str, Any]) -> Event:
    if not isinstance(data, dict) or "type" not in data:
        raise InvalidEvent("an event must be an object with a 'type' field")
    cls = EVENT_TYPES.get(data["type"])
    if cls is None:
        raise InvalidEvent(f"unknown event type {data['type']!r}")
    extra = data.keys() - _FIELD_NAMES[cls]
    if extra:
        raise InvalidEvent(f"{data['type']}: unknown field(s) {', '.join(sorted(extra))}")
    try:
        return cls(**{k: v for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise InvalidEvent(f"{data['type']}: {exc}") from None
