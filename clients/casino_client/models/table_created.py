from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.table_output import TableOutput


T = TypeVar("T", bound="TableCreated")


@_attrs_define
class TableCreated:
    """
    Attributes:
        rtp_method (str):
        table (TableOutput):
        theoretical_rtp (None | str):
    """

    rtp_method: str
    table: TableOutput
    theoretical_rtp: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rtp_method = self.rtp_method

        table = self.table.to_dict()

        theoretical_rtp: None | str
        theoretical_rtp = self.theoretical_rtp

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rtp_method": rtp_method,
                "table": table,
                "theoretical_rtp": theoretical_rtp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.table_output import TableOutput

        d = dict(src_dict)
        rtp_method = d.pop("rtp_method")

        table = TableOutput.from_dict(d.pop("table"))

        def _parse_theoretical_rtp(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        theoretical_rtp = _parse_theoretical_rtp(d.pop("theoretical_rtp"))

        table_created = cls(
            rtp_method=rtp_method,
            table=table,
            theoretical_rtp=theoretical_rtp,
        )

        table_created.additional_properties = d
        return table_created

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
