"""The ledger lists' filters (``filterset_class`` of each list view): a bad value is a 400
naming the parameter, never an empty page or a 500."""

import django_filters

from casino.api.filters import CurrencyFilter, IdFilter
from casino.api.permissions import request_scope
from ledger.models import Account, Correction, OperatorEvent, Player, Transaction


class PlayerFilter(django_filters.FilterSet):
    external_ref = django_filters.CharFilter(max_length=64, help_text="Your id of the player.")

    class Meta:
        model = Player
        fields = []


class WalletFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player_id")
    currency = CurrencyFilter()

    class Meta:
        model = Account
        fields = []


class TransactionFilter(django_filters.FilterSet):
    wallet = IdFilter(field_name="legs__account_id", distinct=True)
    round = IdFilter(field_name="round_id")
    table = IdFilter(field_name="table_id")
    kind = django_filters.ChoiceFilter(choices=Transaction.Kind.choices)

    class Meta:
        model = Transaction
        fields = []


class CorrectionFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Correction.Status.choices)

    class Meta:
        model = Correction
        fields = []


class OperatorEventFilter(django_filters.FilterSet):
    operator = IdFilter(
        method="filter_operator", help_text="Staff only; an API key reads its own events."
    )

    class Meta:
        model = OperatorEvent
        fields = []

    def filter_operator(self, queryset, name, value):
        # An operator's key is already limited to its own events: the parameter, validated
        # like any other, changes nothing for it.
        if request_scope(self.request).operator_id is not None:
            return queryset
        return queryset.filter(operator_id=value)
