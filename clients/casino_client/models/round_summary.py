from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RoundSummary")


@_attrs_define
class RoundSummary:
    """
    Attributes:
        betting_closes_at (datetime.datetime | None):
        decision_deadline (datetime.datetime | None):
        held_since (datetime.datetime | None):
        id (int):
        number (int):
        phase (str):
        seq (int):
        suspended_reason (str):
        table_id (int):
    """

    betting_closes_at: datetime.datetime | None
    decision_deadline: datetime.datetime | None
    held_since: datetime.datetime | None
    id: int
    number: int
    phase: str
    seq: int
    suspended_reason: str
    table_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        betting_closes_at: None | str
        if isinstance(self.betting_closes_at, datetime.datetime):
            betting_closes_at = self.betting_closes_at.isoformat()
        else:
            betting_closes_at = self.betting_closes_at

        decision_deadline: None | str
        if isinstance(self.decision_deadline, datetime.datetime):
            decision_deadline = self.decision_deadline.isoformat()
        else:
            decision_deadline = self.decision_deadline

        held_since: None | str
        if isinstance(self.held_since, datetime.datetime):
            held_since = self.held_since.isoformat()
        else:
            held_since = self.held_since

        id = self.id

        number = self.number

        phase = self.phase

        seq = self.seq

        suspended_reason = self.suspended_reason

        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "betting_closes_at": betting_closes_at,
                "decision_deadline": decision_deadline,
                "held_since": held_since,
                "id": id,
                "number": number,
                "phase": phase,
                "seq": seq,
                "suspended_reason": suspended_reason,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_betting_closes_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                betting_closes_at_type_0 = datetime.datetime.fromisoformat(data)

                return betting_closes_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        betting_closes_at = _parse_betting_closes_at(d.pop("betting_closes_at"))

        def _parse_decision_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_deadline_type_0 = datetime.datetime.fromisoformat(data)

                return decision_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decision_deadline = _parse_decision_deadline(d.pop("decision_deadline"))

        def _parse_held_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                held_since_type_0 = datetime.datetime.fromisoformat(data)

                return held_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        held_since = _parse_held_since(d.pop("held_since"))

        id = d.pop("id")

        number = d.pop("number")

        phase = d.pop("phase")

        seq = d.pop("seq")

        suspended_reason = d.pop("suspended_reason")

        table_id = d.pop("table_id")

        round_summary = cls(
            betting_closes_at=betting_closes_at,
            decision_deadline=decision_deadline,
            held_since=held_since,
            id=id,
            number=number,
            phase=phase,
            seq=seq,
            suspended_reason=suspended_reason,
            table_id=table_id,
        )

        round_summary.additional_properties = d
        return round_summary

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
