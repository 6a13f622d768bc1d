from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="HouseAccountListOutput")


@_attrs_define
class HouseAccountListOutput:
    """
    Attributes:
        balance (int):
        currency (str):
        id (int):
        kind (str): One of: wallet, stakes, house, bonus_pool, operator_cash.
        operator_id (int | None):
        table_id (int | None):
    """

    balance: int
    currency: str
    id: int
    kind: str
    operator_id: int | None
    table_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        currency = self.currency

        id = self.id

        kind = self.kind

        operator_id: int | None
        operator_id = self.operator_id

        table_id: int | None
        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "balance": balance,
                "currency": currency,
                "id": id,
                "kind": kind,
                "operator_id": operator_id,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        balance = d.pop("balance")

        currency = d.pop("currency")

        id = d.pop("id")

        kind = d.pop("kind")

        def _parse_operator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        operator_id = _parse_operator_id(d.pop("operator_id"))

        def _parse_table_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table_id = _parse_table_id(d.pop("table_id"))

        house_account_list_output = cls(
            balance=balance,
            currency=currency,
            id=id,
            kind=kind,
            operator_id=operator_id,
            table_id=table_id,
        )

        house_account_list_output.additional_properties = d
        return house_account_list_output

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
