from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scopes_enum import ScopesEnum

T = TypeVar("T", bound="StaffTokenOutput")


@_attrs_define
class StaffTokenOutput:
    """
    Attributes:
        allowed_networks (list[str]):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        id (int):
        label (str):
        last_used_at (datetime.datetime | None): to the minute
        last_used_ip (None | str):
        prefix (str):
        previous_valid_until (datetime.datetime | None): until when the secret replaced by the last rotation works
        revoked_at (datetime.datetime | None):
        role (str): the one role the token acts with
        rotated_at (datetime.datetime | None):
        scopes (list[ScopesEnum]):
        user_id (int): its owner
    """

    allowed_networks: list[str]
    created_at: datetime.datetime
    expires_at: datetime.datetime
    id: int
    label: str
    last_used_at: datetime.datetime | None
    last_used_ip: None | str
    prefix: str
    previous_valid_until: datetime.datetime | None
    revoked_at: datetime.datetime | None
    role: str
    rotated_at: datetime.datetime | None
    scopes: list[ScopesEnum]
    user_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        allowed_networks = self.allowed_networks

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        id = self.id

        label = self.label

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        last_used_ip: None | str
        last_used_ip = self.last_used_ip

        prefix = self.prefix

        previous_valid_until: None | str
        if isinstance(self.previous_valid_until, datetime.datetime):
            previous_valid_until = self.previous_valid_until.isoformat()
        else:
            previous_valid_until = self.previous_valid_until

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        role = self.role

        rotated_at: None | str
        if isinstance(self.rotated_at, datetime.datetime):
            rotated_at = self.rotated_at.isoformat()
        else:
            rotated_at = self.rotated_at

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "allowed_networks": allowed_networks,
                "created_at": created_at,
                "expires_at": expires_at,
                "id": id,
                "label": label,
                "last_used_at": last_used_at,
                "last_used_ip": last_used_ip,
                "prefix": prefix,
                "previous_valid_until": previous_valid_until,
                "revoked_at": revoked_at,
                "role": role,
                "rotated_at": rotated_at,
                "scopes": scopes,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        allowed_networks = cast(list[str], d.pop("allowed_networks"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        id = d.pop("id")

        label = d.pop("label")

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at"))

        def _parse_last_used_ip(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_used_ip = _parse_last_used_ip(d.pop("last_used_ip"))

        prefix = d.pop("prefix")

        def _parse_previous_valid_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_valid_until_type_0 = datetime.datetime.fromisoformat(data)

                return previous_valid_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_valid_until = _parse_previous_valid_until(d.pop("previous_valid_until"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        role = d.pop("role")

        def _parse_rotated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rotated_at_type_0 = datetime.datetime.fromisoformat(data)

                return rotated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        rotated_at = _parse_rotated_at(d.pop("rotated_at"))

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = ScopesEnum(scopes_item_data)

            scopes.append(scopes_item)

        user_id = d.pop("user_id")

        staff_token_output = cls(
            allowed_networks=allowed_networks,
            created_at=created_at,
            expires_at=expires_at,
            id=id,
            label=label,
            last_used_at=last_used_at,
            last_used_ip=last_used_ip,
            prefix=prefix,
            previous_valid_until=previous_valid_until,
            revoked_at=revoked_at,
            role=role,
            rotated_at=rotated_at,
            scopes=scopes,
            user_id=user_id,
        )

        staff_token_output.additional_properties = d
        return staff_token_output

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
