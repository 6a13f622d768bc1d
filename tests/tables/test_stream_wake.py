"""The streams' wake-up runs after the commit: when it fails (the database went away between
the commit and the NOTIFY), the committed work stands and the caller gets no error."""

import pytest
from django.db import transaction

from tables.services import _common

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_failing_wake_after_the_commit_is_logged_not_raised(monkeypatch, caplog):
    # A NOTIFY PostgreSQL refuses (an empty channel name): a real error from the database.
    monkeypatch.setattr(_common, "STREAM_NOTIFY_SQL", "SELECT pg_notify('', %s)")
    with transaction.atomic():
        _common.stream_wake(None, table_id=7)
    assert any("stream wake of table 7" in record.getMessage() for record in caplog.records)
