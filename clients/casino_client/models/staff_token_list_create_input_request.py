from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scopes_enum import ScopesEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="StaffTokenListCreateInputRequest")


@_attrs_define
class StaffTokenListCreateInputRequest:
    """What a new credential may do, from where, until when (defaults: its kind's scopes, any
    address, the longest lifetime allowed).

        Attributes:
            label (str):
            role (str): one of your roles
            allowed_networks (list[str] | Unset):
            expires_at (datetime.datetime | None | Unset):
            scopes (list[ScopesEnum] | Unset):
    """

    label: str
    role: str
    allowed_networks: list[str] | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    scopes: list[ScopesEnum] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        role = self.role

        allowed_networks: list[str] | Unset = UNSET
        if not isinstance(self.allowed_networks, Unset):
            allowed_networks = self.allowed_networks

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        scopes: list[str] | Unset = UNSET
        if not isinstance(self.scopes, Unset):
            scopes = []
            for scopes_item_data in self.scopes:
                scopes_item = scopes_item_data.value
                scopes.append(scopes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "label": label,
                "role": role,
            }
        )
        if allowed_networks is not UNSET:
            field_dict["allowed_networks"] = allowed_networks
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if scopes is not UNSET:
            field_dict["scopes"] = scopes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label")

        role = d.pop("role")

        allowed_networks = cast(list[str], d.pop("allowed_networks", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        _scopes = d.pop("scopes", UNSET)
        scopes: list[ScopesEnum] | Unset = UNSET
        if _scopes is not UNSET:
            scopes = []
            for scopes_item_data in _scopes:
                scopes_item = ScopesEnum(scopes_item_data)

                scopes.append(scopes_item)

        staff_token_list_create_input_request = cls(
            label=label,
            role=role,
            allowed_networks=allowed_networks,
            expires_at=expires_at,
            scopes=scopes,
        )

        staff_token_list_create_input_request.additional_properties = d
        return staff_token_list_create_input_request

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
