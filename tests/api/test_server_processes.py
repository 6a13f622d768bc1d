"""What holds across real server processes (gunicorn with production settings on the test
database): throttle counters are shared through the cache, and a database connection the
server dropped is replaced before a request uses it; and issue 14's hostile requests, sent
over a socket to the deployed ASGI entry point, are 4xx problems that write nothing."""

import http.client
import uuid
from pathlib import Path

import pytest
from django.db import connection

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api.services import api_key_issue
from ledger.models import Account, Transaction
from tests.factories import funded_player
from tests.faults import helpers as faults
from tests.faults.helpers import Gunicorn, database_url

ROOT = Path(__file__).resolve().parents[2]

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


def _request(port: int, method: str, path: str, raw: str, body: bytes | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Authorization": f"Bearer {raw}", "Idempotency-Key": uuid.uuid4().hex}
        if body is not None:
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        conn.close()


@pytest.fixture
def asgi_server():
    with faults.asgi_server("hostile") as port:
        yield port


def test_issue_14s_hostile_requests_over_http_to_the_production_server(asgi_server, operator):
    """The requests issue 14 found answered 500 against `make demo`, sent over a socket to the
    deployed entry point: each a 4xx problem, and none writes (balance, transactions and every
    audit event but the refusal records unchanged)."""
    _, raw = api_key_issue(actor=Actor.system("tests"), operator=operator, label="hostile")
    wallet = Account.objects.get(player=funded_player(operator=operator))
    deposit = f"/api/v1/wallets/{wallet.pk}/deposits/"

    def writes():
        wallet.refresh_from_db()
        return (
            wallet.balance,
            Transaction.objects.count(),
            AuditEvent.objects.exclude(name="auth.credential_refused").count(),
        )

    before = writes()
    cases = [
        ("POST", deposit, b'{"amount":100,"note":"\\ud800"}', 400),
        ("POST", deposit, b'{"amount":' + b"[" * 5000 + b"]" * 5000 + b"}", 400),
        ("POST", deposit, b'{"note":"' + b"x" * 3_000_000 + b'"}', 413),
        *(("POST", deposit, b'{"amount":%s}' % amount, 400) for amount in NON_INTEGER_AMOUNTS),
        ("GET", "/api/v1/players/?external_ref=%00", None, 400),
        ("GET", "/api/v1/wallets/?currency=%00", None, 400),
        ("GET", "/api/v1/transactions/?kind=%00", None, 400),
        ("GET", "/api/v1/players/?cursor=cD1hYmM=", None, 400),
        ("GET", "/api/v1/transactions/?cursor=cD1hYmM=", None, 400),
        ("GET", "/api/v1/table-accounting/?date_to=9999-12-31", None, 400),
    ]
    answers = [
        (path[:60], body[:40] if body else b"", *_request(asgi_server, method, path, raw, body))
        for method, path, body, _ in cases
    ]
    wrong = [
        answer
        for answer, (*_, expected) in zip(answers, cases, strict=True)
        if answer[2] != expected or answer[3] != "application/problem+json"
    ]
    assert wrong == [], [(p, b, s, t, content[:200]) for p, b, s, t, content in wrong]
    assert writes() == before
    status, _, _ = _request(asgi_server, "POST", deposit, raw, b'{"amount":100}')
    assert status == 201  # the same connection details do move money when the input is right


NON_INTEGER_AMOUNTS = [
    b"100.0",
    b"1e2",
    b'"100"',
    b'" 100 "',
    b'"1_000"',
    b'"\\u0661\\u0660\\u0660"',
    '"\u0661\u0660\u0660"'.encode(),  # the Arabic-Indic digits themselves, in UTF-8
]
