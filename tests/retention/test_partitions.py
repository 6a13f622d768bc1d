"""Retention: the audit log and round events partitioned by month (casino/retention; the
ledger's legs: test_ledger_partitions.py).

Real PostgreSQL: partitions created ahead, rows routed across a month boundary, detachment
refused until the month's gaming days are exported and allowed after, and the audit chain
verified across partitions and, after a detachment, from the archived prefix's head.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test import override_settings

from audit.models import AuditEvent, AuditSeal
from audit.sealing import unpack_ids
from audit.verification import audit_chain_verify
from casino.errors import ValidationFailed
from casino.retention.chain import DETACHED
from casino.retention.services import (
    ARCHIVE_SCHEMA,
    partition_detach,
    partitions_default_rows,
    partitions_ensure,
)
from casino.retention.tasks import partitions_ensure_task
from tests.audit.helpers import seal_everything, tamper
from tests.audit.rounds import settled_round
from tests.retention.helpers import (
    ACTOR,
    AUDIT,
    LEGS,
    ROUNDS,
    at,
    export_month,
    month,
    months_of,
    partition_of,
    record_at,
)


def test_partitions_are_created_ahead_by_the_task_and_only_once(db):
    # The migration made this month's and the next three; the beat task keeps them ahead.
    assert months_of(AUDIT)[-5:] == [month(0), month(1), month(2), month(3), None]
    created = partitions_ensure(actor=ACTOR, months_ahead=5)
    assert created == [
        f"{table}_p{month(n):%Y%m}" for table in (AUDIT, ROUNDS, LEGS) for n in (4, 5)
    ]
    assert months_of(ROUNDS)[-3:] == [month(4), month(5), None]
    assert months_of(LEGS)[-7:] == [month(n) for n in range(6)] + [None]
    assert partitions_ensure(actor=ACTOR, months_ahead=5) == []
    event = AuditEvent.objects.get(name="retention.partitions_created")
    assert event.payload["partitions"] == created

    with override_settings(RETENTION_MONTHS_AHEAD=6):
        assert partitions_ensure_task.apply().get() == [
            f"{AUDIT}_p{month(6):%Y%m}",
            f"{ROUNDS}_p{month(6):%Y%m}",
            f"{LEGS}_p{month(6):%Y%m}",
        ]
    schedule = settings.CELERY_BEAT_SCHEDULE["retention-partitions-ensure"]
    assert schedule["task"] == "retention.partitions_ensure"
    assert partitions_default_rows() == {AUDIT: 0, ROUNDS: 0, LEGS: 0}


def test_the_partition_function_serves_the_partitioned_tables_only(db):
    refused = pytest.raises(Exception, match="not a time-partitioned table")
    with refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT casino_partitions_ensure('ledger_transaction', now()::date, 1)")


def test_rows_are_routed_to_their_month_across_the_boundary(db):
    boundary = at(month(1))
    before = record_at(boundary - timedelta(microseconds=1), "test.before")
    after = record_at(boundary, "test.after")
    assert partition_of(AUDIT, before) == f"{AUDIT}_p{month(0):%Y%m}"
    assert partition_of(AUDIT, after) == f"{AUDIT}_p{month(1):%Y%m}"
    assert list(AuditEvent.objects.filter(pk__in=[before, after]).values_list("pk", flat=True))
    # Far outside every month: the DEFAULT partition catches it instead of failing the write.
    stray = record_at(at(date(2001, 1, 1)), "test.stray")
    assert partition_of(AUDIT, stray) == f"{AUDIT}_default"
    assert partitions_default_rows()[AUDIT] == 1

    rnd = settled_round("british_casino")
    event = rnd.events.order_by("id").first()
    assert partition_of(ROUNDS, event.pk) == f"{ROUNDS}_p{month(0):%Y%m}"
    with mock.patch("django.utils.timezone.now", return_value=boundary):
        late = rnd.events.create(
            table_id=rnd.table_id, kind="meta", type="note", payload={}, public={}, actor="t"
        )
    assert partition_of(ROUNDS, late.pk) == f"{ROUNDS}_p{month(1):%Y%m}"
    assert rnd.events.count() == rnd.events.filter(pk__lt=late.pk).count() + 1


def test_a_month_with_rows_in_the_default_partition_cannot_be_created_silently(db):
    far = month(8)
    record_at(at(far) + timedelta(days=3), "test.far_future")
    assert partitions_default_rows()[AUDIT] == 1
    with pytest.raises(Exception, match="default partition"), transaction.atomic():
        partitions_ensure(actor=ACTOR, months_ahead=8)


def test_detachment_needs_the_export_and_verification_goes_on_from_the_archived_head(
    old_months, tmp_path
):
    old, previous = old_months
    first = [record_at(at(old) + timedelta(days=d), "test.old", n=d) for d in (2, 9, 20)]
    seal_everything()  # seal 1: the old month only
    with transaction.atomic():  # one transaction across the boundary: one straddling seal
        straddler = record_at(at(previous, microseconds=-1), "test.old_last")
        newer = record_at(at(previous), "test.previous_first")
    current = record_at(datetime.now(UTC), "test.current")
    seal_everything()
    assert {partition_of(AUDIT, i) for i in (*first, straddler, newer, current)} == {
        f"{AUDIT}_p{old:%Y%m}",
        f"{AUDIT}_p{previous:%Y%m}",
        f"{AUDIT}_p{month(0):%Y%m}",
    }

    # Verification walks the seals across the partitions, and finds a change in any of them.
    report = audit_chain_verify()
    assert report.ok and report.events_verified == 6 and report.events_archived == 0
    tamper("UPDATE audit_auditevent SET actor_label = 'x' WHERE id = %s", [first[1]])
    report = audit_chain_verify()
    assert (report.ok, report.problem.kind, report.problem.event_id) == (
        False,
        "modified",
        first[1],
    )
    tamper("UPDATE audit_auditevent SET actor_label = 'tests' WHERE id = %s", [first[1]])
    assert audit_chain_verify().ok

    exports = tmp_path / "exports"
    with override_settings(AUDIT_EXPORT_DIR=str(exports)):
        with pytest.raises(ValidationFailed, match="no complete regulator export bundle"):
            partition_detach(table=AUDIT, month=old, actor=ACTOR)
        export_month(old, exports)
        with pytest.raises(ValidationFailed, match="not the oldest"):
            partition_detach(table=AUDIT, month=previous, actor=ACTOR)
        with pytest.raises(ValidationFailed, match="not over"):
            partition_detach(table=AUDIT, month=month(0), actor=ACTOR)
        assert months_of(AUDIT)[0] == old  # nothing detached by a refusal

        record = partition_detach(
            table=AUDIT, month=old, actor=ACTOR, export_dir=tmp_path / "archive"
        )
        with pytest.raises(CommandError, match="not the oldest"):
            call_command("partitions", "detach", ROUNDS, previous.strftime("%Y-%m"))

    # Out of the live table, into the archive schema, still append-only, and exported.
    assert old not in months_of(AUDIT)
    assert record["rows"] == 4 and record["archive"] == f"{ARCHIVE_SCHEMA}.{AUDIT}_p{old:%Y%m}"
    assert not AuditEvent.objects.filter(pk__in=[*first, straddler]).exists()
    refused = pytest.raises(Exception, match="append-only")
    with refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {record['archive']}")
    lines = (tmp_path / "archive" / f"{AUDIT}_p{old:%Y%m}.copy").read_bytes()
    assert hashlib.sha256(lines).hexdigest() == record["export"]["sha256"]
    exported = AuditEvent.objects.get(name="retention.partition_exported").payload
    assert exported["sha256"] == record["export"]["sha256"] and exported["bytes"] == len(lines)
    sealed = b"".join(bytes(s.event_digests) for s in AuditSeal.objects.order_by("seq"))
    digests = [hashlib.sha256(line).digest() for line in lines.split(b"\n")[:-1]]
    assert len(digests) == 4 and all(d in sealed for d in digests)
    detach_event = AuditEvent.objects.get(name=DETACHED)
    assert detach_event.payload["chain"]["head_seq"] == 1  # seal 1 is wholly archived
    assert (
        straddler in detach_event.payload["chain"]["extra_ids"]
        or straddler < (detach_event.payload["chain"]["ids_below"])
    )

    # What remains verifies: from seal 1's hash, the straddling seal without its archived event.
    seal_everything()
    report = audit_chain_verify()
    assert report.ok, report.problem
    assert report.archived_through_seq == 1 and report.events_archived == 1
    assert report.events_verified == 4  # newer, current, the detach and the export events

    # A live event that goes missing is still found missing, in the straddling seal too.
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [newer])
    report = audit_chain_verify()
    assert (report.ok, report.problem.kind, report.problem.event_id) == (False, "missing", newer)
    straddling = AuditSeal.objects.get(seq=2)
    assert {straddler, newer} <= set(unpack_ids(bytes(straddling.event_ids)))


def test_round_events_detach_after_the_export_too(old_months, tmp_path):
    old, _ = old_months
    rnd = settled_round("british_casino")
    with mock.patch("django.utils.timezone.now", return_value=at(old) + timedelta(days=5)):
        archived = rnd.events.create(
            table_id=rnd.table_id, kind="meta", type="note", payload={}, public={}, actor="t"
        )
    assert partition_of(ROUNDS, archived.pk) == f"{ROUNDS}_p{old:%Y%m}"
    live = rnd.events.count() - 1
    exports = tmp_path / "exports"
    with override_settings(AUDIT_EXPORT_DIR=str(exports)):
        with pytest.raises(ValidationFailed, match="export"):
            partition_detach(table=ROUNDS, month=old, actor=ACTOR)
        export_month(old, exports)
        call_command("partitions", "detach", ROUNDS, old.strftime("%Y-%m"))
    assert old not in months_of(ROUNDS)
    assert rnd.events.count() == live and not rnd.events.filter(pk=archived.pk).exists()
    event = AuditEvent.objects.get(name=DETACHED)
    assert event.payload["table"] == ROUNDS and "chain" not in event.payload
    assert (event.payload["rows"], event.payload["min_id"]) == (1, archived.pk)
    assert len(event.payload["bundles"]) == (month(-1) - old).days
