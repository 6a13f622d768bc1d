from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TableLimitsInputRequest")


@_attrs_define
class TableLimitsInputRequest:
    """
    Attributes:
        max_bet (int):
        min_bet (int):
        betting_seconds (int | Unset):
        box_max (int | None | Unset):
        decision_seconds (int | Unset):
        min_unit (int | Unset):
    """

    max_bet: int
    min_bet: int
    betting_seconds: int | Unset = UNSET
    box_max: int | None | Unset = UNSET
    decision_seconds: int | Unset = UNSET
    min_unit: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_bet = self.max_bet

        min_bet = self.min_bet

        betting_seconds = self.betting_seconds

        box_max: int | None | Unset
        if isinstance(self.box_max, Unset):
            box_max = UNSET
        else:
            box_max = self.box_max

        decision_seconds = self.decision_seconds

        min_unit = self.min_unit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max_bet": max_bet,
                "min_bet": min_bet,
            }
        )
        if betting_seconds is not UNSET:
            field_dict["betting_seconds"] = betting_seconds
        if box_max is not UNSET:
            field_dict["box_max"] = box_max
        if decision_seconds is not UNSET:
            field_dict["decision_seconds"] = decision_seconds
        if min_unit is not UNSET:
            field_dict["min_unit"] = min_unit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_bet = d.pop("max_bet")

        min_bet = d.pop("min_bet")

        betting_seconds = d.pop("betting_seconds", UNSET)

        def _parse_box_max(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        box_max = _parse_box_max(d.pop("box_max", UNSET))

        decision_seconds = d.pop("decision_seconds", UNSET)

        min_unit = d.pop("min_unit", UNSET)

        table_limits_input_request = cls(
            max_bet=max_bet,
            min_bet=min_bet,
            betting_seconds=betting_seconds,
            box_max=box_max,
            decision_seconds=decision_seconds,
            min_unit=min_unit,
        )

        table_limits_input_request.additional_properties = d
        return table_limits_input_request

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
