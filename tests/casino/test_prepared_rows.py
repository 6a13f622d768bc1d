"""``casino/rows.py`` runs the hot statements as prepared statements of the connection: the
first run prepares and executes in one round trip, later runs only execute. A first run that
fails (its EXECUTE half, its transaction rolled back: the PREPARE stays) or a new connection
must not break the next run."""

import pytest
from django.db import DataError, IntegrityError, connection, transaction

from casino.rows import (
    _preparing,
    execute_prepared,
    execute_prepared_all,
    model_first,
    model_insert,
    model_select_sql,
)
from ledger.models import Operator

pytestmark = pytest.mark.django_db(transaction=True)


def _prepared_names() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


def test_a_statement_is_prepared_once_and_its_results_are_the_plain_ones():
    with connection.cursor() as cursor:
        execute_prepared(cursor, "SELECT %s + 1", [41])
        assert cursor.fetchone() == (42,)
        before = _prepared_names()
        execute_prepared(cursor, "SELECT %s + 1", [1])
        assert cursor.fetchone() == (2,)
        execute_prepared(
            cursor, "SELECT %(a)s::int * %(b)s::int, %(a)s::int, '100%%'", {"a": 6, "b": 7}
        )
        assert cursor.fetchone() == (42, 6, "100%")
    assert len(_prepared_names() - before) == 1  # only the new statement was prepared


def test_a_first_run_that_fails_does_not_break_the_next_ones():
    Operator.objects.create(code="op-1", name="One")
    connection.close()  # a new connection: nothing prepared on it yet
    with pytest.raises(IntegrityError), transaction.atomic():
        model_insert(Operator(code="op-1", name="Again"))  # prepared, then the EXECUTE fails
    model_insert(Operator(code="op-2", name="Two"))  # the same statement runs all the same
    sql = model_select_sql(Operator, "code = %s")
    assert model_first(Operator, sql, ["op-2"]).name == "Two"
    model_insert(Operator(code="op-3", name="Three"))
    assert Operator.objects.filter(code__startswith="op-").count() == 3


def test_several_statements_run_prepared_in_order_in_one_round_trip():
    connection.close()  # a new connection: nothing prepared on it yet
    first, second = "SELECT %s::int * 2", "SELECT %s::text || '!', %s::int"
    for n in (1, 2):  # preparing both, then only executing them
        with connection.cursor() as cursor:
            execute_prepared_all(cursor, [(first, [n]), (second, ["hi", n]), (first, [n + 10])])
            assert cursor.fetchone() == (2 * n,)
            assert cursor.nextset()
            assert cursor.fetchone() == ("hi!", n)
            assert cursor.nextset()
            assert cursor.fetchone() == (2 * (n + 10),)
            assert not cursor.nextset()
    assert {_preparing(first)[0], _preparing(second)[0]} <= _prepared_names()


def test_a_failed_batch_leaves_its_statements_usable():
    connection.close()
    with pytest.raises(DataError), connection.cursor() as cursor:
        execute_prepared_all(cursor, [("SELECT %s::int + 1", [1]), ("SELECT 1 / %s::int", [0])])
    with connection.cursor() as cursor:
        execute_prepared_all(cursor, [("SELECT %s::int + 1", [1]), ("SELECT 1 / %s::int", [1])])
        assert cursor.fetchone() == (2,)
        cursor.nextset()
        assert cursor.fetchone() == (1,)
