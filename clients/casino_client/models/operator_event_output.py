from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_enum import DeliveryEnum

T = TypeVar("T", bound="OperatorEventOutput")


@_attrs_define
class OperatorEventOutput:
    """
    Attributes:
        attempts (int):
        created_at (datetime.datetime):
        delivery (DeliveryEnum): * `pending` - Pending
            * `delivered` - Delivered
            * `failed` - Failed
            * `not_configured` - Not Configured
            * `feed_only` - Feed Only
            * `not_subscribed` - Not Subscribed
        id (str): Opaque; the webhook-id header.
        kind (str):
        operator_id (int):
        payload (Any):
    """

    attempts: int
    created_at: datetime.datetime
    delivery: DeliveryEnum
    id: str
    kind: str
    operator_id: int
    payload: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        delivery = self.delivery.value

        id = self.id

        kind = self.kind

        operator_id = self.operator_id

        payload = self.payload

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "delivery": delivery,
                "id": id,
                "kind": kind,
                "operator_id": operator_id,
                "payload": payload,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        delivery = DeliveryEnum(d.pop("delivery"))

        id = d.pop("id")

        kind = d.pop("kind")

        operator_id = d.pop("operator_id")

        payload = d.pop("payload")

        operator_event_output = cls(
            attempts=attempts,
            created_at=created_at,
            delivery=delivery,
            id=id,
            kind=kind,
            operator_id=operator_id,
            payload=payload,
        )

        operator_event_output.additional_properties = d
        return operator_event_output

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
