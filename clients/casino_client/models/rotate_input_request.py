from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateInputRequest")


@_attrs_define
class RotateInputRequest:
    """
    Attributes:
        overlap_hours (int | None | Unset): how long the replaced secret keeps working (default and most:
            API_ROTATION_OVERLAP_HOURS)
        reason (str | Unset):  Default: ''.
    """

    overlap_hours: int | None | Unset = UNSET
    reason: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        overlap_hours: int | None | Unset
        if isinstance(self.overlap_hours, Unset):
            overlap_hours = UNSET
        else:
            overlap_hours = self.overlap_hours

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if overlap_hours is not UNSET:
            field_dict["overlap_hours"] = overlap_hours
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_overlap_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        overlap_hours = _parse_overlap_hours(d.pop("overlap_hours", UNSET))

        reason = d.pop("reason", UNSET)

        rotate_input_request = cls(
            overlap_hours=overlap_hours,
            reason=reason,
        )

        rotate_input_request.additional_properties = d
        return rotate_input_request

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
