"""Reads that may be a few seconds stale, served by a PostgreSQL streaming replica.

Reports, replays, the audit browser and table accounting read a lot and write nothing that
depends on what they read, so with ``DATABASE_REPLICA_URL`` set they run inside ``reads()``:
the ORM's reads go to the ``replica`` alias (``ReplicaRouter``) and raw SQL takes
``connection()``. The replica is used only while it is within ``DATABASE_REPLICA_MAX_LAG_S`` of
the primary (checked at most every ``DATABASE_REPLICA_CHECK_EVERY_S`` per process); lagging or
unreachable, those reads go to the primary. Writes never go to the replica: the audit event a
read records (``audit.viewed``) is written after the block, and an object loaded from the
replica is saved on the primary.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

REPLICA = "replica"
log = logging.getLogger(__name__)

_reading: ContextVar[str | None] = ContextVar("casino_replica_reading", default=None)
_lock = threading.Lock()
_checked: tuple[float, str] | None = None  # (monotonic time of the check, alias chosen)

# Caught up when the standby has replayed everything the primary had written when asked (its
# WAL position read first); otherwise the lag is the time since the last transaction the
# standby replayed was committed. A standby cut off from its primary has an old replay time,
# so it falls back too, unlike a comparison of its own received and replayed positions.
_STANDBY_LAG_SQL = """
    SELECT CASE
        WHEN NOT pg_is_in_recovery() THEN NULL
        WHEN pg_last_wal_replay_lsn() >= %s::pg_lsn THEN 0
        ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())
    END
"""


def replica_lag() -> float | None:
    """Seconds the replica is behind the primary now; None if it is not a usable standby."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        primary_lsn = cursor.fetchone()[0]
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(_STANDBY_LAG_SQL, [primary_lsn])
        lag = cursor.fetchone()[0]
    return None if lag is None else float(lag)


def read_db() -> str:
    """The alias for stale-tolerant reads: the replica when configured and fresh enough."""
    global _checked
    if REPLICA not in settings.DATABASES:
        return DEFAULT_DB_ALIAS
    now = time.monotonic()
    with _lock:
        if _checked is not None and now - _checked[0] < settings.DATABASE_REPLICA_CHECK_EVERY_S:
            return _checked[1]
        try:
            lag = replica_lag()
        except DatabaseError as exc:
            log.warning("replica unreachable, reading from the primary: %s", exc, exc_info=True)
            connections[REPLICA].close()
            lag = None
        alias = REPLICA
        if lag is None or lag > settings.DATABASE_REPLICA_MAX_LAG_S:
            alias = DEFAULT_DB_ALIAS
            if lag is not None:
                log.warning("replica %.1f s behind, reading from the primary", lag)
        _checked = (now, alias)
        return alias


def forget() -> None:
    """Check the replica's lag again at the next read (tests, after pausing its replay)."""
    global _checked
    with _lock:
        _checked = None


@contextmanager
def reads() -> Iterator[str]:
    """Run the block's reads on ``read_db()``; yields the alias used."""
    alias = read_db()
    token = _reading.set(alias)
    try:
        yield alias
    finally:
        _reading.reset(token)


def connection():
    """The connection for raw SQL reads: the replica inside ``reads()``, else the primary."""
    return connections[_reading.get() or DEFAULT_DB_ALIAS]


class ReplicaRouter:
    """ORM reads inside ``reads()`` go to the alias it chose; writes never to the replica."""

    def db_for_read(self, model, **hints):
        return _reading.get()

    def db_for_write(self, model, **hints):
        instance = hints.get("instance")
        if instance is not None and instance._state.db == REPLICA:
            return DEFAULT_DB_ALIAS
        return None

    def allow_relation(self, obj1, obj2, **hints):
        if {obj1._state.db, obj2._state.db} <= {DEFAULT_DB_ALIAS, REPLICA}:
            return True
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return False if db == REPLICA else None
