from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bet_state import BetState
    from ..models.hand_state import HandState


T = TypeVar("T", bound="BoxState")


@_attrs_define
class BoxState:
    """
    Attributes:
        bets (list[BetState]):
        controller (int | None): the box's player; null: another operator's player
        hands (list[HandState]):
        number (int):
    """

    bets: list[BetState]
    controller: int | None
    hands: list[HandState]
    number: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bets = []
        for bets_item_data in self.bets:
            bets_item = bets_item_data.to_dict()
            bets.append(bets_item)

        controller: int | None
        controller = self.controller

        hands = []
        for hands_item_data in self.hands:
            hands_item = hands_item_data.to_dict()
            hands.append(hands_item)

        number = self.number

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bets": bets,
                "controller": controller,
                "hands": hands,
                "number": number,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bet_state import BetState
        from ..models.hand_state import HandState

        d = dict(src_dict)
        bets = []
        _bets = d.pop("bets")
        for bets_item_data in _bets:
            bets_item = BetState.from_dict(bets_item_data)

            bets.append(bets_item)

        def _parse_controller(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        controller = _parse_controller(d.pop("controller"))

        hands = []
        _hands = d.pop("hands")
        for hands_item_data in _hands:
            hands_item = HandState.from_dict(hands_item_data)

            hands.append(hands_item)

        number = d.pop("number")

        box_state = cls(
            bets=bets,
            controller=controller,
            hands=hands,
            number=number,
        )

        box_state.additional_properties = d
        return box_state

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
