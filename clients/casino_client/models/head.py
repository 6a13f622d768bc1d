from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Head")


@_attrs_define
class Head:
    """
    Attributes:
        chain_hash (str):
        last_event (list[int] | None):
        sealed_at (datetime.datetime | None):
        seq (int):
    """

    chain_hash: str
    last_event: list[int] | None
    sealed_at: datetime.datetime | None
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chain_hash = self.chain_hash

        last_event: list[int] | None
        if isinstance(self.last_event, list):
            last_event = self.last_event

        else:
            last_event = self.last_event

        sealed_at: None | str
        if isinstance(self.sealed_at, datetime.datetime):
            sealed_at = self.sealed_at.isoformat()
        else:
            sealed_at = self.sealed_at

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chain_hash": chain_hash,
                "last_event": last_event,
                "sealed_at": sealed_at,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        chain_hash = d.pop("chain_hash")

        def _parse_last_event(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                last_event_type_0 = cast(list[int], data)

                return last_event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        last_event = _parse_last_event(d.pop("last_event"))

        def _parse_sealed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sealed_at_type_0 = datetime.datetime.fromisoformat(data)

                return sealed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sealed_at = _parse_sealed_at(d.pop("sealed_at"))

        seq = d.pop("seq")

        head = cls(
            chain_hash=chain_hash,
            last_event=last_event,
            sealed_at=sealed_at,
            seq=seq,
        )

        head.additional_properties = d
        return head

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
