from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_source_enum import CardSourceEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="TableCreateInputRequest")


@_attrs_define
class TableCreateInputRequest:
    """
    Attributes:
        casino_id (int):
        code (str):
        name (str):
        payout_schedule_id (int):
        rule_set_id (int):
        betting_seconds (int | Unset):
        box_max (int | None | Unset):
        card_source (CardSourceEnum | Unset): * `server_shoe` - Server shoe (CSPRNG)
            * `card_reader` - Dealer's card reader
        currency (str | Unset):
        decision_seconds (int | Unset):
        max_bet (int | Unset):
        min_bet (int | Unset):
        min_unit (int | Unset):
        pit_id (int | Unset):
    """

    casino_id: int
    code: str
    name: str
    payout_schedule_id: int
    rule_set_id: int
    betting_seconds: int | Unset = UNSET
    box_max: int | None | Unset = UNSET
    card_source: CardSourceEnum | Unset = UNSET
    currency: str | Unset = UNSET
    decision_seconds: int | Unset = UNSET
    max_bet: int | Unset = UNSET
    min_bet: int | Unset = UNSET
    min_unit: int | Unset = UNSET
    pit_id: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        casino_id = self.casino_id

        code = self.code

        name = self.name

        payout_schedule_id = self.payout_schedule_id

        rule_set_id = self.rule_set_id

        betting_seconds = self.betting_seconds

        box_max: int | None | Unset
        if isinstance(self.box_max, Unset):
            box_max = UNSET
        else:
            box_max = self.box_max

        card_source: str | Unset = UNSET
        if not isinstance(self.card_source, Unset):
            card_source = self.card_source.value

        currency = self.currency

        decision_seconds = self.decision_seconds

        max_bet = self.max_bet

        min_bet = self.min_bet

        min_unit = self.min_unit

        pit_id = self.pit_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "casino_id": casino_id,
                "code": code,
                "name": name,
                "payout_schedule_id": payout_schedule_id,
                "rule_set_id": rule_set_id,
            }
        )
        if betting_seconds is not UNSET:
            field_dict["betting_seconds"] = betting_seconds
        if box_max is not UNSET:
            field_dict["box_max"] = box_max
        if card_source is not UNSET:
            field_dict["card_source"] = card_source
        if currency is not UNSET:
            field_dict["currency"] = currency
        if decision_seconds is not UNSET:
            field_dict["decision_seconds"] = decision_seconds
        if max_bet is not UNSET:
            field_dict["max_bet"] = max_bet
        if min_bet is not UNSET:
            field_dict["min_bet"] = min_bet
        if min_unit is not UNSET:
            field_dict["min_unit"] = min_unit
        if pit_id is not UNSET:
            field_dict["pit_id"] = pit_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        casino_id = d.pop("casino_id")

        code = d.pop("code")

        name = d.pop("name")

        payout_schedule_id = d.pop("payout_schedule_id")

        rule_set_id = d.pop("rule_set_id")

        betting_seconds = d.pop("betting_seconds", UNSET)

        def _parse_box_max(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        box_max = _parse_box_max(d.pop("box_max", UNSET))

        _card_source = d.pop("card_source", UNSET)
        card_source: CardSourceEnum | Unset
        if isinstance(_card_source, Unset):
            card_source = UNSET
        else:
            card_source = CardSourceEnum(_card_source)

        currency = d.pop("currency", UNSET)

        decision_seconds = d.pop("decision_seconds", UNSET)

        max_bet = d.pop("max_bet", UNSET)

        min_bet = d.pop("min_bet", UNSET)

        min_unit = d.pop("min_unit", UNSET)

        pit_id = d.pop("pit_id", UNSET)

        table_create_input_request = cls(
            casino_id=casino_id,
            code=code,
            name=name,
            payout_schedule_id=payout_schedule_id,
            rule_set_id=rule_set_id,
            betting_seconds=betting_seconds,
            box_max=box_max,
            card_source=card_source,
            currency=currency,
            decision_seconds=decision_seconds,
            max_bet=max_bet,
            min_bet=min_bet,
            min_unit=min_unit,
            pit_id=pit_id,
        )

        table_create_input_request.additional_properties = d
        return table_create_input_request

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
