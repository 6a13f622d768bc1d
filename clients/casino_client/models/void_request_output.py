from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.void_request_status_enum import VoidRequestStatusEnum

T = TypeVar("T", bound="VoidRequestOutput")


@_attrs_define
class VoidRequestOutput:
    """
    Attributes:
        decided_at (datetime.datetime | None):
        decided_by_id (int | None):
        decision_note (str):
        expires_at (datetime.datetime):
        id (int):
        reason (str):
        requested_at (datetime.datetime):
        requested_by_id (int):
        round_id (int):
        status (VoidRequestStatusEnum): * `requested` - Requested
            * `approved` - Approved
            * `rejected` - Rejected
            * `cancelled` - Cancelled
            * `expired` - Expired
    """

    decided_at: datetime.datetime | None
    decided_by_id: int | None
    decision_note: str
    expires_at: datetime.datetime
    id: int
    reason: str
    requested_at: datetime.datetime
    requested_by_id: int
    round_id: int
    status: VoidRequestStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        decided_by_id: int | None
        decided_by_id = self.decided_by_id

        decision_note = self.decision_note

        expires_at = self.expires_at.isoformat()

        id = self.id

        reason = self.reason

        requested_at = self.requested_at.isoformat()

        requested_by_id = self.requested_by_id

        round_id = self.round_id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decided_at": decided_at,
                "decided_by_id": decided_by_id,
                "decision_note": decision_note,
                "expires_at": expires_at,
                "id": id,
                "reason": reason,
                "requested_at": requested_at,
                "requested_by_id": requested_by_id,
                "round_id": round_id,
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

        def _parse_decided_by_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        decided_by_id = _parse_decided_by_id(d.pop("decided_by_id"))

        decision_note = d.pop("decision_note")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        id = d.pop("id")

        reason = d.pop("reason")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        requested_by_id = d.pop("requested_by_id")

        round_id = d.pop("round_id")

        status = VoidRequestStatusEnum(d.pop("status"))

        void_request_output = cls(
            decided_at=decided_at,
            decided_by_id=decided_by_id,
            decision_note=decision_note,
            expires_at=expires_at,
            id=id,
            reason=reason,
            requested_at=requested_at,
            requested_by_id=requested_by_id,
            round_id=round_id,
            status=status,
        )

        void_request_output.additional_properties = d
        return void_request_output

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
