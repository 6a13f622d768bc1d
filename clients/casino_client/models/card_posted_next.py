from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.card_target import CardTarget
    from ..models.round_next import RoundNext


T = TypeVar("T", bound="CardPostedNext")


@_attrs_define
class CardPostedNext:
    """
    Attributes:
        card (str):
        next_ (RoundNext):
        phase (str):
        round_id (int):
        seq (int):
        target (CardTarget):
    """

    card: str
    next_: RoundNext
    phase: str
    round_id: int
    seq: int
    target: CardTarget
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        card = self.card

        next_ = self.next_.to_dict()

        phase = self.phase

        round_id = self.round_id

        seq = self.seq

        target = self.target.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "card": card,
                "next": next_,
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
        from ..models.round_next import RoundNext

        d = dict(src_dict)
        card = d.pop("card")

        next_ = RoundNext.from_dict(d.pop("next"))

        phase = d.pop("phase")

        round_id = d.pop("round_id")

        seq = d.pop("seq")

        target = CardTarget.from_dict(d.pop("target"))

        card_posted_next = cls(
            card=card,
            next_=next_,
            phase=phase,
            round_id=round_id,
            seq=seq,
            target=target,
        )

        card_posted_next.additional_properties = d
        return card_posted_next

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
