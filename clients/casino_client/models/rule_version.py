from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rule_version_document import RuleVersionDocument


T = TypeVar("T", bound="RuleVersion")


@_attrs_define
class RuleVersion:
    """
    Attributes:
        document (RuleVersionDocument): the engine's JSON document of this version
        id (int):
        label (str): as tables show it: `<name> v<version>`
        name (str):
        version (int):
    """

    document: RuleVersionDocument
    id: int
    label: str
    name: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document = self.document.to_dict()

        id = self.id

        label = self.label

        name = self.name

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document": document,
                "id": id,
                "label": label,
                "name": name,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rule_version_document import RuleVersionDocument

        d = dict(src_dict)
        document = RuleVersionDocument.from_dict(d.pop("document"))

        id = d.pop("id")

        label = d.pop("label")

        name = d.pop("name")

        version = d.pop("version")

        rule_version = cls(
            document=document,
            id=id,
            label=label,
            name=name,
            version=version,
        )

        rule_version.additional_properties = d
        return rule_version

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
