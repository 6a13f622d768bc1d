"""Shared by the retention tests: months relative to now, rows at a given time, where a row
lives, the regulator bundles of a month."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from unittest import mock

from django.db import connection

from audit.services import audit_event_record
from casino.actors import Actor
from casino.retention.services import partition_list
from forensics.bundles import audit_day_export, export_calendars

AUDIT, ROUNDS, LEGS = "audit_auditevent", "tables_roundevent", "ledger_leg"
ACTOR = Actor.system("tests")


def month(offset: int) -> date:
    """The first day of the month ``offset`` months from this one (UTC)."""
    first = datetime.now(UTC).date().replace(day=1)
    year, index = divmod(first.year * 12 + first.month - 1 + offset, 12)
    return date(year, index + 1, 1)


def at(day: date, *, microseconds: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(microseconds=microseconds)


def record_at(when: datetime, name: str = "test.event", **payload) -> int:
    with mock.patch("django.utils.timezone.now", return_value=when):
        return audit_event_record(name=name, actor=ACTOR, payload=payload).pk


def partition_of(table: str, row_id: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT tableoid::regclass::text FROM {table} WHERE id = %s", [row_id])
        return cursor.fetchone()[0]


def months_of(table: str) -> list[date | None]:
    return [p.month for p in partition_list(table=table)]


def export_month(first: date, out) -> None:
    """Every casino's bundles of the month's days (UTC casinos here: a gaming day a date),
    where the task writes them (``<casino code>/<day>``, ``utc/<day>`` without a casino)."""
    for name, _, casino_id in export_calendars():
        day = first
        while day.month == first.month:
            audit_day_export(day=day, out=out / name / day.isoformat(), casino_id=casino_id)
            day += timedelta(days=1)
