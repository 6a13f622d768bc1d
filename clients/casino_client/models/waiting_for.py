from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WaitingFor")


@_attrs_define
class WaitingFor:
    """
    Attributes:
        bet_id (str):
        box (int):
        hand_index (int):
        player_id (int | None): null: another operator's player (anonymous)
    """

    bet_id: str
    box: int
    hand_index: int
    player_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bet_id = self.bet_id

        box = self.box

        hand_index = self.hand_index

        player_id: int | None
        player_id = self.player_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bet_id": bet_id,
                "box": box,
                "hand_index": hand_index,
                "player_id": player_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bet_id = d.pop("bet_id")

        box = d.pop("box")

        hand_index = d.pop("hand_index")

        def _parse_player_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        player_id = _parse_player_id(d.pop("player_id"))

        waiting_for = cls(
            bet_id=bet_id,
            box=box,
            hand_index=hand_index,
            player_id=player_id,
        )

        waiting_for.additional_properties = d
        return waiting_for

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
