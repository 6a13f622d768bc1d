from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerOutput")


@_attrs_define
class PlayerOutput:
    """
    Attributes:
        created_at (datetime.datetime):
        display_name (str):
        external_ref (str):
        id (int):
        operator_id (int):
    """

    created_at: datetime.datetime
    display_name: str
    external_ref: str
    id: int
    operator_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        display_name = self.display_name

        external_ref = self.external_ref

        id = self.id

        operator_id = self.operator_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "display_name": display_name,
                "external_ref": external_ref,
                "id": id,
                "operator_id": operator_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        display_name = d.pop("display_name")

        external_ref = d.pop("external_ref")

        id = d.pop("id")

        operator_id = d.pop("operator_id")

        player_output = cls(
            created_at=created_at,
            display_name=display_name,
            external_ref=external_ref,
            id=id,
            operator_id=operator_id,
        )

        player_output.additional_properties = d
        return player_output

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
