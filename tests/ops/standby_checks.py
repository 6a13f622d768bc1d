"""Run by ``test_replica.py`` against a real primary and streaming standby (not collected by
itself: it needs ``DATABASE_REPLICA_URL``)."""

from __future__ import annotations

import time
from datetime import date

import pytest
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from audit.models import AuditEvent
from casino import replica
from casino.actors import Actor
from forensics.replay import round_replay
from forensics.reports import Period, report_generate
from ledger.selectors import AccountingFilter, table_accounting
from tests.audit.rounds import settled_round

pytestmark = pytest.mark.django_db(transaction=True, databases=[DEFAULT_DB_ALIAS, replica.REPLICA])


def _on_standby(sql: str):
    with connections[replica.REPLICA].cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


@pytest.fixture
def standby():
    """The replica alias on the standby's copy of the test database (Django made it a mirror
    of the primary's for the test run: the standby cannot create one)."""
    assert replica.REPLICA in settings.DATABASES, "DATABASE_REPLICA_URL is not set"
    conn = connections[replica.REPLICA]
    conn.close()
    conn.settings_dict = {
        **settings.DATABASES[replica.REPLICA],
        "NAME": connections[DEFAULT_DB_ALIAS].settings_dict["NAME"],
    }
    assert _on_standby("SELECT pg_is_in_recovery()") is True
    replica.forget()
    yield
    _on_standby("SELECT pg_wal_replay_resume()")
    conn.close()
    replica.forget()


def _caught_up(timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while (lag := replica.replica_lag()) is None or lag > 0:
        assert time.monotonic() < deadline, f"standby still {lag} s behind"
        time.sleep(0.1)


def _accounting() -> list[dict]:
    with replica.reads():
        return table_accounting(group_by=["table"], filters=AccountingFilter())


def test_reads_go_to_the_standby_and_to_the_primary_once_it_lags(standby, settings):
    settings.DATABASE_REPLICA_MAX_LAG_S = 1
    settings.DATABASE_REPLICA_CHECK_EVERY_S = 60
    first = settled_round("crown")
    _caught_up()
    replica.forget()
    with replica.reads() as alias:
        assert alias == replica.REPLICA
        assert replica.connection().alias == replica.REPLICA
        # Raw SQL and the ORM both run on the standby inside the block...
        with replica.connection().cursor() as cursor:
            cursor.execute("SELECT pg_is_in_recovery()")
            assert cursor.fetchone()[0] is True
        assert round_replay(round_id=first.pk)["ok"] is True
    seen = _accounting()
    assert [row["table"] for row in seen] == [first.table_id]

    # ...which the standby's stale copy proves: replay paused, the primary settles another round.
    _on_standby("SELECT pg_wal_replay_pause()")
    second = settled_round("crown")
    stale = _accounting()
    assert stale == seen, "the standby (replay paused) served the read: the new table is absent"

    # The audited read is written to the primary (the standby is read-only and paused).
    actor = Actor.system("replica-test")
    today = date.today()
    viewed_before = AuditEvent.objects.filter(name="audit.viewed").count()
    report = report_generate(actor=actor, kind="table-shift", period=Period.of(today, today))
    assert {row["table"] for row in report.rows} == {first.table_id}
    assert AuditEvent.objects.filter(name="audit.viewed").count() == viewed_before + 1

    # Past the lag bound (checked again), the same reads go to the primary and see the new round.
    time.sleep(1.5)
    replica.forget()
    assert replica.replica_lag() > 1
    with replica.reads() as alias:
        assert alias == DEFAULT_DB_ALIAS
    fresh = _accounting()
    assert {row["table"] for row in fresh} == {first.table_id, second.table_id}
    report = report_generate(actor=actor, kind="table-shift", period=Period.of(today, today))
    assert {row["table"] for row in report.rows} == {first.table_id, second.table_id}

    # Replay resumed: the standby catches up and serves the reads again.
    _on_standby("SELECT pg_wal_replay_resume()")
    _caught_up()
    replica.forget()
    assert replica.read_db() == replica.REPLICA
    assert {row["table"] for row in _accounting()} == {first.table_id, second.table_id}
