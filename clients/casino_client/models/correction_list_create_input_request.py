from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.replacement_leg_input_request import ReplacementLegInputRequest


T = TypeVar("T", bound="CorrectionListCreateInputRequest")


@_attrs_define
class CorrectionListCreateInputRequest:
    """
    Attributes:
        reason (str):
        transaction_id (int):
        replacement_legs (list[ReplacementLegInputRequest] | Unset):
    """

    reason: str
    transaction_id: int
    replacement_legs: list[ReplacementLegInputRequest] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        transaction_id = self.transaction_id

        replacement_legs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.replacement_legs, Unset):
            replacement_legs = []
            for replacement_legs_item_data in self.replacement_legs:
                replacement_legs_item = replacement_legs_item_data.to_dict()
                replacement_legs.append(replacement_legs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
                "transaction_id": transaction_id,
            }
        )
        if replacement_legs is not UNSET:
            field_dict["replacement_legs"] = replacement_legs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.replacement_leg_input_request import ReplacementLegInputRequest

        d = dict(src_dict)
        reason = d.pop("reason")

        transaction_id = d.pop("transaction_id")

        _replacement_legs = d.pop("replacement_legs", UNSET)
        replacement_legs: list[ReplacementLegInputRequest] | Unset = UNSET
        if _replacement_legs is not UNSET:
            replacement_legs = []
            for replacement_legs_item_data in _replacement_legs:
                replacement_legs_item = ReplacementLegInputRequest.from_dict(
                    replacement_legs_item_data
                )

                replacement_legs.append(replacement_legs_item)

        correction_list_create_input_request = cls(
            reason=reason,
            transaction_id=transaction_id,
            replacement_legs=replacement_legs,
        )

        correction_list_create_input_request.additional_properties = d
        return correction_list_create_input_request

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
