from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.head import Head
    from ..models.verification_status_output_last_verification_type_0 import (
        VerificationStatusOutputLastVerificationType0,
    )


T = TypeVar("T", bound="VerificationStatusOutput")


@_attrs_define
class VerificationStatusOutput:
    """
    Attributes:
        events_pending (int):
        head (Head):
        last_verification (None | VerificationStatusOutputLastVerificationType0):
    """

    events_pending: int
    head: Head
    last_verification: None | VerificationStatusOutputLastVerificationType0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.verification_status_output_last_verification_type_0 import (
            VerificationStatusOutputLastVerificationType0,
        )

        events_pending = self.events_pending

        head = self.head.to_dict()

        last_verification: dict[str, Any] | None
        if isinstance(self.last_verification, VerificationStatusOutputLastVerificationType0):
            last_verification = self.last_verification.to_dict()
        else:
            last_verification = self.last_verification

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "events_pending": events_pending,
                "head": head,
                "last_verification": last_verification,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.head import Head
        from ..models.verification_status_output_last_verification_type_0 import (
            VerificationStatusOutputLastVerificationType0,
        )

        d = dict(src_dict)
        events_pending = d.pop("events_pending")

        head = Head.from_dict(d.pop("head"))

        def _parse_last_verification(
            data: object,
        ) -> None | VerificationStatusOutputLastVerificationType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_verification_type_0 = VerificationStatusOutputLastVerificationType0.from_dict(
                    data
                )

                return last_verification_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VerificationStatusOutputLastVerificationType0, data)

        last_verification = _parse_last_verification(d.pop("last_verification"))

        verification_status_output = cls(
            events_pending=events_pending,
            head=head,
            last_verification=last_verification,
        )

        verification_status_output.additional_properties = d
        return verification_status_output

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
