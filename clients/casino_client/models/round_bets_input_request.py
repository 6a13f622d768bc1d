from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RoundBetsInputRequest")


@_attrs_define
class RoundBetsInputRequest:
    """
    Attributes:
        box (int):
        player_id (int):
        stake (int):
        behind (bool | Unset):  Default: False.
    """

    box: int
    player_id: int
    stake: int
    behind: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        box = self.box

        player_id = self.player_id

        stake = self.stake

        behind = self.behind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "box": box,
                "player_id": player_id,
                "stake": stake,
            }
        )
        if behind is not UNSET:
            field_dict["behind"] = behind

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        box = d.pop("box")

        player_id = d.pop("player_id")

        stake = d.pop("stake")

        behind = d.pop("behind", UNSET)

        round_bets_input_request = cls(
            box=box,
            player_id=player_id,
            stake=stake,
            behind=behind,
        )

        round_bets_input_request.additional_properties = d
        return round_bets_input_request

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
