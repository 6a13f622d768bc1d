from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BetState")


@_attrs_define
class BetState:
    """
    Attributes:
        behind (bool):
        bet_id (str):
        currency (str):
        insurance (int): Minor units of `currency`.
        player_id (int | None): null: another operator's player
        stake (int): Minor units of `currency`.
        withdrawn (bool):
    """

    behind: bool
    bet_id: str
    currency: str
    insurance: int
    player_id: int | None
    stake: int
    withdrawn: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        behind = self.behind

        bet_id = self.bet_id

        currency = self.currency

        insurance = self.insurance

        player_id: int | None
        player_id = self.player_id

        stake = self.stake

        withdrawn = self.withdrawn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "behind": behind,
                "bet_id": bet_id,
                "currency": currency,
                "insurance": insurance,
                "player_id": player_id,
                "stake": stake,
                "withdrawn": withdrawn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        behind = d.pop("behind")

        bet_id = d.pop("bet_id")

        currency = d.pop("currency")

        insurance = d.pop("insurance")

        def _parse_player_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        player_id = _parse_player_id(d.pop("player_id"))

        stake = d.pop("stake")

        withdrawn = d.pop("withdrawn")

        bet_state = cls(
            behind=behind,
            bet_id=bet_id,
            currency=currency,
            insurance=insurance,
            player_id=player_id,
            stake=stake,
            withdrawn=withdrawn,
        )

        bet_state.additional_properties = d
        return bet_state

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
