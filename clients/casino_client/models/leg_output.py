from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.leg_kind_enum import LegKindEnum

T = TypeVar("T", bound="LegOutput")


@_attrs_define
class LegOutput:
    """
    Attributes:
        account_id (int):
        amount (int): Minor units; positive flows into the account.
        bet_ref (str):
        currency (str):
        id (int):
        kind (LegKindEnum): * `deposit` - Deposit
            * `withdrawal` - Withdrawal
            * `stake` - Stake
            * `stake_refund` - Stake Refund
            * `settle_stake` - Settle Stake
            * `payout` - Payout
            * `bonus` - Bonus
    """

    account_id: int
    amount: int
    bet_ref: str
    currency: str
    id: int
    kind: LegKindEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        amount = self.amount

        bet_ref = self.bet_ref

        currency = self.currency

        id = self.id

        kind = self.kind.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "amount": amount,
                "bet_ref": bet_ref,
                "currency": currency,
                "id": id,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        account_id = d.pop("account_id")

        amount = d.pop("amount")

        bet_ref = d.pop("bet_ref")

        currency = d.pop("currency")

        id = d.pop("id")

        kind = LegKindEnum(d.pop("kind"))

        leg_output = cls(
            account_id=account_id,
            amount=amount,
            bet_ref=bet_ref,
            currency=currency,
            id=id,
            kind=kind,
        )

        leg_output.additional_properties = d
        return leg_output

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
