from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TableShoesInputRequest")


@_attrs_define
class TableShoesInputRequest:
    """
    Attributes:
        shuffle_method (str):
        commitment (str | Unset):
        device_id (str | Unset):  Default: ''.
    """

    shuffle_method: str
    commitment: str | Unset = UNSET
    device_id: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        shuffle_method = self.shuffle_method

        commitment: str | Unset
        if isinstance(self.commitment, Unset):
            commitment = UNSET
        else:
            commitment = self.commitment

        device_id = self.device_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "shuffle_method": shuffle_method,
            }
        )
        if commitment is not UNSET:
            field_dict["commitment"] = commitment
        if device_id is not UNSET:
            field_dict["device_id"] = device_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        shuffle_method = d.pop("shuffle_method")

        def _parse_commitment(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        commitment = _parse_commitment(d.pop("commitment", UNSET))

        device_id = d.pop("device_id", UNSET)

        table_shoes_input_request = cls(
            shuffle_method=shuffle_method,
            commitment=commitment,
            device_id=device_id,
        )

        table_shoes_input_request.additional_properties = d
        return table_shoes_input_request

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
