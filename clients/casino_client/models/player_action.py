from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerAction")


@_attrs_define
class PlayerAction:
    """
    Attributes:
        action (str):
        amount_max (int | None): Minor units of `currency`.
        amount_min (int | None): Minor units of `currency`.
        bet_id (str):
        currency (str):
        player_id (int | None):
    """

    action: str
    amount_max: int | None
    amount_min: int | None
    bet_id: str
    currency: str
    player_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        amount_max: int | None
        amount_max = self.amount_max

        amount_min: int | None
        amount_min = self.amount_min

        bet_id = self.bet_id

        currency = self.currency

        player_id: int | None
        player_id = self.player_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "amount_max": amount_max,
                "amount_min": amount_min,
                "bet_id": bet_id,
                "currency": currency,
                "player_id": player_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = d.pop("action")

        def _parse_amount_max(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        amount_max = _parse_amount_max(d.pop("amount_max"))

        def _parse_amount_min(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        amount_min = _parse_amount_min(d.pop("amount_min"))

        bet_id = d.pop("bet_id")

        currency = d.pop("currency")

        def _parse_player_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        player_id = _parse_player_id(d.pop("player_id"))

        player_action = cls(
            action=action,
            amount_max=amount_max,
            amount_min=amount_min,
            bet_id=bet_id,
            currency=currency,
            player_id=player_id,
        )

        player_action.additional_properties = d
        return player_action

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
