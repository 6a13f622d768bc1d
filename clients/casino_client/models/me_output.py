from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MeOutput")


@_attrs_define
class MeOutput:
    """
    Attributes:
        kind (str):
        name (str):
        operator_id (int | None):
        roles (list[str]):
        table_id (int | None):
    """

    kind: str
    name: str
    operator_id: int | None
    roles: list[str]
    table_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        name = self.name

        operator_id: int | None
        operator_id = self.operator_id

        roles = self.roles

        table_id: int | None
        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "name": name,
                "operator_id": operator_id,
                "roles": roles,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = d.pop("kind")

        name = d.pop("name")

        def _parse_operator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        operator_id = _parse_operator_id(d.pop("operator_id"))

        roles = cast(list[str], d.pop("roles"))

        def _parse_table_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table_id = _parse_table_id(d.pop("table_id"))

        me_output = cls(
            kind=kind,
            name=name,
            operator_id=operator_id,
            roles=roles,
            table_id=table_id,
        )

        me_output.additional_properties = d
        return me_output

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
