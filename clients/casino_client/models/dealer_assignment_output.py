from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DealerAssignmentOutput")


@_attrs_define
class DealerAssignmentOutput:
    """
    Attributes:
        assigned_by (str):
        dealer_id (int):
        id (int):
        started_at (datetime.datetime):
        table_id (int):
    """

    assigned_by: str
    dealer_id: int
    id: int
    started_at: datetime.datetime
    table_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        assigned_by = self.assigned_by

        dealer_id = self.dealer_id

        id = self.id

        started_at = self.started_at.isoformat()

        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "assigned_by": assigned_by,
                "dealer_id": dealer_id,
                "id": id,
                "started_at": started_at,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        assigned_by = d.pop("assigned_by")

        dealer_id = d.pop("dealer_id")

        id = d.pop("id")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        table_id = d.pop("table_id")

        dealer_assignment_output = cls(
            assigned_by=assigned_by,
            dealer_id=dealer_id,
            id=id,
            started_at=started_at,
            table_id=table_id,
        )

        dealer_assignment_output.additional_properties = d
        return dealer_assignment_output

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
