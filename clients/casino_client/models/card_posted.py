from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.card_target import CardTarget


T = TypeVar("T", bound="CardPosted")


@_attrs_define
class CardPosted:
    """
    Attributes:
        card (str):
        phase (str):
        round_id (int):
        seq (int):
        target (CardTarget):
    """

    card: str
    phase: str
    round_id: int
    seq: int
    target: CardTarget
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        card = self.card

        phase = self.phase

        round_id = self.round_id

        seq = self.seq

        target = self.target.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "card": card,
                "phase": phase,
                "round_id": round_id,
                "seq": seq,
                "target": target,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.card_target import CardTarget

        d = dict(src_dict)
        card = d.pop("card")

        phase = d.pop("phase")

        round_id = d.pop("round_id")

        seq = d.pop("seq")

        target = CardTarget.from_dict(d.pop("target"))

        card_posted = cls(
            card=card,
            phase=phase,
            round_id=round_id,
            seq=seq,
            target=target,
        )

        card_posted.additional_properties = d
        return card_posted

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
