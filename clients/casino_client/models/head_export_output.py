from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.head_export_output_head import HeadExportOutputHead
    from ..models.public_key import PublicKey


T = TypeVar("T", bound="HeadExportOutput")


@_attrs_define
class HeadExportOutput:
    """
    Attributes:
        algorithm (str):
        canonicalization (str):
        head (HeadExportOutputHead):
        keys (list[PublicKey]):
        signature (str):
    """

    algorithm: str
    canonicalization: str
    head: HeadExportOutputHead
    keys: list[PublicKey]
    signature: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        algorithm = self.algorithm

        canonicalization = self.canonicalization

        head = self.head.to_dict()

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        signature = self.signature

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "algorithm": algorithm,
                "canonicalization": canonicalization,
                "head": head,
                "keys": keys,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.head_export_output_head import HeadExportOutputHead
        from ..models.public_key import PublicKey

        d = dict(src_dict)
        algorithm = d.pop("algorithm")

        canonicalization = d.pop("canonicalization")

        head = HeadExportOutputHead.from_dict(d.pop("head"))

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = PublicKey.from_dict(keys_item_data)

            keys.append(keys_item)

        signature = d.pop("signature")

        head_export_output = cls(
            algorithm=algorithm,
            canonicalization=canonicalization,
            head=head,
            keys=keys,
            signature=signature,
        )

        head_export_output.additional_properties = d
        return head_export_output

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
