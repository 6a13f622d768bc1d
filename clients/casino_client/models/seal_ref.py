from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SealRef")


@_attrs_define
class SealRef:
    """
    Attributes:
        chain_hash (str):
        sealed_at (datetime.datetime):
        seq (int):
    """

    chain_hash: str
    sealed_at: datetime.datetime
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chain_hash = self.chain_hash

        sealed_at = self.sealed_at.isoformat()

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chain_hash": chain_hash,
                "sealed_at": sealed_at,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        chain_hash = d.pop("chain_hash")

        sealed_at = datetime.datetime.fromisoformat(d.pop("sealed_at"))

        seq = d.pop("seq")

        seal_ref = cls(
            chain_hash=chain_hash,
            sealed_at=sealed_at,
            seq=seq,
        )

        seal_ref.additional_properties = d
        return seal_ref

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
