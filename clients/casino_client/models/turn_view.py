from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.waiting_for import WaitingFor


T = TypeVar("T", bound="TurnView")


@_attrs_define
class TurnView:
    """
    Attributes:
        bets (list[str]): the bets the turn waits for: a hand's turn, its box's controller (bets behind follow); a
            window (insurance, match, staking), every bet still to answer
        box (int | None):
        deadline (datetime.datetime | None): when the server applies the rule book's default
        hand_index (int | None):
        kind (str): hand | match | insurance | staking | dealer
        waiting_for (list[WaitingFor]): the same bets, with their players
    """

    bets: list[str]
    box: int | None
    deadline: datetime.datetime | None
    hand_index: int | None
    kind: str
    waiting_for: list[WaitingFor]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bets = self.bets

        box: int | None
        box = self.box

        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        hand_index: int | None
        hand_index = self.hand_index

        kind = self.kind

        waiting_for = []
        for waiting_for_item_data in self.waiting_for:
            waiting_for_item = waiting_for_item_data.to_dict()
            waiting_for.append(waiting_for_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bets": bets,
                "box": box,
                "deadline": deadline,
                "hand_index": hand_index,
                "kind": kind,
                "waiting_for": waiting_for,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.waiting_for import WaitingFor

        d = dict(src_dict)
        bets = cast(list[str], d.pop("bets"))

        def _parse_box(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        box = _parse_box(d.pop("box"))

        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        def _parse_hand_index(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        hand_index = _parse_hand_index(d.pop("hand_index"))

        kind = d.pop("kind")

        waiting_for = []
        _waiting_for = d.pop("waiting_for")
        for waiting_for_item_data in _waiting_for:
            waiting_for_item = WaitingFor.from_dict(waiting_for_item_data)

            waiting_for.append(waiting_for_item)

        turn_view = cls(
            bets=bets,
            box=box,
            deadline=deadline,
            hand_index=hand_index,
            kind=kind,
            waiting_for=waiting_for,
        )

        turn_view.additional_properties = d
        return turn_view

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
