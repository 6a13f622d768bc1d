from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.device_token_output import DeviceTokenOutput


T = TypeVar("T", bound="DeviceTokenCreated")


@_attrs_define
class DeviceTokenCreated:
    """
    Attributes:
        device_token (DeviceTokenOutput):
        secret (str):
    """

    device_token: DeviceTokenOutput
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device_token = self.device_token.to_dict()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device_token": device_token,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.device_token_output import DeviceTokenOutput

        d = dict(src_dict)
        device_token = DeviceTokenOutput.from_dict(d.pop("device_token"))

        secret = d.pop("secret")

        device_token_created = cls(
            device_token=device_token,
            secret=secret,
        )

        device_token_created.additional_properties = d
        return device_token_created

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
