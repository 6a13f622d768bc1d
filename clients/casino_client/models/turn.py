from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Turn")


@_attrs_define
class Turn:
    """
    Attributes:
        bets (list[str]):
        box (int | None):
        hand_index (int | None):
        kind (str): hand | match | insurance | staking | dealer
    """

    bets: list[str]
    box: int | None
    hand_index: int | None
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bets = self.bets

        box: int | None
        box = self.box

        hand_index: int | None
        hand_index = self.hand_index

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bets": bets,
                "box": box,
                "hand_index": hand_index,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bets = cast(list[str], d.pop("bets"))

        def _parse_box(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        box = _parse_box(d.pop("box"))

        def _parse_hand_index(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        hand_index = _parse_hand_index(d.pop("hand_index"))

        kind = d.pop("kind")

        turn = cls(
            bets=bets,
            box=box,
            hand_index=hand_index,
            kind=kind,
        )

        turn.additional_properties = d
        return turn

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
