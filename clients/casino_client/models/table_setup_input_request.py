from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_source_enum import CardSourceEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="TableSetupInputRequest")


@_attrs_define
class TableSetupInputRequest:
    """
    Attributes:
        card_source (CardSourceEnum | Unset): * `server_shoe` - Server shoe (CSPRNG)
            * `card_reader` - Dealer's card reader
        name (str | Unset):
        pit_id (int | None | Unset):
    """

    card_source: CardSourceEnum | Unset = UNSET
    name: str | Unset = UNSET
    pit_id: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        card_source: str | Unset = UNSET
        if not isinstance(self.card_source, Unset):
            card_source = self.card_source.value

        name = self.name

        pit_id: int | None | Unset
        if isinstance(self.pit_id, Unset):
            pit_id = UNSET
        else:
            pit_id = self.pit_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if card_source is not UNSET:
            field_dict["card_source"] = card_source
        if name is not UNSET:
            field_dict["name"] = name
        if pit_id is not UNSET:
            field_dict["pit_id"] = pit_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _card_source = d.pop("card_source", UNSET)
        card_source: CardSourceEnum | Unset
        if isinstance(_card_source, Unset):
            card_source = UNSET
        else:
            card_source = CardSourceEnum(_card_source)

        name = d.pop("name", UNSET)

        def _parse_pit_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pit_id = _parse_pit_id(d.pop("pit_id", UNSET))

        table_setup_input_request = cls(
            card_source=card_source,
            name=name,
            pit_id=pit_id,
        )

        table_setup_input_request.additional_properties = d
        return table_setup_input_request

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
