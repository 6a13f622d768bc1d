from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.outcome_enum import OutcomeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.adjustment_input_request import AdjustmentInputRequest


T = TypeVar("T", bound="DisputeResolveInputRequest")


@_attrs_define
class DisputeResolveInputRequest:
    """
    Attributes:
        outcome (OutcomeEnum): * `upheld` - upheld
            * `rejected` - rejected
        resolution (str):
        adjustments (list[AdjustmentInputRequest] | Unset): Upheld only: what the resolution grants per bet. Empty: pay
            what the replay computes where the ledger differs from it.
    """

    outcome: OutcomeEnum
    resolution: str
    adjustments: list[AdjustmentInputRequest] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        resolution = self.resolution

        adjustments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.adjustments, Unset):
            adjustments = []
            for adjustments_item_data in self.adjustments:
                adjustments_item = adjustments_item_data.to_dict()
                adjustments.append(adjustments_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "outcome": outcome,
                "resolution": resolution,
            }
        )
        if adjustments is not UNSET:
            field_dict["adjustments"] = adjustments

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.adjustment_input_request import AdjustmentInputRequest

        d = dict(src_dict)
        outcome = OutcomeEnum(d.pop("outcome"))

        resolution = d.pop("resolution")

        _adjustments = d.pop("adjustments", UNSET)
        adjustments: list[AdjustmentInputRequest] | Unset = UNSET
        if _adjustments is not UNSET:
            adjustments = []
            for adjustments_item_data in _adjustments:
                adjustments_item = AdjustmentInputRequest.from_dict(adjustments_item_data)

                adjustments.append(adjustments_item)

        dispute_resolve_input_request = cls(
            outcome=outcome,
            resolution=resolution,
            adjustments=adjustments,
        )

        dispute_resolve_input_request.additional_properties = d
        return dispute_resolve_input_request

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
