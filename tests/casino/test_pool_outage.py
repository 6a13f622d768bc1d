"""The pooled backend (casino/postgresql/base.py) while the database is unreachable and once it
is back, against a real PostgreSQL and a port nothing listens on. The end-to-end case (the
ASGI server under load, its 503s and recovery) is tests/faults/test_web_faults.py."""

from __future__ import annotations

import socket
import time
import uuid

import pytest
from django.db import connection
from psycopg_pool import PoolTimeout

from casino.postgresql import base as pooled


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wrapper(**overrides) -> pooled.DatabaseWrapper:
    settings_dict = {
        **connection.settings_dict,
        "CONN_MAX_AGE": 0,
        "OPTIONS": {
            **connection.settings_dict["OPTIONS"],
            "pool": {"min_size": 1, "max_size": 2, "timeout": 10},
        },
        **overrides,
    }
    # Pools are kept per alias on the class: a fresh alias is a fresh pool.
    return pooled.DatabaseWrapper(settings_dict, alias=f"pool-test-{uuid.uuid4().hex[:8]}")


@pytest.fixture
def outage(monkeypatch):
    state = pooled._Outage()
    monkeypatch.setattr(pooled, "outage", state)
    return state


def test_a_pool_that_cannot_connect_gives_up_at_once_not_after_its_timeout(outage):
    wrapper = _wrapper(HOST="127.0.0.1", PORT=str(_closed_port()))
    try:
        started = time.monotonic()
        with pytest.raises(PoolTimeout, match="cannot connect"):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert time.monotonic() - started < 5  # psycopg's pool alone waits its 10 s
        assert outage.down
        # While it is down the next request is refused without waiting or connecting.
        started = time.monotonic()
        with pytest.raises(PoolTimeout, match="moments ago"):
            wrapper.get_new_connection(wrapper.get_connection_params())
        assert time.monotonic() - started < 0.1
    finally:
        wrapper.close_pool()


@pytest.mark.django_db
def test_once_the_database_answers_a_probe_replaces_the_pool_and_requests_go_through(outage):
    wrapper = _wrapper()
    try:
        before = wrapper.pool
        outage.mark_down()
        with pytest.raises(PoolTimeout, match="moments ago"):  # not yet time to probe
            wrapper.get_new_connection(wrapper.get_connection_params())
        outage.next_probe = 0.0
        conn = wrapper.get_new_connection(wrapper.get_connection_params())
        try:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        finally:
            wrapper.pool.putconn(conn)
        assert not outage.down
        assert wrapper.pool is not before and isinstance(wrapper.pool, pooled.FailFastPool)
    finally:
        wrapper.close_pool()


@pytest.mark.django_db
def test_a_busy_pool_still_waits_for_a_connection(outage):
    """All connections lent and the database up: the request waits (here until one is given
    back), it is not refused as an outage."""
    wrapper = _wrapper()
    try:
        pool = wrapper.pool
        pool.open()
        held = [pool.getconn(), pool.getconn()]  # max_size 2
        started = time.monotonic()
        with pytest.raises(PoolTimeout, match="after"):
            pool.getconn(timeout=0.6)
        assert time.monotonic() - started >= 0.5
        assert not outage.down
        for conn in held:
            pool.putconn(conn)
    finally:
        wrapper.close_pool()
