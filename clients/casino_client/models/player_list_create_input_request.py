from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PlayerListCreateInputRequest")


@_attrs_define
class PlayerListCreateInputRequest:
    """
    Attributes:
        external_ref (str):
        display_name (str | Unset):  Default: ''.
        operator_id (int | Unset): Staff only; an API key always creates for its operator.
    """

    external_ref: str
    display_name: str | Unset = ""
    operator_id: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        external_ref = self.external_ref

        display_name = self.display_name

        operator_id = self.operator_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "external_ref": external_ref,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if operator_id is not UNSET:
            field_dict["operator_id"] = operator_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        external_ref = d.pop("external_ref")

        display_name = d.pop("display_name", UNSET)

        operator_id = d.pop("operator_id", UNSET)

        player_list_create_input_request = cls(
            external_ref=external_ref,
            display_name=display_name,
            operator_id=operator_id,
        )

        player_list_create_input_request.additional_properties = d
        return player_list_create_input_request

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
