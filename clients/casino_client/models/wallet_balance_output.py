from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WalletBalanceOutput")


@_attrs_define
class WalletBalanceOutput:
    """
    Attributes:
        balance (int):
        balance_from_legs (int):
        currency (str):
        wallet_id (int):
    """

    balance: int
    balance_from_legs: int
    currency: str
    wallet_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        balance_from_legs = self.balance_from_legs

        currency = self.currency

        wallet_id = self.wallet_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "balance": balance,
                "balance_from_legs": balance_from_legs,
                "currency": currency,
                "wallet_id": wallet_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        balance = d.pop("balance")

        balance_from_legs = d.pop("balance_from_legs")

        currency = d.pop("currency")

        wallet_id = d.pop("wallet_id")

        wallet_balance_output = cls(
            balance=balance,
            balance_from_legs=balance_from_legs,
            currency=currency,
            wallet_id=wallet_id,
        )

        wallet_balance_output.additional_properties = d
        return wallet_balance_output

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
