from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.evidence_input_request import EvidenceInputRequest


T = TypeVar("T", bound="DisputeListCreateInputRequest")


@_attrs_define
class DisputeListCreateInputRequest:
    """
    Attributes:
        claim (str):
        round_id (int):
        bet_ref (str | Unset):  Default: ''.
        claimant (str | Unset):  Default: ''.
        evidence (list[EvidenceInputRequest] | Unset):
    """

    claim: str
    round_id: int
    bet_ref: str | Unset = ""
    claimant: str | Unset = ""
    evidence: list[EvidenceInputRequest] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        claim = self.claim

        round_id = self.round_id

        bet_ref = self.bet_ref

        claimant = self.claimant

        evidence: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.evidence, Unset):
            evidence = []
            for evidence_item_data in self.evidence:
                evidence_item = evidence_item_data.to_dict()
                evidence.append(evidence_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "claim": claim,
                "round_id": round_id,
            }
        )
        if bet_ref is not UNSET:
            field_dict["bet_ref"] = bet_ref
        if claimant is not UNSET:
            field_dict["claimant"] = claimant
        if evidence is not UNSET:
            field_dict["evidence"] = evidence

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.evidence_input_request import EvidenceInputRequest

        d = dict(src_dict)
        claim = d.pop("claim")

        round_id = d.pop("round_id")

        bet_ref = d.pop("bet_ref", UNSET)

        claimant = d.pop("claimant", UNSET)

        _evidence = d.pop("evidence", UNSET)
        evidence: list[EvidenceInputRequest] | Unset = UNSET
        if _evidence is not UNSET:
            evidence = []
            for evidence_item_data in _evidence:
                evidence_item = EvidenceInputRequest.from_dict(evidence_item_data)

                evidence.append(evidence_item)

        dispute_list_create_input_request = cls(
            claim=claim,
            round_id=round_id,
            bet_ref=bet_ref,
            claimant=claimant,
            evidence=evidence,
        )

        dispute_list_create_input_request.additional_properties = d
        return dispute_list_create_input_request

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
