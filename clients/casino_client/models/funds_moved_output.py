from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.transaction_output import TransactionOutput
    from ..models.wallet_output import WalletOutput


T = TypeVar("T", bound="FundsMovedOutput")


@_attrs_define
class FundsMovedOutput:
    """
    Attributes:
        transaction (TransactionOutput):
        wallet (WalletOutput):
    """

    transaction: TransactionOutput
    wallet: WalletOutput
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        transaction = self.transaction.to_dict()

        wallet = self.wallet.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "transaction": transaction,
                "wallet": wallet,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transaction_output import TransactionOutput
        from ..models.wallet_output import WalletOutput

        d = dict(src_dict)
        transaction = TransactionOutput.from_dict(d.pop("transaction"))

        wallet = WalletOutput.from_dict(d.pop("wallet"))

        funds_moved_output = cls(
            transaction=transaction,
            wallet=wallet,
        )

        funds_moved_output.additional_properties = d
        return funds_moved_output

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
