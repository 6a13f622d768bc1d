"""Small helpers every view uses to read its input."""

from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from rest_framework import serializers

from casino.errors import PermissionDenied

MAX_ID = 2**63 - 1  # PostgreSQL bigint: the largest id an input may name


class JsonIntegerField(serializers.IntegerField):
    """An integer written as a JSON integer, and nothing else.

    DRF's IntegerField runs ``int()`` on whatever it gets, so it takes 100.0, 1e2, "100",
    " 100 ", "1_000", Arabic-Indic digits and true. An amount or an id that arrives in any of
    those forms is a client bug to refuse, not to guess at. Every money and id input of a JSON
    body uses this field.
    """

    default_error_messages = {
        "invalid": "A JSON integer is required (no fraction, exponent, quotes or boolean)."
    }

    def to_internal_value(self, data):
        if type(data) is not int:  # bool is a subclass of int: refused too
            self.fail("invalid")
        return super().to_internal_value(data)


class IdField(JsonIntegerField):
    """The id of a row: a JSON integer within PostgreSQL's bigint."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)


# Calendar days the reports can compute with (the day after the last, 30 days before the
# first): date.max + 1 day would overflow, and nothing the casino records is older than this.
MIN_DATE = date(1970, 1, 1)
MAX_DATE = date(2999, 12, 31)


class DayField(serializers.DateField):
    """An ISO day between MIN_DATE and MAX_DATE."""

    default_error_messages = {
        "out_of_range": f"A day between {MIN_DATE.isoformat()} and {MAX_DATE.isoformat()}."
    }

    def to_internal_value(self, value):
        day = super().to_internal_value(value)
        if not MIN_DATE <= day <= MAX_DATE:
            self.fail("out_of_range")
        return day


def validated(serializer_class, request, **kwargs) -> dict:
    """Validate the request body with an InputSerializer; failures become 400 problems."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def staff_user(request):
    """The staff user behind a request, or None for API keys and devices."""
    user = request.user
    return user if isinstance(user, AbstractBaseUser) else None


def staff_user_required(request, refusal: str):
    """The staff user behind a request; ``refusal`` (403) for API keys and devices."""
    user = staff_user(request)
    if user is None:
        raise PermissionDenied(refusal)
    return user
