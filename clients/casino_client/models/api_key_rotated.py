from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.api_key_output import ApiKeyOutput


T = TypeVar("T", bound="ApiKeyRotated")


@_attrs_define
class ApiKeyRotated:
    """
    Attributes:
        api_key (ApiKeyOutput):
        secret (str):
    """

    api_key: ApiKeyOutput
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        api_key = self.api_key.to_dict()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "api_key": api_key,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_key_output import ApiKeyOutput

        d = dict(src_dict)
        api_key = ApiKeyOutput.from_dict(d.pop("api_key"))

        secret = d.pop("secret")

        api_key_rotated = cls(
            api_key=api_key,
            secret=secret,
        )

        api_key_rotated.additional_properties = d
        return api_key_rotated

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
