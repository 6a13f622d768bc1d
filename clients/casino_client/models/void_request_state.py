from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.void_request_status_enum import VoidRequestStatusEnum

T = TypeVar("T", bound="VoidRequestState")


@_attrs_define
class VoidRequestState:
    """A round's void request as the table shows it (who asked and decided: staff-only).

    Attributes:
        decided_at (datetime.datetime | None):
        expires_at (datetime.datetime):
        id (int):
        reason (str):
        requested_at (datetime.datetime):
        status (VoidRequestStatusEnum): * `requested` - Requested
            * `approved` - Approved
            * `rejected` - Rejected
            * `cancelled` - Cancelled
            * `expired` - Expired
    """

    decided_at: datetime.datetime | None
    expires_at: datetime.datetime
    id: int
    reason: str
    requested_at: datetime.datetime
    status: VoidRequestStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        expires_at = self.expires_at.isoformat()

        id = self.id

        reason = self.reason

        requested_at = self.requested_at.isoformat()

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decided_at": decided_at,
                "expires_at": expires_at,
                "id": id,
                "reason": reason,
                "requested_at": requested_at,
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

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        id = d.pop("id")

        reason = d.pop("reason")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        status = VoidRequestStatusEnum(d.pop("status"))

        void_request_state = cls(
            decided_at=decided_at,
            expires_at=expires_at,
            id=id,
            reason=reason,
            requested_at=requested_at,
            status=status,
        )

        void_request_state.additional_properties = d
        return void_request_state

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
