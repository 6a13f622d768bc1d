from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dispute_note_kind_enum import DisputeNoteKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="DisputeNoteInputRequest")


@_attrs_define
class DisputeNoteInputRequest:
    """
    Attributes:
        text (str):
        evidence_ref (str | Unset):  Default: ''.
        kind (DisputeNoteKindEnum | Unset): * `note` - Note
            * `evidence` - Evidence Default: DisputeNoteKindEnum.NOTE.
    """

    text: str
    evidence_ref: str | Unset = ""
    kind: DisputeNoteKindEnum | Unset = DisputeNoteKindEnum.NOTE
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        evidence_ref = self.evidence_ref

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "text": text,
            }
        )
        if evidence_ref is not UNSET:
            field_dict["evidence_ref"] = evidence_ref
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        text = d.pop("text")

        evidence_ref = d.pop("evidence_ref", UNSET)

        _kind = d.pop("kind", UNSET)
        kind: DisputeNoteKindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = DisputeNoteKindEnum(_kind)

        dispute_note_input_request = cls(
            text=text,
            evidence_ref=evidence_ref,
            kind=kind,
        )

        dispute_note_input_request.additional_properties = d
        return dispute_note_input_request

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
