"""Table accounting over the API, in the casinos' gaming days and shifts.

It lives with the tables app because the gaming days and shifts are the casinos' (time zones,
shift plans: ``tables.selectors.shift_grid``), which the ledger does not know; the figures are
the ledger's (``ledger.selectors.table_accounting``), the same as the reports, the floor room
and the regulator's bundles."""

from __future__ import annotations

from datetime import date

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import replica
from casino.api.inputs import MAX_ID, DayField
from casino.api.permissions import request_scope
from ledger import selectors as ledger_selectors
from tables.selectors import shift_grid

# The API's names for the grid's dimensions: "day" is the casino's gaming day.
_DIMENSIONS = {
    "table": "table",
    "operator": "operator",
    "day": "gaming_day",
    "shift": "shift",
    "dealer": "dealer",
}


class TableAccountingView(APIView):
    """Handle, payouts, bonuses, win and hold % grouped by table, operator, day, shift, dealer.

    Computed from the legs of player wallets at tables, so it reconciles exactly with the
    ledger. Days and shifts are each casino's gaming days and shifts (its time zone and shift
    plan, as in the reports): `date_from`/`date_to` are gaming days, `shift` keeps one shift. A
    row carries the dimensions it is grouped by, its currency and the figures. An operator's
    key sees its own players' play only.
    """

    required_permissions = {"GET": "ledger.view_accounting"}

    class QuerySerializer(serializers.Serializer):
        group_by = serializers.CharField(required=False, default="table")
        date_from = DayField(required=False)
        date_to = DayField(required=False)
        shift = serializers.RegexField(r"^[\w-]{1,40}$", required=False)
        table = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        operator = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        dealer = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        currency = serializers.RegexField(r"^[A-Z]{3}$", required=False)

        def validate_group_by(self, value):
            dims = [d for d in value.split(",") if d]
            unknown = set(dims) - _DIMENSIONS.keys()
            if unknown:
                raise serializers.ValidationError(
                    f"unknown {sorted(unknown)}; use {sorted(_DIMENSIONS)}"
                )
            return dims

        def validate(self, attrs):
            first, last = attrs.get("date_from"), attrs.get("date_to")
            if first and last and first > last:
                raise serializers.ValidationError({"date_from": ["is after date_to"]})
            return attrs

    class OutputSerializer(serializers.Serializer):
        table = serializers.IntegerField(required=False)
        operator = serializers.IntegerField(required=False)
        day = serializers.DateField(required=False)
        shift = serializers.CharField(required=False)
        dealer = serializers.IntegerField(required=False, allow_null=True)
        currency = serializers.CharField()
        handle = serializers.IntegerField()
        payouts = serializers.IntegerField()
        bonuses = serializers.IntegerField()
        win = serializers.IntegerField()
        hold_pct = serializers.DecimalField(max_digits=30, decimal_places=2, allow_null=True)

        def to_representation(self, instance):
            # A dimension the rows are not grouped by is left out, not shown as null (a null
            # dealer means a round without one).
            data = super().to_representation(instance)
            return {key: value for key, value in data.items() if key in instance}

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "group_by",
                OpenApiTypes.STR,
                description="Comma-separated: table, operator, day, shift, dealer.",
            ),
            OpenApiParameter("date_from", OpenApiTypes.DATE, description="First gaming day."),
            OpenApiParameter("date_to", OpenApiTypes.DATE, description="Last gaming day."),
            OpenApiParameter("shift", OpenApiTypes.STR, description="Only this shift."),
            OpenApiParameter("table", OpenApiTypes.INT),
            OpenApiParameter("operator", OpenApiTypes.INT),
            OpenApiParameter("dealer", OpenApiTypes.INT),
            OpenApiParameter("currency", OpenApiTypes.STR),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        q = query.validated_data
        scope = request_scope(request)
        with replica.reads():
            grid = shift_grid(
                date_from=q.get("date_from") or date.min,
                date_to=q.get("date_to") or date.max,
                shift=q.get("shift"),
                table_id=q.get("table"),
            )
            rows = ledger_selectors.table_accounting(
                group_by=[_DIMENSIONS[d] for d in q["group_by"]],
                filters=ledger_selectors.AccountingFilter(
                    table_id=q.get("table"),
                    operator_id=scope.operator_or(q.get("operator")),
                    dealer_id=q.get("dealer"),
                    currency=q.get("currency"),
                ),
                shifts=grid,
            )
        for row in rows:
            if "gaming_day" in row:
                row["day"] = row.pop("gaming_day")
        return Response(self.OutputSerializer(rows, many=True).data)
