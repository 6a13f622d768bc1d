"""A process frozen inside a transaction (SIGSTOP: a stopped container, a swapped-out host, a
debugger) does not keep its row locks: PostgreSQL ends its session after
``DB_IDLE_IN_TRANSACTION_TIMEOUT_S`` and the rows it locked are free again."""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.db import connection, transaction
from django.db.utils import OperationalError

from tables.models import Table
from tests.faults.helpers import ROOT, database_url

pytestmark = pytest.mark.django_db(transaction=True)

# Lock the table's row, say so, and freeze with the transaction open.
FREEZE = """
import os, signal, sys
import django
django.setup()
from django.db import transaction
from tables.models import Table
with transaction.atomic():
    Table.objects.select_for_update().get(pk=int(sys.argv[1]))
    print("locked", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def _frozen_holder(table_id: int, idle_timeout_s: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "DATABASE_URL": database_url(),
        "DB_IDLE_IN_TRANSACTION_TIMEOUT_S": str(idle_timeout_s),
    }
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-c", FREEZE, str(table_id)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout.readline().strip() == "locked"
    return process


def _lock_wait(table_id: int, *, lock_timeout_ms: int) -> float:
    """Seconds until this process holds the table's row lock."""
    started = time.monotonic()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = {lock_timeout_ms}")
        Table.objects.select_for_update().get(pk=table_id)
    return time.monotonic() - started


def test_a_frozen_process_loses_its_row_locks_after_the_idle_timeout(table):
    process = _frozen_holder(table.pk, idle_timeout_s=1)
    try:
        waited = _lock_wait(table.pk, lock_timeout_ms=20_000)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    assert 0.5 <= waited < 10  # the session ended about a second after it went idle


def test_without_the_timeout_the_frozen_process_keeps_them(table):
    process = _frozen_holder(table.pk, idle_timeout_s=0)
    try:
        with pytest.raises(OperationalError, match="lock timeout"):
            _lock_wait(table.pk, lock_timeout_ms=3_000)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
