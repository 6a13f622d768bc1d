from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.circuit_enum import CircuitEnum

T = TypeVar("T", bound="OwnWebhook")


@_attrs_define
class OwnWebhook:
    """
    Attributes:
        circuit (CircuitEnum): * `closed` - Closed
            * `open` - Open
            * `half_open` - Half Open
        consecutive_failures (int):
        event_types (list[str]):
        open_until (datetime.datetime | None):
        operator_id (int):
        previous_secret_until (datetime.datetime | None):
        url (str):
    """

    circuit: CircuitEnum
    consecutive_failures: int
    event_types: list[str]
    open_until: datetime.datetime | None
    operator_id: int
    previous_secret_until: datetime.datetime | None
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        circuit = self.circuit.value

        consecutive_failures = self.consecutive_failures

        event_types = self.event_types

        open_until: None | str
        if isinstance(self.open_until, datetime.datetime):
            open_until = self.open_until.isoformat()
        else:
            open_until = self.open_until

        operator_id = self.operator_id

        previous_secret_until: None | str
        if isinstance(self.previous_secret_until, datetime.datetime):
            previous_secret_until = self.previous_secret_until.isoformat()
        else:
            previous_secret_until = self.previous_secret_until

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "circuit": circuit,
                "consecutive_failures": consecutive_failures,
                "event_types": event_types,
                "open_until": open_until,
                "operator_id": operator_id,
                "previous_secret_until": previous_secret_until,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        circuit = CircuitEnum(d.pop("circuit"))

        consecutive_failures = d.pop("consecutive_failures")

        event_types = cast(list[str], d.pop("event_types"))

        def _parse_open_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                open_until_type_0 = datetime.datetime.fromisoformat(data)

                return open_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        open_until = _parse_open_until(d.pop("open_until"))

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

        url = d.pop("url")

        own_webhook = cls(
            circuit=circuit,
            consecutive_failures=consecutive_failures,
            event_types=event_types,
            open_until=open_until,
            operator_id=operator_id,
            previous_secret_until=previous_secret_until,
            url=url,
        )

        own_webhook.additional_properties = d
        return own_webhook

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
