from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BetOutput")


@_attrs_define
class BetOutput:
    """
    Attributes:
        behind (bool):
        box (int):
        currency (str):
        id (str): The bet's one id: decisions name it as `bet_id`, the round's state lists it, the ledger's legs carry
            it as `bet_ref`.
        player_id (int):
        round_id (int):
        stake (int): Minor units of `currency`.
        staked_total (int): Minor units of `currency`.
        wallet_id (int):
    """

    behind: bool
    box: int
    currency: str
    id: str
    player_id: int
    round_id: int
    stake: int
    staked_total: int
    wallet_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        behind = self.behind

        box = self.box

        currency = self.currency

        id = self.id

        player_id = self.player_id

        round_id = self.round_id

        stake = self.stake

        staked_total = self.staked_total

        wallet_id = self.wallet_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "behind": behind,
                "box": box,
                "currency": currency,
                "id": id,
                "player_id": player_id,
                "round_id": round_id,
                "stake": stake,
                "staked_total": staked_total,
                "wallet_id": wallet_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        behind = d.pop("behind")

        box = d.pop("box")

        currency = d.pop("currency")

        id = d.pop("id")

        player_id = d.pop("player_id")

        round_id = d.pop("round_id")

        stake = d.pop("stake")

        staked_total = d.pop("staked_total")

        wallet_id = d.pop("wallet_id")

        bet_output = cls(
            behind=behind,
            box=box,
            currency=currency,
            id=id,
            player_id=player_id,
            round_id=round_id,
            stake=stake,
            staked_total=staked_total,
            wallet_id=wallet_id,
        )

        bet_output.additional_properties = d
        return bet_output

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
