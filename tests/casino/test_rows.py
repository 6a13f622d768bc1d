"""casino/rows.py against the real database: the statements it builds once, and rows read and
written exactly as the ORM would read and write them (converters, defaults, ``auto_now``,
database defaults), without the ORM's signals."""

from __future__ import annotations

import gc
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino import rows
from casino.actors import Actor
from casino.api.models import IdempotencyRecord
from casino.rows import (
    model_first,
    model_from_row,
    model_insert,
    model_insert_sql,
    model_remember,
    model_remembered,
    model_select_sql,
    model_update,
    model_update_changed,
)
from ledger.models import Operator, WebhookCircuit
from tables import services
from tables.models import RoundEvent
from tests.factories import OperatorFactory, live_table

pytestmark = pytest.mark.django_db

DEVICE = Actor(kind="device", id="1", label="reader-1")


def _record(key: str, body) -> IdempotencyRecord:
    return IdempotencyRecord(
        scope="api_key:1",
        key=key,
        method="POST",
        path="/api/v1/x/",
        fingerprint="f" * 64,
        response_status=201,
        response_body=body,
    )


def test_select_sql_names_every_column_and_is_built_once():
    sql = model_select_sql(IdempotencyRecord, '"scope" = %s AND "key" = %s', lock="FOR UPDATE")
    assert sql == (
        'SELECT "id", "scope", "key", "method", "path", "fingerprint", "response_status", '
        '"response_content", "response_body", "created_at" FROM "api_idempotencyrecord" '
        'WHERE "scope" = %s AND "key" = %s FOR UPDATE'
    )
    again = model_select_sql(IdempotencyRecord, '"scope" = %s AND "key" = %s', lock="FOR UPDATE")
    assert again is sql
    assert model_select_sql(IdempotencyRecord, '"id" = %s').endswith('WHERE "id" = %s')


def test_first_reads_the_instance_a_queryset_reads():
    body = {"bets": [{"ref": "r1", "stake": 100}], "note": "é"}
    _record("k1", body).save()
    expected = IdempotencyRecord.objects.get(key="k1")

    got = model_first(IdempotencyRecord, model_select_sql(IdempotencyRecord, '"key" = %s'), ["k1"])

    assert type(got) is IdempotencyRecord
    assert got.response_body == body  # the JSON converter ran: a dict, not text
    assert got.created_at == expected.created_at and got.created_at.tzinfo is not None
    fields = [f.attname for f in IdempotencyRecord._meta.concrete_fields]
    assert [getattr(got, f) for f in fields] == [getattr(expected, f) for f in fields]
    assert got._state.adding is False and got._state.db == connection.alias
    got.response_status = 200
    got.save(update_fields=["response_status"])  # an ordinary model instance
    assert IdempotencyRecord.objects.get(pk=got.pk).response_status == 200


def test_first_and_from_row_give_none_for_no_row():
    sql = model_select_sql(IdempotencyRecord, '"key" = %s')
    assert model_first(IdempotencyRecord, sql, ["absent"]) is None
    assert model_from_row(IdempotencyRecord, None) is None


@pytest.mark.parametrize("count", [2, 5])  # up to 4 rows a prepared statement, more plain
def test_insert_writes_several_rows_in_one_statement_and_sets_their_keys(count):
    records = [_record(f"k{n}", {"n": n, "list": [1, "two", None]}) for n in range(count)]
    before = timezone.now()
    with CaptureQueriesContext(connection) as statements:
        model_insert(*records)
    assert len(statements) == 1
    assert len({r.pk for r in records}) == count
    for record in records:
        assert record.pk is not None and record._state.adding is False
        assert before <= record.created_at <= timezone.now()  # auto_now_add, as save() sets it
        stored = IdempotencyRecord.objects.get(pk=record.pk)
        assert (stored.key, stored.response_body, stored.created_at) == (
            record.key,
            record.response_body,
            record.created_at,
        )


def test_insert_runs_other_statements_in_its_round_trip():
    circuit = WebhookCircuit.objects.create(operator=OperatorFactory())
    bump = (
        'UPDATE "ledger_webhookcircuit" SET "consecutive_failures" = %s WHERE "operator_id" = %s',
        [3, circuit.pk],
    )
    operator = Operator(code="op-also", name="Also")
    record = _record("with-also", {"ok": True})
    with CaptureQueriesContext(connection) as statements:
        model_insert(record, also=[bump, model_insert_sql(operator)])
    assert len(statements) == 1
    assert IdempotencyRecord.objects.get(pk=record.pk).response_body == {"ok": True}
    assert WebhookCircuit.objects.get(pk=circuit.pk).consecutive_failures == 3
    assert Operator.objects.get(code="op-also").name == "Also"
    assert operator.pk is None  # what an ``also`` clause returns is not read


def test_select_of_some_fields_defers_the_others():
    _record("some", {"big": "x" * 1000}).save()
    fields = ("id", "key", "response_status")
    sql = model_select_sql(IdempotencyRecord, '"key" = %s', fields=fields)
    assert sql.startswith('SELECT "id", "key", "response_status" FROM')

    got = model_first(IdempotencyRecord, sql, ["some"], fields=fields)

    assert (got.key, got.response_status) == ("some", 201)
    assert got.get_deferred_fields() == {
        "scope",
        "method",
        "path",
        "fingerprint",
        "response_content",
        "response_body",
        "created_at",
    }
    with CaptureQueriesContext(connection) as statements:
        assert got.response_body == {"big": "x" * 1000}  # read when asked for, as .only() does
    assert len(statements) == 1


def test_insert_leaves_database_defaults_to_the_database_and_reads_them_back():
    table = live_table("crown")
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    event = RoundEvent(
        round=rnd, table=table, kind="meta", type="test", payload={"a": 1}, public={}, actor="t"
    )
    model_insert(event)
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        [txid] = cursor.fetchone()
    assert event.txid == txid  # the column's db_default, returned by the INSERT
    assert RoundEvent.objects.get(pk=event.pk).txid == txid


def test_update_writes_only_the_named_columns_and_runs_auto_now():
    circuit = WebhookCircuit.objects.create(operator=OperatorFactory())
    WebhookCircuit.objects.filter(pk=circuit.pk).update(
        changed_at=timezone.now() - timedelta(hours=1)
    )
    circuit.refresh_from_db()
    stale = circuit.changed_at

    circuit.state = WebhookCircuit.State.OPEN
    circuit.consecutive_failures = 99  # changed on the object, not named: not written
    model_update(circuit, ["state", "changed_at"])

    stored = WebhookCircuit.objects.get(pk=circuit.pk)
    assert stored.state == "open" and stored.consecutive_failures == 0
    assert stored.changed_at > stale and stored.changed_at == circuit.changed_at


def test_no_model_signals_are_sent():
    heard = []

    def listen(sender, **kwargs):
        heard.append(sender)

    pre_save.connect(listen, sender=IdempotencyRecord)
    post_save.connect(listen, sender=IdempotencyRecord)
    try:
        record = _record("quiet", {})
        model_insert(record)
        record.response_status = 204
        model_update(record, ["response_status"])
        _record("loud", {}).save()  # the ORM does send them
    finally:
        pre_save.disconnect(listen, sender=IdempotencyRecord)
        post_save.disconnect(listen, sender=IdempotencyRecord)
    assert heard == [IdempotencyRecord, IdempotencyRecord]  # only the ORM's create
    assert IdempotencyRecord.objects.get(key="quiet").response_status == 204


def test_update_changed_writes_only_what_changed_since_remembered():
    circuit = WebhookCircuit.objects.create(operator=OperatorFactory())
    circuit.refresh_from_db()
    assert not model_remembered(circuit)
    model_remember(circuit, ["state", "consecutive_failures", "open_until"])
    assert model_remembered(circuit)
    other = WebhookCircuit.objects.get(pk=circuit.pk)  # the same row, another instance
    assert other == circuit and not model_remembered(other)

    rows_elsewhere = WebhookCircuit.objects.filter(pk=circuit.pk)
    rows_elsewhere.update(state="open")  # not through this instance: must not be overwritten
    circuit.consecutive_failures = 2
    before = circuit.changed_at
    with CaptureQueriesContext(connection) as statements:
        model_update_changed(circuit, always=["changed_at"])
    assert len(statements) == 1
    stored = WebhookCircuit.objects.get(pk=circuit.pk)
    assert (stored.state, stored.consecutive_failures) == ("open", 2)
    assert stored.changed_at > before  # ``always``, auto_now included

    rows_elsewhere.update(consecutive_failures=7)
    circuit.open_until = timezone.now()
    model_update_changed(circuit)  # 2 was remembered as written: unchanged since, not written
    stored = WebhookCircuit.objects.get(pk=circuit.pk)
    assert (stored.consecutive_failures, stored.open_until) == (7, circuit.open_until)


def test_a_remembered_instance_is_forgotten_with_it():
    circuit = WebhookCircuit.objects.create(operator=OperatorFactory())
    model_remember(circuit, ["state"])
    key = id(circuit)
    assert key in rows._remembered
    del circuit
    gc.collect()
    assert key not in rows._remembered


@pytest.mark.parametrize(
    "values",
    [
        {"response_status": 201, "key": "plain", "scope": "api_key:1"},  # their own types
        {"response_status": "201", "key": 7, "scope": "api_key:1"},  # prepared, as save does
        {"response_status": True, "key": "b", "scope": None},
    ],
)
def test_insert_parameters_are_the_ones_save_prepares(values):
    record = _record("k", {"ok": True})
    for name, value in values.items():
        setattr(record, name, value)
    _, params = model_insert_sql(record)
    fields = rows._inserting(IdempotencyRecord)[0]
    expected = [f.get_db_prep_save(f.pre_save(record, True), connection) for f in fields]
    stamped = [i for i, f in enumerate(fields) if f.name == "created_at"]  # now, each time
    assert [(type(p), str(p)) for i, p in enumerate(params) if i not in stamped] == [
        (type(p), str(p)) for i, p in enumerate(expected) if i not in stamped
    ]
