"""Filter types every list endpoint's FilterSet is built from.

django-filter answers an invalid value with a 400 naming the parameter (through
``DjangoFilterBackend`` and the problem handler); these types make "invalid" strict: an id is
a decimal integer within PostgreSQL's bigint (a larger one would reach the database and fail
there), a currency is three capital letters, and a choice is one of its values.
"""

import django_filters
from django import forms
from django_filters.rest_framework import DjangoFilterBackend

from casino.api.inputs import MAX_ID
from casino.errors import ValidationFailed


class IdFilter(django_filters.NumberFilter):
    """The id of a row: an integer from 1 to bigint's maximum (no fraction, no exponent)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class CurrencyFilter(django_filters.CharFilter):
    """An ISO 4217 code (three capital letters)."""

    field_class = forms.RegexField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("regex", r"^[A-Z]{3}$")
        kwargs.setdefault("help_text", "ISO 4217, e.g. EUR.")
        super().__init__(*args, **kwargs)


class StrictFilterBackend(DjangoFilterBackend):
    """django-filter's backend, refusing a query parameter the list does not take (a 400
    naming it), as a body refuses a field: ``/transactions/?date_from=…`` or
    ``/operator-events/?kind=…`` answered the unfiltered list, which reads as the filtered one."""

    # The paginator's and DRF's own (content negotiation's ?format=).
    GENERAL = frozenset({"cursor", "page_size", "format"})

    def filter_queryset(self, request, queryset, view):
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is not None:
            taken = self.GENERAL | set(filterset_class.base_filters)
            unknown = sorted(set(request.query_params) - taken)
            if unknown:
                raise ValidationFailed(
                    f"This list takes no {', '.join(unknown)}; it takes "
                    f"{', '.join(sorted(taken))}.",
                    errors={name: ["not a parameter of this list"] for name in unknown},
                )
        return super().filter_queryset(request, queryset, view)
