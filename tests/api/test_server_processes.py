"""What holds across real server processes (gunicorn with production settings on the test
database): throttle counters are shared through the cache, and a database connection the
server dropped is replaced before a request uses it."""

import http.client

import pytest
from django.db import connection

from casino.actors import Actor
from casino.api.services import api_key_issue
from tests.faults.helpers import Gunicorn, database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _get(port: int, raw: str, path: str = "/api/v1/me/") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {raw}"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_the_throttle_is_shared_by_two_server_processes(operator):
    """6 requests a minute for one API key: whichever process serves the 7th refuses it."""
    _, raw = api_key_issue(actor=Actor.system("tests"), operator=operator, label="shared")
    servers = []
    try:
        for _ in range(2):
            servers.append(
                Gunicorn(database_url(), workers=1, extra_env={"API_THROTTLE_RATE": "6/min"})
            )
        statuses = [_get(servers[i % 2].port, raw) for i in range(9)]
    finally:
        for server in servers:
            server.stop()
    assert statuses == [200] * 6 + [429] * 3


def test_a_dropped_database_connection_does_not_fail_the_next_request(operator):
    _, raw = api_key_issue(actor=Actor.system("tests"), operator=operator, label="health")
    server = Gunicorn(database_url(), workers=1)
    try:
        assert _get(server.port, raw) == 200  # the worker now holds a persistent connection
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert cursor.fetchone()[0] >= 1
        assert [_get(server.port, raw) for _ in range(3)] == [200, 200, 200]
    finally:
        server.stop()
