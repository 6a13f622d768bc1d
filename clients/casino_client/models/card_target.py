from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardTarget")


@_attrs_define
class CardTarget:
    """
    Attributes:
        box (int | None):
        forced (bool): the rules deal this card without a decision (§6 doubled hand under hard 15, §7 the fifth card of
            four cards hard 11 or less)
        hand_index (int | None):
        kind (str): box | dealer
    """

    box: int | None
    forced: bool
    hand_index: int | None
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        box: int | None
        box = self.box

        forced = self.forced

        hand_index: int | None
        hand_index = self.hand_index

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "box": box,
                "forced": forced,
                "hand_index": hand_index,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_box(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        box = _parse_box(d.pop("box"))

        forced = d.pop("forced")

        def _parse_hand_index(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        hand_index = _parse_hand_index(d.pop("hand_index"))

        kind = d.pop("kind")

        card_target = cls(
            box=box,
            forced=forced,
            hand_index=hand_index,
            kind=kind,
        )

        card_target.additional_properties = d
        return card_target

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
