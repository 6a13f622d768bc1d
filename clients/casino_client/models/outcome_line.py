from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OutcomeLine")


@_attrs_define
class OutcomeLine:
    """
    Attributes:
        bonus (int):
        bonus_kind (str):
        box (int):
        currency (str):
        hand_index (int):
        odds (str): the payout schedule's row (win, pontoon, ...)
        paid (int):
        result (str): win pontoon five_card_trick even_money lose bust push surrender surrender_void rescue
            obbo_returned insurance_win insurance_lose envy_bonus void_returned
        returned (int):
        stake (int):
        winnings (int):
    """

    bonus: int
    bonus_kind: str
    box: int
    currency: str
    hand_index: int
    odds: str
    paid: int
    result: str
    returned: int
    stake: int
    winnings: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bonus = self.bonus

        bonus_kind = self.bonus_kind

        box = self.box

        currency = self.currency

        hand_index = self.hand_index

        odds = self.odds

        paid = self.paid

        result = self.result

        returned = self.returned

        stake = self.stake

        winnings = self.winnings

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bonus": bonus,
                "bonus_kind": bonus_kind,
                "box": box,
                "currency": currency,
                "hand_index": hand_index,
                "odds": odds,
                "paid": paid,
                "result": result,
                "returned": returned,
                "stake": stake,
                "winnings": winnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bonus = d.pop("bonus")

        bonus_kind = d.pop("bonus_kind")

        box = d.pop("box")

        currency = d.pop("currency")

        hand_index = d.pop("hand_index")

        odds = d.pop("odds")

        paid = d.pop("paid")

        result = d.pop("result")

        returned = d.pop("returned")

        stake = d.pop("stake")

        winnings = d.pop("winnings")

        outcome_line = cls(
            bonus=bonus,
            bonus_kind=bonus_kind,
            box=box,
            currency=currency,
            hand_index=hand_index,
            odds=odds,
            paid=paid,
            result=result,
            returned=returned,
            stake=stake,
            winnings=winnings,
        )

        outcome_line.additional_properties = d
        return outcome_line

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
