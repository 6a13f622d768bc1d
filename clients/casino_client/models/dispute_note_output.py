from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dispute_note_kind_enum import DisputeNoteKindEnum

T = TypeVar("T", bound="DisputeNoteOutput")


@_attrs_define
class DisputeNoteOutput:
    """
    Attributes:
        author (str):
        created_at (datetime.datetime):
        evidence_ref (str):
        id (int):
        kind (DisputeNoteKindEnum): * `note` - Note
            * `evidence` - Evidence
        text (str):
    """

    author: str
    created_at: datetime.datetime
    evidence_ref: str
    id: int
    kind: DisputeNoteKindEnum
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author = self.author

        created_at = self.created_at.isoformat()

        evidence_ref = self.evidence_ref

        id = self.id

        kind = self.kind.value

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author": author,
                "created_at": created_at,
                "evidence_ref": evidence_ref,
                "id": id,
                "kind": kind,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        author = d.pop("author")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        evidence_ref = d.pop("evidence_ref")

        id = d.pop("id")

        kind = DisputeNoteKindEnum(d.pop("kind"))

        text = d.pop("text")

        dispute_note_output = cls(
            author=author,
            created_at=created_at,
            evidence_ref=evidence_ref,
            id=id,
            kind=kind,
            text=text,
        )

        dispute_note_output.additional_properties = d
        return dispute_note_output

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
