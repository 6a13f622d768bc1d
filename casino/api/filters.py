"""Filter types every list endpoint's FilterSet is built from.

django-filter answers an invalid value with a 400 naming the parameter (through
``DjangoFilterBackend`` and the problem handler); these types make "invalid" strict: an id is
a decimal integer within PostgreSQL's bigint (a larger one would reach the database and fail
there), a currency is three capital letters, and a choice is one of its values.
"""

import django_filters
from django import forms

from casino.api.inputs import MAX_ID


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
