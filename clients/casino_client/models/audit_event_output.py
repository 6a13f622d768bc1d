from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AuditEventOutput")


@_attrs_define
class AuditEventOutput:
    """
    Attributes:
        actor_id (str):
        actor_kind (str):
        actor_label (str):
        bet_id (int | None):
        casino_id (int | None):
        content_hash (str):
        id (int):
        name (str):
        occurred_at (datetime.datetime):
        operator_id (int | None):
        payload (Any):
        request_id (str):
        round_id (int | None):
        table_id (int | None):
        wallet_id (int | None):
    """

    actor_id: str
    actor_kind: str
    actor_label: str
    bet_id: int | None
    casino_id: int | None
    content_hash: str
    id: int
    name: str
    occurred_at: datetime.datetime
    operator_id: int | None
    payload: Any
    request_id: str
    round_id: int | None
    table_id: int | None
    wallet_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actor_id = self.actor_id

        actor_kind = self.actor_kind

        actor_label = self.actor_label

        bet_id: int | None
        bet_id = self.bet_id

        casino_id: int | None
        casino_id = self.casino_id

        content_hash = self.content_hash

        id = self.id

        name = self.name

        occurred_at = self.occurred_at.isoformat()

        operator_id: int | None
        operator_id = self.operator_id

        payload = self.payload

        request_id = self.request_id

        round_id: int | None
        round_id = self.round_id

        table_id: int | None
        table_id = self.table_id

        wallet_id: int | None
        wallet_id = self.wallet_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor_id": actor_id,
                "actor_kind": actor_kind,
                "actor_label": actor_label,
                "bet_id": bet_id,
                "casino_id": casino_id,
                "content_hash": content_hash,
                "id": id,
                "name": name,
                "occurred_at": occurred_at,
                "operator_id": operator_id,
                "payload": payload,
                "request_id": request_id,
                "round_id": round_id,
                "table_id": table_id,
                "wallet_id": wallet_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        actor_id = d.pop("actor_id")

        actor_kind = d.pop("actor_kind")

        actor_label = d.pop("actor_label")

        def _parse_bet_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        bet_id = _parse_bet_id(d.pop("bet_id"))

        def _parse_casino_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        casino_id = _parse_casino_id(d.pop("casino_id"))

        content_hash = d.pop("content_hash")

        id = d.pop("id")

        name = d.pop("name")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        def _parse_operator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        operator_id = _parse_operator_id(d.pop("operator_id"))

        payload = d.pop("payload")

        request_id = d.pop("request_id")

        def _parse_round_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        round_id = _parse_round_id(d.pop("round_id"))

        def _parse_table_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table_id = _parse_table_id(d.pop("table_id"))

        def _parse_wallet_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        wallet_id = _parse_wallet_id(d.pop("wallet_id"))

        audit_event_output = cls(
            actor_id=actor_id,
            actor_kind=actor_kind,
            actor_label=actor_label,
            bet_id=bet_id,
            casino_id=casino_id,
            content_hash=content_hash,
            id=id,
            name=name,
            occurred_at=occurred_at,
            operator_id=operator_id,
            payload=payload,
            request_id=request_id,
            round_id=round_id,
            table_id=table_id,
            wallet_id=wallet_id,
        )

        audit_event_output.additional_properties = d
        return audit_event_output

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
