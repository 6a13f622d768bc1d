from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.round_next_kind_enum import RoundNextKindEnum

if TYPE_CHECKING:
    from ..models.card_target import CardTarget
    from ..models.turn_view import TurnView


T = TypeVar("T", bound="RoundNext")


@_attrs_define
class RoundNext:
    """
    Attributes:
        card (CardTarget | None):
        deadline (datetime.datetime | None): betting closes / the decision window ends
        kind (RoundNextKindEnum): * `bets` - bets
            * `card` - card
            * `decision` - decision
            * `dealer_decision` - dealer_decision
            * `void_decision` - void_decision
            * `pit` - pit
            * `settlement` - settlement
            * `nothing` - nothing
        turn (None | TurnView):
    """

    card: CardTarget | None
    deadline: datetime.datetime | None
    kind: RoundNextKindEnum
    turn: None | TurnView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_target import CardTarget
        from ..models.turn_view import TurnView

        card: dict[str, Any] | None
        if isinstance(self.card, CardTarget):
            card = self.card.to_dict()
        else:
            card = self.card

        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        kind = self.kind.value

        turn: dict[str, Any] | None
        if isinstance(self.turn, TurnView):
            turn = self.turn.to_dict()
        else:
            turn = self.turn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "card": card,
                "deadline": deadline,
                "kind": kind,
                "turn": turn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.card_target import CardTarget
        from ..models.turn_view import TurnView

        d = dict(src_dict)

        def _parse_card(data: object) -> CardTarget | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                card_type_1 = CardTarget.from_dict(data)

                return card_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardTarget | None, data)

        card = _parse_card(d.pop("card"))

        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        kind = RoundNextKindEnum(d.pop("kind"))

        def _parse_turn(data: object) -> None | TurnView:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                turn_type_1 = TurnView.from_dict(data)

                return turn_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TurnView, data)

        turn = _parse_turn(d.pop("turn"))

        round_next = cls(
            card=card,
            deadline=deadline,
            kind=kind,
            turn=turn,
        )

        round_next.additional_properties = d
        return round_next

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
