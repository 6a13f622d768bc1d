from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.mode_enum import ModeEnum

T = TypeVar("T", bound="Staking")


@_attrs_define
class Staking:
    """
    Attributes:
        bets_per_box (int): more than 1: bets behind
        box_max (int | None):
        boxes (int):
        currency (str):
        description (str):
        max_bet (int):
        max_boxes_per_player (int):
        min_bet (int):
        min_unit (int): smallest partial double or insurance
        mode (ModeEnum): * `stake_with_bet` - stake_with_bet
            * `join_then_stake` - join_then_stake
    """

    bets_per_box: int
    box_max: int | None
    boxes: int
    currency: str
    description: str
    max_bet: int
    max_boxes_per_player: int
    min_bet: int
    min_unit: int
    mode: ModeEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bets_per_box = self.bets_per_box

        box_max: int | None
        box_max = self.box_max

        boxes = self.boxes

        currency = self.currency

        description = self.description

        max_bet = self.max_bet

        max_boxes_per_player = self.max_boxes_per_player

        min_bet = self.min_bet

        min_unit = self.min_unit

        mode = self.mode.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bets_per_box": bets_per_box,
                "box_max": box_max,
                "boxes": boxes,
                "currency": currency,
                "description": description,
                "max_bet": max_bet,
                "max_boxes_per_player": max_boxes_per_player,
                "min_bet": min_bet,
                "min_unit": min_unit,
                "mode": mode,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bets_per_box = d.pop("bets_per_box")

        def _parse_box_max(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        box_max = _parse_box_max(d.pop("box_max"))

        boxes = d.pop("boxes")

        currency = d.pop("currency")

        description = d.pop("description")

        max_bet = d.pop("max_bet")

        max_boxes_per_player = d.pop("max_boxes_per_player")

        min_bet = d.pop("min_bet")

        min_unit = d.pop("min_unit")

        mode = ModeEnum(d.pop("mode"))

        staking = cls(
            bets_per_box=bets_per_box,
            box_max=box_max,
            boxes=boxes,
            currency=currency,
            description=description,
            max_bet=max_bet,
            max_boxes_per_player=max_boxes_per_player,
            min_bet=min_bet,
            min_unit=min_unit,
            mode=mode,
        )

        staking.additional_properties = d
        return staking

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
