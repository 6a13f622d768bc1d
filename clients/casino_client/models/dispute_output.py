from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dispute_output_status_enum import DisputeOutputStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dispute_note_output import DisputeNoteOutput
    from ..models.dispute_output_replay_type_0 import DisputeOutputReplayType0


T = TypeVar("T", bound="DisputeOutput")


@_attrs_define
class DisputeOutput:
    """
    Attributes:
        claim (str):
        claimant (str):
        correction_id (int | None):
        id (int):
        notes (list[DisputeNoteOutput]):
        opened_at (datetime.datetime):
        opened_by (str):
        replay (DisputeOutputReplayType0 | None):
        resolution (str):
        resolved_at (datetime.datetime | None):
        round_id (int):
        status (DisputeOutputStatusEnum): * `open` - Open
            * `investigating` - Investigating
            * `resolved_upheld` - Resolved Upheld
            * `resolved_rejected` - Resolved Rejected
        bet_ref (None | str | Unset):
        correction_status (None | str | Unset):
        resolved_by (None | str | Unset):
    """

    claim: str
    claimant: str
    correction_id: int | None
    id: int
    notes: list[DisputeNoteOutput]
    opened_at: datetime.datetime
    opened_by: str
    replay: DisputeOutputReplayType0 | None
    resolution: str
    resolved_at: datetime.datetime | None
    round_id: int
    status: DisputeOutputStatusEnum
    bet_ref: None | str | Unset = UNSET
    correction_status: None | str | Unset = UNSET
    resolved_by: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.dispute_output_replay_type_0 import DisputeOutputReplayType0

        claim = self.claim

        claimant = self.claimant

        correction_id: int | None
        correction_id = self.correction_id

        id = self.id

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        opened_at = self.opened_at.isoformat()

        opened_by = self.opened_by

        replay: dict[str, Any] | None
        if isinstance(self.replay, DisputeOutputReplayType0):
            replay = self.replay.to_dict()
        else:
            replay = self.replay

        resolution = self.resolution

        resolved_at: None | str
        if isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        round_id = self.round_id

        status = self.status.value

        bet_ref: None | str | Unset
        if isinstance(self.bet_ref, Unset):
            bet_ref = UNSET
        else:
            bet_ref = self.bet_ref

        correction_status: None | str | Unset
        if isinstance(self.correction_status, Unset):
            correction_status = UNSET
        else:
            correction_status = self.correction_status

        resolved_by: None | str | Unset
        if isinstance(self.resolved_by, Unset):
            resolved_by = UNSET
        else:
            resolved_by = self.resolved_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "claim": claim,
                "claimant": claimant,
                "correction_id": correction_id,
                "id": id,
                "notes": notes,
                "opened_at": opened_at,
                "opened_by": opened_by,
                "replay": replay,
                "resolution": resolution,
                "resolved_at": resolved_at,
                "round_id": round_id,
                "status": status,
            }
        )
        if bet_ref is not UNSET:
            field_dict["bet_ref"] = bet_ref
        if correction_status is not UNSET:
            field_dict["correction_status"] = correction_status
        if resolved_by is not UNSET:
            field_dict["resolved_by"] = resolved_by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.dispute_note_output import DisputeNoteOutput
        from ..models.dispute_output_replay_type_0 import DisputeOutputReplayType0

        d = dict(src_dict)
        claim = d.pop("claim")

        claimant = d.pop("claimant")

        def _parse_correction_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        correction_id = _parse_correction_id(d.pop("correction_id"))

        id = d.pop("id")

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = DisputeNoteOutput.from_dict(notes_item_data)

            notes.append(notes_item)

        opened_at = datetime.datetime.fromisoformat(d.pop("opened_at"))

        opened_by = d.pop("opened_by")

        def _parse_replay(data: object) -> DisputeOutputReplayType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                replay_type_0 = DisputeOutputReplayType0.from_dict(data)

                return replay_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DisputeOutputReplayType0 | None, data)

        replay = _parse_replay(d.pop("replay"))

        resolution = d.pop("resolution")

        def _parse_resolved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_at_type_0 = datetime.datetime.fromisoformat(data)

                return resolved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        resolved_at = _parse_resolved_at(d.pop("resolved_at"))

        round_id = d.pop("round_id")

        status = DisputeOutputStatusEnum(d.pop("status"))

        def _parse_bet_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bet_ref = _parse_bet_ref(d.pop("bet_ref", UNSET))

        def _parse_correction_status(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        correction_status = _parse_correction_status(d.pop("correction_status", UNSET))

        def _parse_resolved_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        resolved_by = _parse_resolved_by(d.pop("resolved_by", UNSET))

        dispute_output = cls(
            claim=claim,
            claimant=claimant,
            correction_id=correction_id,
            id=id,
            notes=notes,
            opened_at=opened_at,
            opened_by=opened_by,
            replay=replay,
            resolution=resolution,
            resolved_at=resolved_at,
            round_id=round_id,
            status=status,
            bet_ref=bet_ref,
            correction_status=correction_status,
            resolved_by=resolved_by,
        )

        dispute_output.additional_properties = d
        return dispute_output

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
