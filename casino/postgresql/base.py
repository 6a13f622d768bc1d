"""Django's PostgreSQL backend, with a connection pool that answers at once while the database
is unreachable (``DATABASES`` uses it when ``DB_POOL`` is set: the ASGI server).

psycopg's pool makes a request wait up to ``DB_POOL_TIMEOUT`` (10 s) for a connection. That is
right when every connection is busy, and wrong when the database is down: each request then
held a thread for the whole timeout before its 503, the requests behind it piled up as
threads, and after the database came back the pool reconnected on its own backoff (1, 2, 4,
8 s...). Here:

- a request waits for a connection in short slices; when the pool's attempts to connect have
  failed meanwhile, the process marks the database down and the request gets its 503 at once;
- while it is down, requests get their 503 at once, except that one every
  ``PROBE_EVERY_SECONDS`` tries a connection of its own: when that succeeds, the pool is
  replaced by a new one (which connects straight away) and requests go through again.
"""

from __future__ import annotations

import threading
from time import monotonic

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresDatabaseWrapper
from psycopg_pool import ConnectionPool, PoolTimeout

WAIT_SLICE_SECONDS = 0.25
PROBE_EVERY_SECONDS = 0.5


class _Outage:
    """This process's view of whether the database is reachable (one per process: the pool
    is one per process too)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.down = False
        self.next_probe = 0.0

    def mark_down(self) -> None:
        with self.lock:
            if not self.down:
                self.down, self.next_probe = True, monotonic() + PROBE_EVERY_SECONDS

    def take_probe(self) -> bool:
        """True for the one caller that should try a connection now."""
        with self.lock:
            if not self.down or monotonic() < self.next_probe:
                return False
            self.next_probe = monotonic() + PROBE_EVERY_SECONDS
            return True


outage = _Outage()


class FailFastPool(ConnectionPool):
    """``getconn`` as psycopg's, but it stops waiting once the pool has failed to connect."""

    def _connect_errors(self) -> int:
        return self.get_stats().get("connections_errors", 0)

    def getconn(self, timeout: float | None = None):
        deadline = monotonic() + (self.timeout if timeout is None else timeout)
        errors = self._connect_errors()
        while True:
            try:
                return super().getconn(max(0.0, min(WAIT_SLICE_SECONDS, deadline - monotonic())))
            except PoolTimeout:
                if self._connect_errors() > errors:
                    outage.mark_down()
                    raise PoolTimeout("the pool cannot connect to the database") from None
                if monotonic() >= deadline:
                    raise PoolTimeout(
                        f"couldn't get a connection after {self.timeout:.2f} sec"
                    ) from None


class DatabaseWrapper(PostgresDatabaseWrapper):
    _pool_replace_lock = threading.Lock()

    @property
    def pool(self):
        pool = super().pool
        if pool is not None and type(pool) is ConnectionPool:
            # Django builds the pool (its options, its connection set-up): only the waiting
            # changes, so only the class does.
            pool.__class__ = FailFastPool
        return pool

    def get_new_connection(self, conn_params):
        if self.pool is not None and outage.down:
            if not outage.take_probe():
                raise PoolTimeout("the database was unreachable moments ago")
            self.Database.connect(**conn_params).close()  # raises while still down
            with self._pool_replace_lock:
                if outage.down:
                    # The old pool's reconnection attempts are on a backoff of seconds.
                    self.close_pool()
                    outage.down = False
        return super().get_new_connection(conn_params)
