"""Megabyte JSON documents (settlement records, operators' round.settled payloads) are stored
as ``json`` text (casino/jsontext.py) and read back as the documents written; the settlement's
garbage-collector pause (casino/gcpause.py) always gives the collector back."""

import gc
import json

import pytest
from django.db import connection

from casino.gcpause import gc_paused
from ledger.models import OperatorEvent
from ledger.notifications import operator_event_emit
from tests.factories import OperatorFactory


@pytest.mark.django_db
def test_a_json_text_document_round_trips():
    payload = {"bets": [{"bet_ref": "r1-a", "stake": 100, "result": "win"}], "note": "é \\" + '"'}
    event = operator_event_emit(operator_id=OperatorFactory().pk, kind="test", payload=payload)
    assert OperatorEvent.objects.get(pk=event.pk).payload == payload
    assert (
        OperatorEvent.objects.filter(pk=event.pk).values_list("payload", flat=True).get() == payload
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_typeof(payload)::text, payload::text FROM ledger_operatorevent "
            "WHERE id = %s",
            [event.pk],
        )
        kind, text = cursor.fetchone()
    assert kind == "json"
    assert text == json.dumps(payload, separators=(",", ":"))  # the compact text, as written


def test_gc_paused_restores_the_collector_also_when_nested_or_failing():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves it to the outer one
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("the work failed")
    assert gc.isenabled()
