from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_decisions import GameDecisions
    from ..models.rule_version import RuleVersion
    from ..models.staking import Staking
    from ..models.timers import Timers


T = TypeVar("T", bound="TableRules")


@_attrs_define
class TableRules:
    """
    Attributes:
        decisions (GameDecisions):
        game (str): the rule set's name (a preset or a custom game)
        payout_schedule (RuleVersion):
        rtp_method (str):
        rule_set (RuleVersion):
        staking (Staking):
        table_id (int):
        theoretical_rtp (None | str):
        timers (Timers):
    """

    decisions: GameDecisions
    game: str
    payout_schedule: RuleVersion
    rtp_method: str
    rule_set: RuleVersion
    staking: Staking
    table_id: int
    theoretical_rtp: None | str
    timers: Timers
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decisions = self.decisions.to_dict()

        game = self.game

        payout_schedule = self.payout_schedule.to_dict()

        rtp_method = self.rtp_method

        rule_set = self.rule_set.to_dict()

        staking = self.staking.to_dict()

        table_id = self.table_id

        theoretical_rtp: None | str
        theoretical_rtp = self.theoretical_rtp

        timers = self.timers.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decisions": decisions,
                "game": game,
                "payout_schedule": payout_schedule,
                "rtp_method": rtp_method,
                "rule_set": rule_set,
                "staking": staking,
                "table_id": table_id,
                "theoretical_rtp": theoretical_rtp,
                "timers": timers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.game_decisions import GameDecisions
        from ..models.rule_version import RuleVersion
        from ..models.staking import Staking
        from ..models.timers import Timers

        d = dict(src_dict)
        decisions = GameDecisions.from_dict(d.pop("decisions"))

        game = d.pop("game")

        payout_schedule = RuleVersion.from_dict(d.pop("payout_schedule"))

        rtp_method = d.pop("rtp_method")

        rule_set = RuleVersion.from_dict(d.pop("rule_set"))

        staking = Staking.from_dict(d.pop("staking"))

        table_id = d.pop("table_id")

        def _parse_theoretical_rtp(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        theoretical_rtp = _parse_theoretical_rtp(d.pop("theoretical_rtp"))

        timers = Timers.from_dict(d.pop("timers"))

        table_rules = cls(
            decisions=decisions,
            game=game,
            payout_schedule=payout_schedule,
            rtp_method=rtp_method,
            rule_set=rule_set,
            staking=staking,
            table_id=table_id,
            theoretical_rtp=theoretical_rtp,
            timers=timers,
        )

        table_rules.additional_properties = d
        return table_rules

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
