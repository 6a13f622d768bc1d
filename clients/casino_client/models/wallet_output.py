from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WalletOutput")


@_attrs_define
class WalletOutput:
    """
    Attributes:
        balance (int): Minor units.
        created_at (datetime.datetime):
        currency (str):
        id (int):
        operator_id (int):
        player_id (int):
    """

    balance: int
    created_at: datetime.datetime
    currency: str
    id: int
    operator_id: int
    player_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        created_at = self.created_at.isoformat()

        currency = self.currency

        id = self.id

        operator_id = self.operator_id

        player_id = self.player_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "balance": balance,
                "created_at": created_at,
                "currency": currency,
                "id": id,
                "operator_id": operator_id,
                "player_id": player_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        balance = d.pop("balance")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        currency = d.pop("currency")

        id = d.pop("id")

        operator_id = d.pop("operator_id")

        player_id = d.pop("player_id")

        wallet_output = cls(
            balance=balance,
            created_at=created_at,
            currency=currency,
            id=id,
            operator_id=operator_id,
            player_id=player_id,
        )

        wallet_output.additional_properties = d
        return wallet_output

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
