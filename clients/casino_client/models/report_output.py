from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_output_chart_type_0_item import ReportOutputChartType0Item
    from ..models.report_output_columns_item import ReportOutputColumnsItem
    from ..models.report_output_parameters import ReportOutputParameters
    from ..models.report_output_period import ReportOutputPeriod
    from ..models.report_output_rows_item import ReportOutputRowsItem
    from ..models.report_output_signature import ReportOutputSignature
    from ..models.report_output_totals_item import ReportOutputTotalsItem


T = TypeVar("T", bound="ReportOutput")


@_attrs_define
class ReportOutput:
    """
    Attributes:
        chart (list[ReportOutputChartType0Item] | None):
        columns (list[ReportOutputColumnsItem]):
        digest (str): SHA-256 (hex) of the canonical JSON of this object without digest and signature
        generated_at (datetime.datetime):
        generated_by (str):
        kind (str):
        notes (list[str]):
        parameters (ReportOutputParameters):
        period (ReportOutputPeriod):
        rows (list[ReportOutputRowsItem]):
        signature (ReportOutputSignature): algorithm, key_id, public_key (raw Ed25519, base64) and value: the digest's
            ASCII hex signed
        software_version (str):
        title (str):
        totals (list[ReportOutputTotalsItem]):
    """

    chart: list[ReportOutputChartType0Item] | None
    columns: list[ReportOutputColumnsItem]
    digest: str
    generated_at: datetime.datetime
    generated_by: str
    kind: str
    notes: list[str]
    parameters: ReportOutputParameters
    period: ReportOutputPeriod
    rows: list[ReportOutputRowsItem]
    signature: ReportOutputSignature
    software_version: str
    title: str
    totals: list[ReportOutputTotalsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chart: list[dict[str, Any]] | None
        if isinstance(self.chart, list):
            chart = []
            for chart_type_0_item_data in self.chart:
                chart_type_0_item = chart_type_0_item_data.to_dict()
                chart.append(chart_type_0_item)

        else:
            chart = self.chart

        columns = []
        for columns_item_data in self.columns:
            columns_item = columns_item_data.to_dict()
            columns.append(columns_item)

        digest = self.digest

        generated_at = self.generated_at.isoformat()

        generated_by = self.generated_by

        kind = self.kind

        notes = self.notes

        parameters = self.parameters.to_dict()

        period = self.period.to_dict()

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        signature = self.signature.to_dict()

        software_version = self.software_version

        title = self.title

        totals = []
        for totals_item_data in self.totals:
            totals_item = totals_item_data.to_dict()
            totals.append(totals_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chart": chart,
                "columns": columns,
                "digest": digest,
                "generated_at": generated_at,
                "generated_by": generated_by,
                "kind": kind,
                "notes": notes,
                "parameters": parameters,
                "period": period,
                "rows": rows,
                "signature": signature,
                "software_version": software_version,
                "title": title,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.report_output_chart_type_0_item import ReportOutputChartType0Item
        from ..models.report_output_columns_item import ReportOutputColumnsItem
        from ..models.report_output_parameters import ReportOutputParameters
        from ..models.report_output_period import ReportOutputPeriod
        from ..models.report_output_rows_item import ReportOutputRowsItem
        from ..models.report_output_signature import ReportOutputSignature
        from ..models.report_output_totals_item import ReportOutputTotalsItem

        d = dict(src_dict)

        def _parse_chart(data: object) -> list[ReportOutputChartType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                chart_type_0 = []
                _chart_type_0 = data
                for chart_type_0_item_data in _chart_type_0:
                    chart_type_0_item = ReportOutputChartType0Item.from_dict(chart_type_0_item_data)

                    chart_type_0.append(chart_type_0_item)

                return chart_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ReportOutputChartType0Item] | None, data)

        chart = _parse_chart(d.pop("chart"))

        columns = []
        _columns = d.pop("columns")
        for columns_item_data in _columns:
            columns_item = ReportOutputColumnsItem.from_dict(columns_item_data)

            columns.append(columns_item)

        digest = d.pop("digest")

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        generated_by = d.pop("generated_by")

        kind = d.pop("kind")

        notes = cast(list[str], d.pop("notes"))

        parameters = ReportOutputParameters.from_dict(d.pop("parameters"))

        period = ReportOutputPeriod.from_dict(d.pop("period"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = ReportOutputRowsItem.from_dict(rows_item_data)

            rows.append(rows_item)

        signature = ReportOutputSignature.from_dict(d.pop("signature"))

        software_version = d.pop("software_version")

        title = d.pop("title")

        totals = []
        _totals = d.pop("totals")
        for totals_item_data in _totals:
            totals_item = ReportOutputTotalsItem.from_dict(totals_item_data)

            totals.append(totals_item)

        report_output = cls(
            chart=chart,
            columns=columns,
            digest=digest,
            generated_at=generated_at,
            generated_by=generated_by,
            kind=kind,
            notes=notes,
            parameters=parameters,
            period=period,
            rows=rows,
            signature=signature,
            software_version=software_version,
            title=title,
            totals=totals,
        )

        report_output.additional_properties = d
        return report_output

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
