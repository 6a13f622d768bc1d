from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.outcome_line import OutcomeLine


T = TypeVar("T", bound="BetOutcome")


@_attrs_define
class BetOutcome:
    """A bet's outcome as its settlement (or void) posted it to the ledger (minor units of
    ``currency``).

        Attributes:
            bet_id (str):
            bonus (int):
            box (int):
            currency (str):
            lines (list[OutcomeLine]):
            net (int): paid - stake
            paid (int): everything credited to the wallet
            player_id (int | None): null: another operator's player (anonymous)
            result (str): the lines' result, or `mixed` when they differ
            returned (int): stakes given back
            stake (int): everything the bet had at risk
            winnings (int):
    """

    bet_id: str
    bonus: int
    box: int
    currency: str
    lines: list[OutcomeLine]
    net: int
    paid: int
    player_id: int | None
    result: str
    returned: int
    stake: int
    winnings: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bet_id = self.bet_id

        bonus = self.bonus

        box = self.box

        currency = self.currency

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        net = self.net

        paid = self.paid

        player_id: int | None
        player_id = self.player_id

        result = self.result

        returned = self.returned

        stake = self.stake

        winnings = self.winnings

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bet_id": bet_id,
                "bonus": bonus,
                "box": box,
                "currency": currency,
                "lines": lines,
                "net": net,
                "paid": paid,
                "player_id": player_id,
                "result": result,
                "returned": returned,
                "stake": stake,
                "winnings": winnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.outcome_line import OutcomeLine

        d = dict(src_dict)
        bet_id = d.pop("bet_id")

        bonus = d.pop("bonus")

        box = d.pop("box")

        currency = d.pop("currency")

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = OutcomeLine.from_dict(lines_item_data)

            lines.append(lines_item)

        net = d.pop("net")

        paid = d.pop("paid")

        def _parse_player_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        player_id = _parse_player_id(d.pop("player_id"))

        result = d.pop("result")

        returned = d.pop("returned")

        stake = d.pop("stake")

        winnings = d.pop("winnings")

        bet_outcome = cls(
            bet_id=bet_id,
            bonus=bonus,
            box=box,
            currency=currency,
            lines=lines,
            net=net,
            paid=paid,
            player_id=player_id,
            result=result,
            returned=returned,
            stake=stake,
            winnings=winnings,
        )

        bet_outcome.additional_properties = d
        return bet_outcome

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
