from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Timers")


@_attrs_define
class Timers:
    """
    Attributes:
        betting_seconds (int):
        decision_seconds (int):
        on_timeout (str):
    """

    betting_seconds: int
    decision_seconds: int
    on_timeout: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        betting_seconds = self.betting_seconds

        decision_seconds = self.decision_seconds

        on_timeout = self.on_timeout

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "betting_seconds": betting_seconds,
                "decision_seconds": decision_seconds,
                "on_timeout": on_timeout,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        betting_seconds = d.pop("betting_seconds")

        decision_seconds = d.pop("decision_seconds")

        on_timeout = d.pop("on_timeout")

        timers = cls(
            betting_seconds=betting_seconds,
            decision_seconds=decision_seconds,
            on_timeout=on_timeout,
        )

        timers.additional_properties = d
        return timers

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
