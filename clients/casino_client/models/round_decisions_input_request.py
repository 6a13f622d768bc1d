from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RoundDecisionsInputRequest")


@_attrs_define
class RoundDecisionsInputRequest:
    """
    Attributes:
        action (str):
        player_id (int):
        amount (int | None | Unset):
        bet_id (None | str | Unset):
        box (int | None | Unset):
        hand_index (int | None | Unset):
    """

    action: str
    player_id: int
    amount: int | None | Unset = UNSET
    bet_id: None | str | Unset = UNSET
    box: int | None | Unset = UNSET
    hand_index: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        player_id = self.player_id

        amount: int | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        bet_id: None | str | Unset
        if isinstance(self.bet_id, Unset):
            bet_id = UNSET
        else:
            bet_id = self.bet_id

        box: int | None | Unset
        if isinstance(self.box, Unset):
            box = UNSET
        else:
            box = self.box

        hand_index: int | None | Unset
        if isinstance(self.hand_index, Unset):
            hand_index = UNSET
        else:
            hand_index = self.hand_index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "player_id": player_id,
            }
        )
        if amount is not UNSET:
            field_dict["amount"] = amount
        if bet_id is not UNSET:
            field_dict["bet_id"] = bet_id
        if box is not UNSET:
            field_dict["box"] = box
        if hand_index is not UNSET:
            field_dict["hand_index"] = hand_index

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = d.pop("action")

        player_id = d.pop("player_id")

        def _parse_amount(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_bet_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bet_id = _parse_bet_id(d.pop("bet_id", UNSET))

        def _parse_box(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        box = _parse_box(d.pop("box", UNSET))

        def _parse_hand_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        hand_index = _parse_hand_index(d.pop("hand_index", UNSET))

        round_decisions_input_request = cls(
            action=action,
            player_id=player_id,
            amount=amount,
            bet_id=bet_id,
            box=box,
            hand_index=hand_index,
        )

        round_decisions_input_request.additional_properties = d
        return round_decisions_input_request

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
