from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.played_event import PlayedEvent


T = TypeVar("T", bound="Played")


@_attrs_define
class Played:
    """
    Attributes:
        event (PlayedEvent):
        phase (str):
        round_id (int):
        seq (int):
    """

    event: PlayedEvent
    phase: str
    round_id: int
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event.to_dict()

        phase = self.phase

        round_id = self.round_id

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "phase": phase,
                "round_id": round_id,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.played_event import PlayedEvent

        d = dict(src_dict)
        event = PlayedEvent.from_dict(d.pop("event"))

        phase = d.pop("phase")

        round_id = d.pop("round_id")

        seq = d.pop("seq")

        played = cls(
            event=event,
            phase=phase,
            round_id=round_id,
            seq=seq,
        )

        played.additional_properties = d
        return played

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
