from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TableAccountingOutput")


@_attrs_define
class TableAccountingOutput:
    """
    Attributes:
        bonuses (int):
        currency (str):
        handle (int):
        hold_pct (None | str):
        payouts (int):
        win (int):
        day (datetime.date | Unset):
        dealer (int | None | Unset):
        operator (int | Unset):
        shift (str | Unset):
        table (int | Unset):
    """

    bonuses: int
    currency: str
    handle: int
    hold_pct: None | str
    payouts: int
    win: int
    day: datetime.date | Unset = UNSET
    dealer: int | None | Unset = UNSET
    operator: int | Unset = UNSET
    shift: str | Unset = UNSET
    table: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bonuses = self.bonuses

        currency = self.currency

        handle = self.handle

        hold_pct: None | str
        hold_pct = self.hold_pct

        payouts = self.payouts

        win = self.win

        day: str | Unset = UNSET
        if not isinstance(self.day, Unset):
            day = self.day.isoformat()

        dealer: int | None | Unset
        if isinstance(self.dealer, Unset):
            dealer = UNSET
        else:
            dealer = self.dealer

        operator = self.operator

        shift = self.shift

        table = self.table

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bonuses": bonuses,
                "currency": currency,
                "handle": handle,
                "hold_pct": hold_pct,
                "payouts": payouts,
                "win": win,
            }
        )
        if day is not UNSET:
            field_dict["day"] = day
        if dealer is not UNSET:
            field_dict["dealer"] = dealer
        if operator is not UNSET:
            field_dict["operator"] = operator
        if shift is not UNSET:
            field_dict["shift"] = shift
        if table is not UNSET:
            field_dict["table"] = table

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bonuses = d.pop("bonuses")

        currency = d.pop("currency")

        handle = d.pop("handle")

        def _parse_hold_pct(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        hold_pct = _parse_hold_pct(d.pop("hold_pct"))

        payouts = d.pop("payouts")

        win = d.pop("win")

        _day = d.pop("day", UNSET)
        day: datetime.date | Unset
        if isinstance(_day, Unset):
            day = UNSET
        else:
            day = datetime.date.fromisoformat(_day)

        def _parse_dealer(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        dealer = _parse_dealer(d.pop("dealer", UNSET))

        operator = d.pop("operator", UNSET)

        shift = d.pop("shift", UNSET)

        table = d.pop("table", UNSET)

        table_accounting_output = cls(
            bonuses=bonuses,
            currency=currency,
            handle=handle,
            hold_pct=hold_pct,
            payouts=payouts,
            win=win,
            day=day,
            dealer=dealer,
            operator=operator,
            shift=shift,
            table=table,
        )

        table_accounting_output.additional_properties = d
        return table_accounting_output

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
