from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.table_output_card_source_enum import TableOutputCardSourceEnum
from ..models.table_output_status_enum import TableOutputStatusEnum

T = TypeVar("T", bound="TableOutput")


@_attrs_define
class TableOutput:
    """
    Attributes:
        betting_seconds (int):
        box_max (int | None):
        card_source (TableOutputCardSourceEnum): * `server_shoe` - server_shoe
            * `card_reader` - card_reader
        casino (str):
        code (str):
        currency (str):
        current_round_id (int | None):
        dealer_id (int | None):
        decision_seconds (int):
        id (int):
        max_bet (int):
        min_bet (int):
        min_unit (int):
        name (str):
        payout_schedule (None | str):
        payout_schedule_id (int | None):
        pit (None | str):
        rounds_played (int):
        rule_set (None | str):
        rule_set_id (int | None):
        status (TableOutputStatusEnum): * `closed` - closed
            * `open` - open
            * `paused` - paused
    """

    betting_seconds: int
    box_max: int | None
    card_source: TableOutputCardSourceEnum
    casino: str
    code: str
    currency: str
    current_round_id: int | None
    dealer_id: int | None
    decision_seconds: int
    id: int
    max_bet: int
    min_bet: int
    min_unit: int
    name: str
    payout_schedule: None | str
    payout_schedule_id: int | None
    pit: None | str
    rounds_played: int
    rule_set: None | str
    rule_set_id: int | None
    status: TableOutputStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        betting_seconds = self.betting_seconds

        box_max: int | None
        box_max = self.box_max

        card_source = self.card_source.value

        casino = self.casino

        code = self.code

        currency = self.currency

        current_round_id: int | None
        current_round_id = self.current_round_id

        dealer_id: int | None
        dealer_id = self.dealer_id

        decision_seconds = self.decision_seconds

        id = self.id

        max_bet = self.max_bet

        min_bet = self.min_bet

        min_unit = self.min_unit

        name = self.name

        payout_schedule: None | str
        payout_schedule = self.payout_schedule

        payout_schedule_id: int | None
        payout_schedule_id = self.payout_schedule_id

        pit: None | str
        pit = self.pit

        rounds_played = self.rounds_played

        rule_set: None | str
        rule_set = self.rule_set

        rule_set_id: int | None
        rule_set_id = self.rule_set_id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "betting_seconds": betting_seconds,
                "box_max": box_max,
                "card_source": card_source,
                "casino": casino,
                "code": code,
                "currency": currency,
                "current_round_id": current_round_id,
                "dealer_id": dealer_id,
                "decision_seconds": decision_seconds,
                "id": id,
                "max_bet": max_bet,
                "min_bet": min_bet,
                "min_unit": min_unit,
                "name": name,
                "payout_schedule": payout_schedule,
                "payout_schedule_id": payout_schedule_id,
                "pit": pit,
                "rounds_played": rounds_played,
                "rule_set": rule_set,
                "rule_set_id": rule_set_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        betting_seconds = d.pop("betting_seconds")

        def _parse_box_max(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        box_max = _parse_box_max(d.pop("box_max"))

        card_source = TableOutputCardSourceEnum(d.pop("card_source"))

        casino = d.pop("casino")

        code = d.pop("code")

        currency = d.pop("currency")

        def _parse_current_round_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        current_round_id = _parse_current_round_id(d.pop("current_round_id"))

        def _parse_dealer_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        dealer_id = _parse_dealer_id(d.pop("dealer_id"))

        decision_seconds = d.pop("decision_seconds")

        id = d.pop("id")

        max_bet = d.pop("max_bet")

        min_bet = d.pop("min_bet")

        min_unit = d.pop("min_unit")

        name = d.pop("name")

        def _parse_payout_schedule(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payout_schedule = _parse_payout_schedule(d.pop("payout_schedule"))

        def _parse_payout_schedule_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        payout_schedule_id = _parse_payout_schedule_id(d.pop("payout_schedule_id"))

        def _parse_pit(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        pit = _parse_pit(d.pop("pit"))

        rounds_played = d.pop("rounds_played")

        def _parse_rule_set(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rule_set = _parse_rule_set(d.pop("rule_set"))

        def _parse_rule_set_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rule_set_id = _parse_rule_set_id(d.pop("rule_set_id"))

        status = TableOutputStatusEnum(d.pop("status"))

        table_output = cls(
            betting_seconds=betting_seconds,
            box_max=box_max,
            card_source=card_source,
            casino=casino,
            code=code,
            currency=currency,
            current_round_id=current_round_id,
            dealer_id=dealer_id,
            decision_seconds=decision_seconds,
            id=id,
            max_bet=max_bet,
            min_bet=min_bet,
            min_unit=min_unit,
            name=name,
            payout_schedule=payout_schedule,
            payout_schedule_id=payout_schedule_id,
            pit=pit,
            rounds_played=rounds_played,
            rule_set=rule_set,
            rule_set_id=rule_set_id,
            status=status,
        )

        table_output.additional_properties = d
        return table_output

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
