from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ShoeOutput")


@_attrs_define
class ShoeOutput:
    """
    Attributes:
        cards_dealt (int):
        created_at (datetime.datetime):
        deck_kind (str):
        decks (int):
        device_id (str):
        id (int):
        shuffle_method (str):
        source (str):
        table_id (int):
    """

    cards_dealt: int
    created_at: datetime.datetime
    deck_kind: str
    decks: int
    device_id: str
    id: int
    shuffle_method: str
    source: str
    table_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards_dealt = self.cards_dealt

        created_at = self.created_at.isoformat()

        deck_kind = self.deck_kind

        decks = self.decks

        device_id = self.device_id

        id = self.id

        shuffle_method = self.shuffle_method

        source = self.source

        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards_dealt": cards_dealt,
                "created_at": created_at,
                "deck_kind": deck_kind,
                "decks": decks,
                "device_id": device_id,
                "id": id,
                "shuffle_method": shuffle_method,
                "source": source,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cards_dealt = d.pop("cards_dealt")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        deck_kind = d.pop("deck_kind")

        decks = d.pop("decks")

        device_id = d.pop("device_id")

        id = d.pop("id")

        shuffle_method = d.pop("shuffle_method")

        source = d.pop("source")

        table_id = d.pop("table_id")

        shoe_output = cls(
            cards_dealt=cards_dealt,
            created_at=created_at,
            deck_kind=deck_kind,
            decks=decks,
            device_id=device_id,
            id=id,
            shuffle_method=shuffle_method,
            source=source,
            table_id=table_id,
        )

        shoe_output.additional_properties = d
        return shoe_output

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
