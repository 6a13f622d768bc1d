"""The retention tests' fixture: old months partitioned, dropped again afterwards."""

from __future__ import annotations

import pytest
from django.db import connection

from casino.retention.services import ARCHIVE_SCHEMA, partitions_ensure
from tests.retention.helpers import ACTOR, AUDIT, LEGS, ROUNDS, month


@pytest.fixture
def old_months(transactional_db):
    """The two months before this one partitioned (every partitioned table), an empty audit
    log; the archive schema and these partitions dropped afterwards."""
    partitions_ensure(actor=ACTOR, first_month=month(-2))
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE audit_auditevent, audit_auditseal")
    yield month(-2), month(-1)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP SCHEMA IF EXISTS {ARCHIVE_SCHEMA} CASCADE")
        for table in (AUDIT, ROUNDS, LEGS):
            for old in (month(-2), month(-1)):
                cursor.execute(f"DROP TABLE IF EXISTS {table}_p{old:%Y%m}")
