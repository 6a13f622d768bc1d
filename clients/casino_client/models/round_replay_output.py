from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.round_replay_output_status_enum import RoundReplayOutputStatusEnum

if TYPE_CHECKING:
    from ..models.replay_difference import ReplayDifference
    from ..models.replay_line import ReplayLine
    from ..models.round_replay_output_dealer import RoundReplayOutputDealer
    from ..models.round_replay_output_hands_item import RoundReplayOutputHandsItem
    from ..models.round_replay_output_integrity import RoundReplayOutputIntegrity
    from ..models.round_replay_output_ledger import RoundReplayOutputLedger
    from ..models.round_replay_output_round import RoundReplayOutputRound
    from ..models.round_replay_output_shoes_item import RoundReplayOutputShoesItem
    from ..models.round_replay_output_steps_item import RoundReplayOutputStepsItem


T = TypeVar("T", bound="RoundReplayOutput")


@_attrs_define
class RoundReplayOutput:
    """
    Attributes:
        dealer (RoundReplayOutputDealer):
        differences (list[ReplayDifference]):
        generated_at (datetime.datetime):
        hands (list[RoundReplayOutputHandsItem]):
        integrity (RoundReplayOutputIntegrity):
        ledger (RoundReplayOutputLedger):
        lines (list[ReplayLine]):
        ok (bool):
        round_ (RoundReplayOutputRound):
        settled_at (datetime.datetime | None):
        shoes (list[RoundReplayOutputShoesItem]): each shoe's proof: commitments (and when), revealed order,
            verification
        software_version (str):
        status (RoundReplayOutputStatusEnum): * `match` - match
            * `differences` - differences
            * `not_settled` - not_settled
        steps (list[RoundReplayOutputStepsItem]):
    """

    dealer: RoundReplayOutputDealer
    differences: list[ReplayDifference]
    generated_at: datetime.datetime
    hands: list[RoundReplayOutputHandsItem]
    integrity: RoundReplayOutputIntegrity
    ledger: RoundReplayOutputLedger
    lines: list[ReplayLine]
    ok: bool
    round_: RoundReplayOutputRound
    settled_at: datetime.datetime | None
    shoes: list[RoundReplayOutputShoesItem]
    software_version: str
    status: RoundReplayOutputStatusEnum
    steps: list[RoundReplayOutputStepsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dealer = self.dealer.to_dict()

        differences = []
        for differences_item_data in self.differences:
            differences_item = differences_item_data.to_dict()
            differences.append(differences_item)

        generated_at = self.generated_at.isoformat()

        hands = []
        for hands_item_data in self.hands:
            hands_item = hands_item_data.to_dict()
            hands.append(hands_item)

        integrity = self.integrity.to_dict()

        ledger = self.ledger.to_dict()

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        ok = self.ok

        round_ = self.round_.to_dict()

        settled_at: None | str
        if isinstance(self.settled_at, datetime.datetime):
            settled_at = self.settled_at.isoformat()
        else:
            settled_at = self.settled_at

        shoes = []
        for shoes_item_data in self.shoes:
            shoes_item = shoes_item_data.to_dict()
            shoes.append(shoes_item)

        software_version = self.software_version

        status = self.status.value

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dealer": dealer,
                "differences": differences,
                "generated_at": generated_at,
                "hands": hands,
                "integrity": integrity,
                "ledger": ledger,
                "lines": lines,
                "ok": ok,
                "round": round_,
                "settled_at": settled_at,
                "shoes": shoes,
                "software_version": software_version,
                "status": status,
                "steps": steps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.replay_difference import ReplayDifference
        from ..models.replay_line import ReplayLine
        from ..models.round_replay_output_dealer import RoundReplayOutputDealer
        from ..models.round_replay_output_hands_item import RoundReplayOutputHandsItem
        from ..models.round_replay_output_integrity import RoundReplayOutputIntegrity
        from ..models.round_replay_output_ledger import RoundReplayOutputLedger
        from ..models.round_replay_output_round import RoundReplayOutputRound
        from ..models.round_replay_output_shoes_item import RoundReplayOutputShoesItem
        from ..models.round_replay_output_steps_item import RoundReplayOutputStepsItem

        d = dict(src_dict)
        dealer = RoundReplayOutputDealer.from_dict(d.pop("dealer"))

        differences = []
        _differences = d.pop("differences")
        for differences_item_data in _differences:
            differences_item = ReplayDifference.from_dict(differences_item_data)

            differences.append(differences_item)

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        hands = []
        _hands = d.pop("hands")
        for hands_item_data in _hands:
            hands_item = RoundReplayOutputHandsItem.from_dict(hands_item_data)

            hands.append(hands_item)

        integrity = RoundReplayOutputIntegrity.from_dict(d.pop("integrity"))

        ledger = RoundReplayOutputLedger.from_dict(d.pop("ledger"))

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = ReplayLine.from_dict(lines_item_data)

            lines.append(lines_item)

        ok = d.pop("ok")

        round_ = RoundReplayOutputRound.from_dict(d.pop("round"))

        def _parse_settled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                settled_at_type_0 = datetime.datetime.fromisoformat(data)

                return settled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        settled_at = _parse_settled_at(d.pop("settled_at"))

        shoes = []
        _shoes = d.pop("shoes")
        for shoes_item_data in _shoes:
            shoes_item = RoundReplayOutputShoesItem.from_dict(shoes_item_data)

            shoes.append(shoes_item)

        software_version = d.pop("software_version")

        status = RoundReplayOutputStatusEnum(d.pop("status"))

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = RoundReplayOutputStepsItem.from_dict(steps_item_data)

            steps.append(steps_item)

        round_replay_output = cls(
            dealer=dealer,
            differences=differences,
            generated_at=generated_at,
            hands=hands,
            integrity=integrity,
            ledger=ledger,
            lines=lines,
            ok=ok,
            round_=round_,
            settled_at=settled_at,
            shoes=shoes,
            software_version=software_version,
            status=status,
            steps=steps,
        )

        round_replay_output.additional_properties = d
        return round_replay_output

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
