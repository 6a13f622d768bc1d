"""The reports in the API (read-only, JSON); the admin serves the same reports as HTML, CSV and
PDF. Every read is recorded (``report_generate``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import Actor
from casino.api.inputs import MAX_ID, DayField
from forensics.reports import (
    GROUPINGS,
    REPORT_PARAMETERS,
    REPORTS,
    Period,
    report_data,
    report_generate,
)


def _taken_by(parameter: str) -> str:
    """Which reports take ``parameter``, from the table ``report_build`` enforces, so the
    schema cannot drift from what is refused."""
    kinds = [kind for kind, takes in REPORT_PARAMETERS.items() if parameter in takes]
    return f"{', '.join(kinds)} only"


class ReportQuerySerializer(serializers.Serializer):
    date_from = DayField(required=False, help_text="first gaming day (default: 30 days ago)")
    date_to = DayField(required=False, help_text="last gaming day (default: today)")
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text=_taken_by("table")
    )
    player = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text=f"{_taken_by('player')} (player-statement requires it)",
    )
    shift = serializers.SlugField(
        max_length=20, required=False, help_text=f"{_taken_by('shift')}: one shift's figures"
    )
    grouping = serializers.ChoiceField(
        choices=GROUPINGS,
        required=False,
        help_text=f"{_taken_by('grouping')}: rows per shift (default) or gaming day",
    )


def report_query(params) -> dict:
    query = ReportQuerySerializer(data=params)
    query.is_valid(raise_exception=True)
    data = query.validated_data
    return {
        "period": Period.of(data.get("date_from"), data.get("date_to")),
        "table_id": data.get("table"),
        "player_id": data.get("player"),
        "shift": data.get("shift"),
        "grouping": data.get("grouping"),
    }


class ReportOutputSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    period = serializers.DictField()
    generated_at = serializers.DateTimeField()
    software_version = serializers.CharField()
    parameters = serializers.DictField()
    columns = serializers.ListField(child=serializers.DictField())
    rows = serializers.ListField(child=serializers.DictField())
    totals = serializers.ListField(child=serializers.DictField())
    notes = serializers.ListField(child=serializers.CharField())
    chart = serializers.ListField(child=serializers.DictField(), allow_null=True)
    generated_by = serializers.CharField()
    digest = serializers.CharField(
        help_text="SHA-256 (hex) of the canonical JSON of this object without digest and signature"
    )
    signature = serializers.DictField(
        help_text="algorithm, key_id, public_key (raw Ed25519, base64) and value: the "
        "digest's ASCII hex signed"
    )


class ReportView(APIView):
    """One report for a period: table-shift, dealer, player-statement, game-performance,
    exceptions or shoe-log. A parameter the report does not take is a 400 naming it; the
    response's ``parameters`` are the ones it applied."""

    required_permissions = {"GET": "audit.view_report"}

    @extend_schema(
        parameters=[
            OpenApiParameter("kind", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(REPORTS)),
            ReportQuerySerializer,
        ],
        responses=ReportOutputSerializer,
    )
    def get(self, request, kind: str):
        report = report_generate(
            actor=Actor.from_request(request),
            kind=kind,
            rendering="json",
            **report_query(request.query_params),
        )
        # The very data the digest covers (decimals and times as strings), so that anyone can
        # recompute it from this response; the serializer above documents the shape.
        return Response(
            {**report_data(report), "digest": report.digest, "signature": report.signature}
        )
