"""Array literals for set-based SQL read back exactly as the Python lists they came from."""

import pytest
from django.db import connection

from casino.pgarrays import int_array, text_array

pytestmark = pytest.mark.django_db


def test_round_trip():
    ints = [0, -1, 2**62, None, 7]
    texts = ["plain", 'with "quotes"', "back\\slash", "{braces},comma", "", "NULL", None, "é"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::bigint[], %s::text[]", [int_array(ints), text_array(texts)])
        assert cursor.fetchone() == (ints, texts)
        cursor.execute("SELECT %s::bigint[], %s::text[]", [int_array([]), text_array([])])
        assert cursor.fetchone() == ([], [])


def test_round_trip_without_anything_to_escape():
    texts = ["plain", "NULL", "", "{braces},comma", "é", "r12-ab"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::text[]", [text_array(iter(texts))])
        assert cursor.fetchone() == (texts,)
