"""The tables lists' filters: a bad value is a 400 naming the parameter."""

import django_filters

from casino.api.filters import CurrencyFilter
from tables.models import Table


class TableFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Table.Status.choices)
    currency = CurrencyFilter()

    class Meta:
        model = Table
        fields = []
