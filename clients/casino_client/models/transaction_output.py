from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.leg_output import LegOutput


T = TypeVar("T", bound="TransactionOutput")


@_attrs_define
class TransactionOutput:
    """
    Attributes:
        actor_kind (str):
        actor_label (str):
        dealer_id (int | None):
        description (str):
        id (int):
        kind (str): One of: deposit, withdrawal, stake, stake_refund, settlement, reversal, replacement.
        legs (list[LegOutput]):
        operator_id (int | None):
        posted_at (datetime.datetime):
        reference (str):
        reverses_id (int | None):
        round_id (int | None):
        shift (str):
        table_id (int | None):
    """

    actor_kind: str
    actor_label: str
    dealer_id: int | None
    description: str
    id: int
    kind: str
    legs: list[LegOutput]
    operator_id: int | None
    posted_at: datetime.datetime
    reference: str
    reverses_id: int | None
    round_id: int | None
    shift: str
    table_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actor_kind = self.actor_kind

        actor_label = self.actor_label

        dealer_id: int | None
        dealer_id = self.dealer_id

        description = self.description

        id = self.id

        kind = self.kind

        legs = []
        for legs_item_data in self.legs:
            legs_item = legs_item_data.to_dict()
            legs.append(legs_item)

        operator_id: int | None
        operator_id = self.operator_id

        posted_at = self.posted_at.isoformat()

        reference = self.reference

        reverses_id: int | None
        reverses_id = self.reverses_id

        round_id: int | None
        round_id = self.round_id

        shift = self.shift

        table_id: int | None
        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor_kind": actor_kind,
                "actor_label": actor_label,
                "dealer_id": dealer_id,
                "description": description,
                "id": id,
                "kind": kind,
                "legs": legs,
                "operator_id": operator_id,
                "posted_at": posted_at,
                "reference": reference,
                "reverses_id": reverses_id,
                "round_id": round_id,
                "shift": shift,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.leg_output import LegOutput

        d = dict(src_dict)
        actor_kind = d.pop("actor_kind")

        actor_label = d.pop("actor_label")

        def _parse_dealer_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        dealer_id = _parse_dealer_id(d.pop("dealer_id"))

        description = d.pop("description")

        id = d.pop("id")

        kind = d.pop("kind")

        legs = []
        _legs = d.pop("legs")
        for legs_item_data in _legs:
            legs_item = LegOutput.from_dict(legs_item_data)

            legs.append(legs_item)

        def _parse_operator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        operator_id = _parse_operator_id(d.pop("operator_id"))

        posted_at = datetime.datetime.fromisoformat(d.pop("posted_at"))

        reference = d.pop("reference")

        def _parse_reverses_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        reverses_id = _parse_reverses_id(d.pop("reverses_id"))

        def _parse_round_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        round_id = _parse_round_id(d.pop("round_id"))

        shift = d.pop("shift")

        def _parse_table_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table_id = _parse_table_id(d.pop("table_id"))

        transaction_output = cls(
            actor_kind=actor_kind,
            actor_label=actor_label,
            dealer_id=dealer_id,
            description=description,
            id=id,
            kind=kind,
            legs=legs,
            operator_id=operator_id,
            posted_at=posted_at,
            reference=reference,
            reverses_id=reverses_id,
            round_id=round_id,
            shift=shift,
            table_id=table_id,
        )

        transaction_output.additional_properties = d
        return transaction_output

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
