from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.void_preview import VoidPreview
    from ..models.void_request_output import VoidRequestOutput


T = TypeVar("T", bound="RoundVoid")


@_attrs_define
class RoundVoid:
    """A round's latest void request and, while the round can still be voided, what approving
    a void now would return and pay (minor units).

        Attributes:
            preview (None | VoidPreview):
            void_request (None | VoidRequestOutput):
    """

    preview: None | VoidPreview
    void_request: None | VoidRequestOutput
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.void_preview import VoidPreview
        from ..models.void_request_output import VoidRequestOutput

        preview: dict[str, Any] | None
        if isinstance(self.preview, VoidPreview):
            preview = self.preview.to_dict()
        else:
            preview = self.preview

        void_request: dict[str, Any] | None
        if isinstance(self.void_request, VoidRequestOutput):
            void_request = self.void_request.to_dict()
        else:
            void_request = self.void_request

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "preview": preview,
                "void_request": void_request,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.void_preview import VoidPreview
        from ..models.void_request_output import VoidRequestOutput

        d = dict(src_dict)

        def _parse_preview(data: object) -> None | VoidPreview:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                preview_type_1 = VoidPreview.from_dict(data)

                return preview_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VoidPreview, data)

        preview = _parse_preview(d.pop("preview"))

        def _parse_void_request(data: object) -> None | VoidRequestOutput:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                void_request_type_1 = VoidRequestOutput.from_dict(data)

                return void_request_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VoidRequestOutput, data)

        void_request = _parse_void_request(d.pop("void_request"))

        round_void = cls(
            preview=preview,
            void_request=void_request,
        )

        round_void.additional_properties = d
        return round_void

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
