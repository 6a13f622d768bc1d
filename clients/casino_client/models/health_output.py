from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.health_output_status_enum import HealthOutputStatusEnum

if TYPE_CHECKING:
    from ..models.health_output_broker import HealthOutputBroker
    from ..models.health_output_cache import HealthOutputCache
    from ..models.health_output_database import HealthOutputDatabase


T = TypeVar("T", bound="HealthOutput")


@_attrs_define
class HealthOutput:
    """
    Attributes:
        broker (HealthOutputBroker):
        cache (HealthOutputCache):
        database (HealthOutputDatabase):
        status (HealthOutputStatusEnum): * `ok` - ok
            * `unavailable` - unavailable
    """

    broker: HealthOutputBroker
    cache: HealthOutputCache
    database: HealthOutputDatabase
    status: HealthOutputStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        broker = self.broker.to_dict()

        cache = self.cache.to_dict()

        database = self.database.to_dict()

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "broker": broker,
                "cache": cache,
                "database": database,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.health_output_broker import HealthOutputBroker
        from ..models.health_output_cache import HealthOutputCache
        from ..models.health_output_database import HealthOutputDatabase

        d = dict(src_dict)
        broker = HealthOutputBroker.from_dict(d.pop("broker"))

        cache = HealthOutputCache.from_dict(d.pop("cache"))

        database = HealthOutputDatabase.from_dict(d.pop("database"))

        status = HealthOutputStatusEnum(d.pop("status"))

        health_output = cls(
            broker=broker,
            cache=cache,
            database=database,
            status=status,
        )

        health_output.additional_properties = d
        return health_output

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
