from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VoidPreviewLine")


@_attrs_define
class VoidPreviewLine:
    """
    Attributes:
        bet_id (str):
        box (int):
        currency (str):
        hand_index (int):
        paid (int): Minor units of `currency`.
        player_id (int | None):
        result (str): void_returned, or the decided outcome that stands
        stake (int): Minor units of `currency`.
    """

    bet_id: str
    box: int
    currency: str
    hand_index: int
    paid: int
    player_id: int | None
    result: str
    stake: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bet_id = self.bet_id

        box = self.box

        currency = self.currency

        hand_index = self.hand_index

        paid = self.paid

        player_id: int | None
        player_id = self.player_id

        result = self.result

        stake = self.stake

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bet_id": bet_id,
                "box": box,
                "currency": currency,
                "hand_index": hand_index,
                "paid": paid,
                "player_id": player_id,
                "result": result,
                "stake": stake,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bet_id = d.pop("bet_id")

        box = d.pop("box")

        currency = d.pop("currency")

        hand_index = d.pop("hand_index")

        paid = d.pop("paid")

        def _parse_player_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        player_id = _parse_player_id(d.pop("player_id"))

        result = d.pop("result")

        stake = d.pop("stake")

        void_preview_line = cls(
            bet_id=bet_id,
            box=box,
            currency=currency,
            hand_index=hand_index,
            paid=paid,
            player_id=player_id,
            result=result,
            stake=stake,
        )

        void_preview_line.additional_properties = d
        return void_preview_line

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
