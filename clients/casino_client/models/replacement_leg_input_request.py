from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.leg_kind_enum import LegKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReplacementLegInputRequest")


@_attrs_define
class ReplacementLegInputRequest:
    """
    Attributes:
        account_id (int):
        amount (int):
        kind (LegKindEnum): * `deposit` - Deposit
            * `withdrawal` - Withdrawal
            * `stake` - Stake
            * `stake_refund` - Stake Refund
            * `settle_stake` - Settle Stake
            * `payout` - Payout
            * `bonus` - Bonus
        bet_ref (str | Unset):  Default: ''.
    """

    account_id: int
    amount: int
    kind: LegKindEnum
    bet_ref: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        amount = self.amount

        kind = self.kind.value

        bet_ref = self.bet_ref

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "amount": amount,
                "kind": kind,
            }
        )
        if bet_ref is not UNSET:
            field_dict["bet_ref"] = bet_ref

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        account_id = d.pop("account_id")

        amount = d.pop("amount")

        kind = LegKindEnum(d.pop("kind"))

        bet_ref = d.pop("bet_ref", UNSET)

        replacement_leg_input_request = cls(
            account_id=account_id,
            amount=amount,
            kind=kind,
            bet_ref=bet_ref,
        )

        replacement_leg_input_request.additional_properties = d
        return replacement_leg_input_request

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
