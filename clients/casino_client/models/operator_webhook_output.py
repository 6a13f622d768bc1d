from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OperatorWebhookOutput")


@_attrs_define
class OperatorWebhookOutput:
    """
    Attributes:
        event_types (list[str]):
        operator_id (int):
        previous_secret_until (datetime.datetime | None): Until then deliveries are also signed with the old secret.
        secret (None | str): The new signing secret (whsec_...): shown this once only; null when the secret was not
            rotated.
        url (str):
    """

    event_types: list[str]
    operator_id: int
    previous_secret_until: datetime.datetime | None
    secret: None | str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_types = self.event_types

        operator_id = self.operator_id

        previous_secret_until: None | str
        if isinstance(self.previous_secret_until, datetime.datetime):
            previous_secret_until = self.previous_secret_until.isoformat()
        else:
            previous_secret_until = self.previous_secret_until

        secret: None | str
        secret = self.secret

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_types": event_types,
                "operator_id": operator_id,
                "previous_secret_until": previous_secret_until,
                "secret": secret,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_types = cast(list[str], d.pop("event_types"))

        operator_id = d.pop("operator_id")

        def _parse_previous_secret_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_until_type_0 = datetime.datetime.fromisoformat(data)

                return previous_secret_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_until = _parse_previous_secret_until(d.pop("previous_secret_until"))

        def _parse_secret(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        secret = _parse_secret(d.pop("secret"))

        url = d.pop("url")

        operator_webhook_output = cls(
            event_types=event_types,
            operator_id=operator_id,
            previous_secret_until=previous_secret_until,
            secret=secret,
            url=url,
        )

        operator_webhook_output.additional_properties = d
        return operator_webhook_output

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
