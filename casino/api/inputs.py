"""Small helpers every view uses to read its input."""

import unicodedata
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


class ReferenceField(serializers.CharField):
    """A caller's identifier (a player's reference, a device's id) kept exactly as sent: DRF
    would trim surrounding whitespace, so " p-1 " became "p-1" and matched another player.
    Refused instead, with control and format characters (a tab, a newline, a right-to-left
    override: what a report or a screen would show differs from what is stored)."""

    default_error_messages = {
        "unclean": "No surrounding whitespace, control or formatting characters.",
    }

    def __init__(self, **kwargs):
        kwargs["trim_whitespace"] = False
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value != value.strip() or any(
            unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in value
        ):
            self.fail("unclean")
        return value


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

    def __init__(self, **kwargs):
        # YYYY-MM-DD only, as the error says (ISO 8601's basic 20261205 is not taken either).
        kwargs.setdefault("input_formats", ["%Y-%m-%d"])
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        day = super().to_internal_value(value)
        if not MIN_DATE <= day <= MAX_DATE:
            self.fail("out_of_range")
        return day


def validated(serializer_class, request, **kwargs) -> dict:
    """Validate the request body with an InputSerializer; failures become 400 problems.

    Parsed strictly before DRF sees it: DRF drops fields it does not know (a ``currency`` sent
    with a deposit would be ignored, not checked) and coerces types (``"yes"`` and ``1`` are
    true, ``5`` is the string ``"5"``). A body naming a field the operation does not take, or
    giving a value of another JSON type than the field's, is a 400 naming the field."""
    serializer = serializer_class(data=request.data, **kwargs)
    errors = _strict_errors(serializer, request.data)
    if errors:
        raise serializers.ValidationError(errors)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# The JSON type each kind of input field takes (the first class that matches); fields of
# other kinds (integers: JsonIntegerField; JSON documents) check their own input.
_JSON_TYPES = (
    (serializers.BooleanField, bool, "a JSON boolean (true or false)"),
    (serializers.MultipleChoiceField, list, "a JSON array"),
    (serializers.ListField, list, "a JSON array"),
    (serializers.CharField, str, "a JSON string"),
    (serializers.DateField, str, "a JSON string (an ISO date)"),
    (serializers.DateTimeField, str, "a JSON string (an ISO date and time)"),
    (serializers.Serializer, dict, "a JSON object"),
)


def no_fields(request) -> None:
    """The body of an operation that takes none: absent or ``{}``; a field sent is a 400
    naming it, as in every body (a field the caller thinks does something, ignored, would
    be worse)."""
    validated(serializers.Serializer, request)


def _strict_errors(field, data, path: str = "") -> dict[str, list[str]]:
    """Unknown fields and values of the wrong JSON type, by dotted path."""
    if data is None and getattr(field, "allow_null", False):
        return {}
    if isinstance(field, serializers.ChoiceField) and not isinstance(
        field, serializers.MultipleChoiceField
    ):
        if all(isinstance(choice, str) for choice in field.choices) and not isinstance(data, str):
            return {path: ["Must be a JSON string."]}
        return {}
    expected = next(((t, what) for cls, t, what in _JSON_TYPES if isinstance(field, cls)), None)
    if expected is None:
        return {}
    json_type, what = expected
    if not isinstance(data, json_type):
        return {path: [f"Must be {what}."]} if path else {}  # the body itself: DRF's message
    errors: dict[str, list[str]] = {}
    if isinstance(field, serializers.Serializer):
        writable = {name: f for name, f in field.fields.items() if not f.read_only}
        for name in data:
            if name not in writable:
                errors[f"{path}.{name}" if path else str(name)] = [
                    "Unknown field: this operation does not take it."
                ]
        for name, child in writable.items():
            if name in data:
                errors.update(_strict_errors(child, data[name], f"{path}.{name}" if path else name))
    elif isinstance(field, serializers.ListField):
        for index, item in enumerate(data):
            errors.update(_strict_errors(field.child, item, f"{path}[{index}]"))
    return errors


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
