from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OwnWebhookInputRequest")


@_attrs_define
class OwnWebhookInputRequest:
    """
    Attributes:
        webhook_url (str):
        event_types (list[str] | Unset): The event types to deliver (empty: all); omitted: unchanged. Others stay in the
            feed only.
        rotate_secret (bool | Unset): Issue a new signing secret (shown once). The previous one keeps signing alongside
            it for 24 hours. Always true when there is no secret yet. Default: True.
    """

    webhook_url: str
    event_types: list[str] | Unset = UNSET
    rotate_secret: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        webhook_url = self.webhook_url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types

        rotate_secret = self.rotate_secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "webhook_url": webhook_url,
            }
        )
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if rotate_secret is not UNSET:
            field_dict["rotate_secret"] = rotate_secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        webhook_url = d.pop("webhook_url")

        event_types = cast(list[str], d.pop("event_types", UNSET))

        rotate_secret = d.pop("rotate_secret", UNSET)

        own_webhook_input_request = cls(
            webhook_url=webhook_url,
            event_types=event_types,
            rotate_secret=rotate_secret,
        )

        own_webhook_input_request.additional_properties = d
        return own_webhook_input_request

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
