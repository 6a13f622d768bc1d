from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReplayDifference")


@_attrs_define
class ReplayDifference:
    """
    Attributes:
        bet_ref (str):
        detail (str):
        field (str):
        found (Any):
        hand (str):
        kind (str): line | stake | recorded | unposted | unknown_bet | event_modified | event_unaudited |
            audit_event_modified | replay_failed | card_not_in_shoe_order
        line (int | None):
        replay (Any):
        source (str):
    """

    bet_ref: str
    detail: str
    field: str
    found: Any
    hand: str
    kind: str
    line: int | None
    replay: Any
    source: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bet_ref = self.bet_ref

        detail = self.detail

        field = self.field

        found = self.found

        hand = self.hand

        kind = self.kind

        line: int | None
        line = self.line

        replay = self.replay

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bet_ref": bet_ref,
                "detail": detail,
                "field": field,
                "found": found,
                "hand": hand,
                "kind": kind,
                "line": line,
                "replay": replay,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bet_ref = d.pop("bet_ref")

        detail = d.pop("detail")

        field = d.pop("field")

        found = d.pop("found")

        hand = d.pop("hand")

        kind = d.pop("kind")

        def _parse_line(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        line = _parse_line(d.pop("line"))

        replay = d.pop("replay")

        source = d.pop("source")

        replay_difference = cls(
            bet_ref=bet_ref,
            detail=detail,
            field=field,
            found=found,
            hand=hand,
            kind=kind,
            line=line,
            replay=replay,
            source=source,
        )

        replay_difference.additional_properties = d
        return replay_difference

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
