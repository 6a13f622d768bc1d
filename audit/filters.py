from datetime import UTC

import django_filters
from rest_framework.exceptions import ValidationError

from audit.models import AuditEvent, DisputeCase
from casino.api.filters import IdFilter


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """ISO 8601 with any offset, compared in UTC (PostgreSQL refuses offsets beyond ±15:59)."""

    def filter(self, qs, value):
        if value is not None:
            try:
                value = value.astimezone(UTC)
            except OverflowError:
                raise ValidationError({self.field_name: ["Date out of range."]}) from None
        return super().filter(qs, value)


class AuditEventFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(help_text="exact event name, e.g. bet.placed")
    name_prefix = django_filters.CharFilter(
        field_name="name", lookup_expr="startswith", help_text="e.g. auth. for every auth event"
    )
    actor_kind = django_filters.CharFilter()
    actor_id = django_filters.CharFilter()
    table = IdFilter(field_name="table_id")
    round = IdFilter(field_name="round_id")
    bet = IdFilter(field_name="bet_id")
    wallet = IdFilter(field_name="wallet_id")
    operator = IdFilter(field_name="operator_id")
    occurred_after = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="gte")
    occurred_before = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="lt")

    class Meta:
        model = AuditEvent
        fields = []


class DisputeFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=DisputeCase.Status.choices)
    round = IdFilter(field_name="round_id")

    class Meta:
        model = DisputeCase
        fields = []
