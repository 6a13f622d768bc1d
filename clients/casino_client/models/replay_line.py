from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReplayLine")


@_attrs_define
class ReplayLine:
    """
    Attributes:
        bet_ref (str):
        bonus (int):
        bonus_kind (str):
        currency (str): The round's: every amount of the line's.
        hand (str):
        ledger_bonus (int | None):
        ledger_leg_ids (list[int]):
        ledger_payout (int | None):
        line (int):
        match (bool):
        odds (str):
        odds_kind (str):
        paid (int):
        player_id (str):
        result (str):
        stake (int):
        stake_returned (int):
        winnings (int):
    """

    bet_ref: str
    bonus: int
    bonus_kind: str
    currency: str
    hand: str
    ledger_bonus: int | None
    ledger_leg_ids: list[int]
    ledger_payout: int | None
    line: int
    match: bool
    odds: str
    odds_kind: str
    paid: int
    player_id: str
    result: str
    stake: int
    stake_returned: int
    winnings: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bet_ref = self.bet_ref

        bonus = self.bonus

        bonus_kind = self.bonus_kind

        currency = self.currency

        hand = self.hand

        ledger_bonus: int | None
        ledger_bonus = self.ledger_bonus

        ledger_leg_ids = self.ledger_leg_ids

        ledger_payout: int | None
        ledger_payout = self.ledger_payout

        line = self.line

        match = self.match

        odds = self.odds

        odds_kind = self.odds_kind

        paid = self.paid

        player_id = self.player_id

        result = self.result

        stake = self.stake

        stake_returned = self.stake_returned

        winnings = self.winnings

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bet_ref": bet_ref,
                "bonus": bonus,
                "bonus_kind": bonus_kind,
                "currency": currency,
                "hand": hand,
                "ledger_bonus": ledger_bonus,
                "ledger_leg_ids": ledger_leg_ids,
                "ledger_payout": ledger_payout,
                "line": line,
                "match": match,
                "odds": odds,
                "odds_kind": odds_kind,
                "paid": paid,
                "player_id": player_id,
                "result": result,
                "stake": stake,
                "stake_returned": stake_returned,
                "winnings": winnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bet_ref = d.pop("bet_ref")

        bonus = d.pop("bonus")

        bonus_kind = d.pop("bonus_kind")

        currency = d.pop("currency")

        hand = d.pop("hand")

        def _parse_ledger_bonus(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        ledger_bonus = _parse_ledger_bonus(d.pop("ledger_bonus"))

        ledger_leg_ids = cast(list[int], d.pop("ledger_leg_ids"))

        def _parse_ledger_payout(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        ledger_payout = _parse_ledger_payout(d.pop("ledger_payout"))

        line = d.pop("line")

        match = d.pop("match")

        odds = d.pop("odds")

        odds_kind = d.pop("odds_kind")

        paid = d.pop("paid")

        player_id = d.pop("player_id")

        result = d.pop("result")

        stake = d.pop("stake")

        stake_returned = d.pop("stake_returned")

        winnings = d.pop("winnings")

        replay_line = cls(
            bet_ref=bet_ref,
            bonus=bonus,
            bonus_kind=bonus_kind,
            currency=currency,
            hand=hand,
            ledger_bonus=ledger_bonus,
            ledger_leg_ids=ledger_leg_ids,
            ledger_payout=ledger_payout,
            line=line,
            match=match,
            odds=odds,
            odds_kind=odds_kind,
            paid=paid,
            player_id=player_id,
            result=result,
            stake=stake,
            stake_returned=stake_returned,
            winnings=winnings,
        )

        replay_line.additional_properties = d
        return replay_line

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
