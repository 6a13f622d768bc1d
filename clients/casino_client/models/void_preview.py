from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.void_preview_line import VoidPreviewLine


T = TypeVar("T", bound="VoidPreview")


@_attrs_define
class VoidPreview:
    """
    Attributes:
        currency (str):
        returned (list[VoidPreviewLine]): undecided stakes given back
        standing (list[VoidPreviewLine]): decided outcomes that stand
        total_paid (int):
        total_returned (int):
        total_stake (int):
    """

    currency: str
    returned: list[VoidPreviewLine]
    standing: list[VoidPreviewLine]
    total_paid: int
    total_returned: int
    total_stake: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        returned = []
        for returned_item_data in self.returned:
            returned_item = returned_item_data.to_dict()
            returned.append(returned_item)

        standing = []
        for standing_item_data in self.standing:
            standing_item = standing_item_data.to_dict()
            standing.append(standing_item)

        total_paid = self.total_paid

        total_returned = self.total_returned

        total_stake = self.total_stake

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "returned": returned,
                "standing": standing,
                "total_paid": total_paid,
                "total_returned": total_returned,
                "total_stake": total_stake,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.void_preview_line import VoidPreviewLine

        d = dict(src_dict)
        currency = d.pop("currency")

        returned = []
        _returned = d.pop("returned")
        for returned_item_data in _returned:
            returned_item = VoidPreviewLine.from_dict(returned_item_data)

            returned.append(returned_item)

        standing = []
        _standing = d.pop("standing")
        for standing_item_data in _standing:
            standing_item = VoidPreviewLine.from_dict(standing_item_data)

            standing.append(standing_item)

        total_paid = d.pop("total_paid")

        total_returned = d.pop("total_returned")

        total_stake = d.pop("total_stake")

        void_preview = cls(
            currency=currency,
            returned=returned,
            standing=standing,
            total_paid=total_paid,
            total_returned=total_returned,
            total_stake=total_stake,
        )

        void_preview.additional_properties = d
        return void_preview

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
