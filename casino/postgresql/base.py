"""Django's PostgreSQL backend, with a connection pool that answers at once while the database
is unreachable (``DATABASES`` uses it when ``DB_POOL`` is set: the ASGI server).

psycopg's pool makes a request wait up to ``DB_POOL_TIMEOUT`` (10 s) for a connection. That is
right when every connection is busy, and wrong when the database is down: each request then
held a thread for the whole timeout before its 503, the requests behind it piled up as
threads, and after the database came back the pool reconnected on its own backoff (1, 2, 4,
8 s...). Here, when a pooled connection breaks (in a request, or found broken when lent) or a
request's wait for one times out, a connection of the process's own tells whether the database
is down. If it is:

- the pool is closed, so the requests waiting for it get their 503 now, and requests are
  refused at once, except that one every ``PROBE_EVERY_SECONDS`` tries a connection of its
  own;
- when a probe connects, a new pool (which connects straight away) serves requests again.

A busy pool is waited for as before, in psycopg's order of arrival.
"""

from __future__ import annotations

import threading
from time import monotonic

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresDatabaseWrapper
from psycopg_pool import ConnectionPool, PoolTimeout

PROBE_EVERY_SECONDS = 0.5


class _Outage:
    """This process's view of whether a database is reachable (one per process and alias, as
    the pool is)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.down = False
        self.next_probe = 0.0

    def mark_down(self) -> bool:
        """True for the caller that marked it (the others found it marked)."""
        with self.lock:
            if self.down:
                return False
            self.down, self.next_probe = True, monotonic() + PROBE_EVERY_SECONDS
            return True

    def take_probe(self) -> bool:
        """True for the one caller that should try a connection now."""
        with self.lock:
            if not self.down or monotonic() < self.next_probe:
                return False
            self.next_probe = monotonic() + PROBE_EVERY_SECONDS
            return True


_outages: dict[str, _Outage] = {}


def outage_for(alias: str) -> _Outage:
    found = _outages.get(alias)  # every request asks: no new object but the first
    return found if found is not None else _outages.setdefault(alias, _Outage())


def _server_full(exc: Exception) -> bool:
    """A server at max_connections answers: the pool's connections still work, and closing
    them would hand their slots to others."""
    return getattr(exc, "sqlstate", None) == "53300" or "too many clients" in str(exc)


def _unreachable() -> PoolTimeout:
    return PoolTimeout("the database is unreachable")


class FailFastPool(ConnectionPool):
    """psycopg's pool, told when a connection it lends fails its check, and lending nothing
    once the database is known to be down. (It overrides two of psycopg_pool 3.3's internal
    methods; tests/casino/test_pool_outage.py covers both.)"""

    # Set by DatabaseWrapper.pool: its alias's outage, and what to call when a connection
    # fails its check.
    outage = _Outage()
    on_broken = None

    def _check_connection(self, conn) -> None:
        try:
            super()._check_connection(conn)
        except Exception:
            if self.on_broken is not None:
                self.on_broken()
            raise

    def _getconn_unchecked(self, timeout: float):
        if self.outage.down:  # (the caller's own check found it down: no wait for a closed pool)
            raise _unreachable()
        return super()._getconn_unchecked(timeout)


class DatabaseWrapper(PostgresDatabaseWrapper):
    _pool_close_lock = threading.Lock()

    @property
    def pool(self):
        pool = super().pool
        if pool is not None and type(pool) is ConnectionPool:
            # Django builds the pool (its options, its connection set-up): only the lending
            # changes, so only the class does.
            pool.__class__ = FailFastPool
            pool.outage, pool.on_broken = self.outage, self._down_if_unreachable
        return pool

    @property
    def outage(self) -> _Outage:
        return outage_for(self.alias)

    def get_new_connection(self, conn_params):
        if self.pool is None:
            return super().get_new_connection(conn_params)
        outage = self.outage
        if outage.down:
            if not outage.take_probe():
                raise _unreachable()
            self.Database.connect(**conn_params).close()  # raises while it is still down
            outage.down = False  # the pool closed when it went down: the next one is new
        try:
            return super().get_new_connection(conn_params)
        except PoolTimeout:
            self._down_if_unreachable()
            raise

    def _close(self):
        broken = self.connection is not None and self.connection.broken
        super()._close()
        if broken and self.pool is not None:
            self._down_if_unreachable()

    def _down_if_unreachable(self) -> None:
        """A pooled connection broke, or a wait for one timed out: a connection of our own says
        whether the database is down; if it is, close the pool (its waiting requests get their
        503 now)."""
        if self.outage.down:
            return
        try:
            self.Database.connect(**self.get_connection_params()).close()
            return
        except Exception as exc:  # refused, timed out, authentication: no connection to be had
            if _server_full(exc) or not self.outage.mark_down():
                return
        with self._pool_close_lock:
            if self.alias in self._connection_pools:
                self.close_pool()
