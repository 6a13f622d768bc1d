"""The pooled backend (casino/postgresql/base.py) while the database is unreachable and once it
is back, against a real PostgreSQL and a port nothing listens on. The end-to-end case (the
ASGI server under load, its 503s and recovery) is tests/faults/test_web_faults.py."""

from __future__ import annotations

import contextlib
import socket
import time
import uuid

import pytest
from django.db import OperationalError as DjangoOperationalError
from django.db import connection
from psycopg import OperationalError
from psycopg_pool import PoolTimeout

from casino.postgresql import base as pooled


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _pooled(timeout: float = 10, **overrides):
    """A pooled wrapper of its own (pools are kept per alias on the class: a fresh alias is a
    fresh pool and a fresh outage state), its pool closed afterwards."""
    settings_dict = {
        **connection.settings_dict,
        "CONN_MAX_AGE": 0,
        "OPTIONS": {
            **connection.settings_dict["OPTIONS"],
            "pool": {"min_size": 1, "max_size": 2, "timeout": timeout},
        },
        **overrides,
    }
    wrapper = pooled.DatabaseWrapper(settings_dict, alias=f"pool-test-{uuid.uuid4().hex[:8]}")
    try:
        yield wrapper
    finally:
        wrapper.close_pool()


def test_once_the_pool_cannot_connect_requests_are_refused_at_once():
    with _pooled(timeout=1, HOST="127.0.0.1", PORT=str(_closed_port())) as wrapper:
        outage = wrapper.outage
        with pytest.raises(PoolTimeout):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert outage.down  # its own connection was refused too
        assert wrapper.alias not in wrapper._connection_pools  # closed: its waiters answered
        started = time.monotonic()
        with pytest.raises(PoolTimeout, match="unreachable"):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert time.monotonic() - started < 0.1  # no wait, no connection attempt
        outage.next_probe = 0.0  # a probe's turn: it fails as well, quickly
        with pytest.raises(OperationalError):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert outage.down


@pytest.mark.django_db
def test_once_a_probe_connects_requests_go_through_again():
    with _pooled() as wrapper:
        outage = wrapper.outage
        outage.mark_down()
        with pytest.raises(PoolTimeout, match="unreachable"):  # not yet time to probe
            wrapper.get_new_connection(wrapper.get_connection_params())
        outage.next_probe = 0.0
        conn = wrapper.get_new_connection(wrapper.get_connection_params())
        try:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        finally:
            wrapper.pool.putconn(conn)
        assert not outage.down
        assert isinstance(wrapper.pool, pooled.FailFastPool)


@pytest.mark.django_db
def test_a_connection_that_breaks_while_the_database_answers_is_no_outage():
    with _pooled() as wrapper:
        outage = wrapper.outage
        wrapper.connect()
        pid = wrapper.connection.info.backend_pid
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        with pytest.raises(DjangoOperationalError), wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
        assert wrapper.connection.broken
        wrapper.close()  # back to the pool: broken, so a connection of its own is tried
        assert not outage.down
        assert wrapper.alias in wrapper._connection_pools
        wrapper.connect()
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
        wrapper.close()


@pytest.mark.django_db
def test_a_busy_pool_still_waits_for_a_connection():
    """All connections lent and the database up: the request waits (here until its timeout),
    it is not refused as an outage, and the pool stays."""
    with _pooled(timeout=0.6) as wrapper:
        outage = wrapper.outage
        pool = wrapper.pool
        pool.open()
        held = [pool.getconn(), pool.getconn()]  # max_size 2
        started = time.monotonic()
        with pytest.raises(PoolTimeout):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert time.monotonic() - started >= 0.5
        assert not outage.down and wrapper.alias in wrapper._connection_pools
        for conn in held:
            pool.putconn(conn)


@pytest.mark.django_db
def test_a_server_at_max_connections_is_no_outage(monkeypatch):
    """The pool's wait timed out and a new connection is refused for want of slots: the
    pool's own connections still work, so it is neither closed nor are requests refused."""
    with _pooled(timeout=0.3) as wrapper:
        outage = wrapper.outage
        pool = wrapper.pool
        pool.open()
        held = [pool.getconn(), pool.getconn()]  # max_size 2: the next wait times out

        def full(**params):
            raise OperationalError("connection failed: FATAL:  sorry, too many clients already")

        monkeypatch.setattr(wrapper.Database, "connect", full)
        with pytest.raises(PoolTimeout):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert not outage.down and wrapper.alias in wrapper._connection_pools
        for conn in held:
            pool.putconn(conn)
