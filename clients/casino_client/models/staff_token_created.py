from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.staff_token_output import StaffTokenOutput


T = TypeVar("T", bound="StaffTokenCreated")


@_attrs_define
class StaffTokenCreated:
    """
    Attributes:
        secret (str):
        staff_token (StaffTokenOutput):
    """

    secret: str
    staff_token: StaffTokenOutput
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        secret = self.secret

        staff_token = self.staff_token.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "secret": secret,
                "staff_token": staff_token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.staff_token_output import StaffTokenOutput

        d = dict(src_dict)
        secret = d.pop("secret")

        staff_token = StaffTokenOutput.from_dict(d.pop("staff_token"))

        staff_token_created = cls(
            secret=secret,
            staff_token=staff_token,
        )

        staff_token_created.additional_properties = d
        return staff_token_created

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
