from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.correction_output_status_enum import CorrectionOutputStatusEnum

T = TypeVar("T", bound="CorrectionOutput")


@_attrs_define
class CorrectionOutput:
    """
    Attributes:
        decided_at (datetime.datetime | None):
        decided_by (None | str):
        decision_note (str):
        id (int):
        original_id (int):
        reason (str):
        replacement_id (int | None):
        replacement_legs (Any):
        requested_at (datetime.datetime):
        requested_by (str):
        reversal_id (int | None):
        status (CorrectionOutputStatusEnum): * `requested` - Requested
            * `approved` - Approved
            * `rejected` - Rejected
    """

    decided_at: datetime.datetime | None
    decided_by: None | str
    decision_note: str
    id: int
    original_id: int
    reason: str
    replacement_id: int | None
    replacement_legs: Any
    requested_at: datetime.datetime
    requested_by: str
    reversal_id: int | None
    status: CorrectionOutputStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        decided_by: None | str
        decided_by = self.decided_by

        decision_note = self.decision_note

        id = self.id

        original_id = self.original_id

        reason = self.reason

        replacement_id: int | None
        replacement_id = self.replacement_id

        replacement_legs = self.replacement_legs

        requested_at = self.requested_at.isoformat()

        requested_by = self.requested_by

        reversal_id: int | None
        reversal_id = self.reversal_id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decided_at": decided_at,
                "decided_by": decided_by,
                "decision_note": decision_note,
                "id": id,
                "original_id": original_id,
                "reason": reason,
                "replacement_id": replacement_id,
                "replacement_legs": replacement_legs,
                "requested_at": requested_at,
                "requested_by": requested_by,
                "reversal_id": reversal_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        def _parse_decided_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decided_by = _parse_decided_by(d.pop("decided_by"))

        decision_note = d.pop("decision_note")

        id = d.pop("id")

        original_id = d.pop("original_id")

        reason = d.pop("reason")

        def _parse_replacement_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        replacement_id = _parse_replacement_id(d.pop("replacement_id"))

        replacement_legs = d.pop("replacement_legs")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        requested_by = d.pop("requested_by")

        def _parse_reversal_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        reversal_id = _parse_reversal_id(d.pop("reversal_id"))

        status = CorrectionOutputStatusEnum(d.pop("status"))

        correction_output = cls(
            decided_at=decided_at,
            decided_by=decided_by,
            decision_note=decision_note,
            id=id,
            original_id=original_id,
            reason=reason,
            replacement_id=replacement_id,
            replacement_legs=replacement_legs,
            requested_at=requested_at,
            requested_by=requested_by,
            reversal_id=reversal_id,
            status=status,
        )

        correction_output.additional_properties = d
        return correction_output

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
