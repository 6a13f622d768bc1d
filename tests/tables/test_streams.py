"""The table stream under the real ASGI server (gunicorn + uvicorn worker, casino/serve.py web) on
the test database: snapshot on connect, order and exactly-once across a reconnect with
Last-Event-ID, heartbeats, the per-credential cap, and no database connection per subscriber.
Events are written by this process through the services (committed: NOTIFY fires on commit)."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import aiohttp
import pytest
from django.db import connection

from casino.actors import Actor
from casino.api.services import api_key_issue, device_token_issue
from conftest import wait_until
from tables import services
from tables.models import RoundEvent
from tests.factories import OperatorFactory, funded_player, live_table
from tests.faults.helpers import asgi_server

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
ACTOR = Actor.system("tests.streams")
CAP = 3


@pytest.fixture
def server(transactional_db):
    with asgi_server(
        "streams",
        TABLES_STREAM_HEARTBEAT_SECONDS="1",
        TABLES_STREAMS_PER_CREDENTIAL=str(CAP),
    ) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def world():
    table = live_table("british_casino")
    operator = OperatorFactory()
    _, key = api_key_issue(actor=ACTOR, operator=operator, label="streams")
    _, token = device_token_issue(actor=ACTOR, table=table, device_id="reader-1")
    players = [funded_player(10**6, operator=operator) for _ in range(3)]
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    return {"table": table, "key": key, "token": token, "players": players, "round": rnd}


def _bet(world, index: int) -> None:
    player = world["players"][(index // 3 + index) % 3]  # never behind its own box
    services.bet_place(
        actor=ACTOR, round_id=world["round"].pk, player=player, box=index % 3 + 1,
        stake=100, behind=index >= 3,
    )  # fmt: skip


def _stream_ids(table_id: int, after: tuple[int, int]) -> list[str]:
    rows = RoundEvent.objects.filter(table_id=table_id).order_by("txid", "id")
    return [f"{e.txid}-{e.pk}" for e in rows if (e.txid, e.pk) > after]


class Sse:
    """One SSE connection: ``await next_event()`` gives {id, event, data} or {comment}."""

    def __init__(self, response: aiohttp.ClientResponse):
        self.response = response

    async def next_event(self, timeout: float = 10) -> dict:
        event: dict = {}
        async with asyncio.timeout(timeout):
            while True:
                line = (await self.response.content.readline()).decode()
                if not line:
                    raise EOFError("stream ended")
                line = line.rstrip("\n")
                if line.startswith(":"):
                    return {"comment": line[1:].strip()}
                if line == "":
                    if event:
                        return event
                    continue
                name, _, value = line.partition(": ")
                event[name] = json.loads(value) if name == "data" else value


class Client:
    """SSE connections driven from the test's own thread (which keeps the database work): an
    event loop in a thread of its own runs the aiohttp side."""

    def __init__(self, base: str):
        self.base = base
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.session = self._run(self._session())

    async def _session(self):
        return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def open(self, table_id, credential, *, last_id=None, wait=300):
        headers = {"Authorization": f"Bearer {credential}"}
        if last_id:
            headers["Last-Event-ID"] = last_id
        url = f"{self.base}/api/v1/tables/{table_id}/events/?wait={wait}"
        response = self._run(self.session.get(url, headers=headers))
        return response, Sse(response)

    def events(self, sse: Sse, count: int) -> list[dict]:
        """The next ``count`` events (retry lines and heartbeats skipped)."""

        async def read():
            out = []
            while len(out) < count:
                event = await sse.next_event()
                if "id" in event:
                    out.append(event)
            return out

        return self._run(read())

    def next(self, sse: Sse, timeout: float = 10) -> dict:
        return self._run(sse.next_event(timeout))

    def problem(self, response) -> dict:
        return self._run(response.json(content_type=None))

    def close(self, response) -> None:
        self.loop.call_soon_threadsafe(response.close)

    def stop(self) -> None:
        self._run(self.session.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def client(server):
    client = Client(server)
    yield client
    client.stop()


def test_snapshot_then_every_event_in_order_and_exactly_once_across_a_reconnect(client, world):
    table = world["table"]
    _bet(world, 0)
    response, sse = client.open(table.pk, world["key"])
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    [snapshot] = client.events(sse, 1)
    assert snapshot["event"] == "snapshot"
    assert snapshot["id"] == _stream_ids(table.pk, (0, 0))[-1]
    assert snapshot["data"]["round_id"] == world["round"].pk
    assert [b["number"] for b in snapshot["data"]["boxes"]] == [1]
    start = tuple(int(x) for x in snapshot["id"].split("-"))

    for i in (1, 2, 3):
        _bet(world, i)
    first = client.events(sse, 3)
    client.close(response)  # the client drops after three events ...
    _bet(world, 4)
    _bet(world, 5)
    # ... and resumes from the last id it got: the rest follow, nothing twice.
    response, sse = client.open(table.pk, world["key"], last_id=first[-1]["id"])
    rest = client.events(sse, 2)
    _bet(world, 6)
    rest += client.events(sse, 1)
    client.close(response)

    events = first + rest
    assert [e["id"] for e in events] == _stream_ids(table.pk, start)
    assert [e["event"] for e in events] == ["bet_placed"] * 6
    assert [e["data"]["box"] for e in events] == [2, 3, 1, 2, 3, 1]


def test_an_id_past_the_newest_event_starts_from_now_with_a_snapshot(client, world):
    """Resumed from, a forged id past the table's newest event would wait forever."""
    table = world["table"]
    _bet(world, 0)
    response, sse = client.open(table.pk, world["key"], last_id=f"{2**63 - 1}-{2**63 - 1}")
    [snapshot] = client.events(sse, 1)
    assert snapshot["event"] == "snapshot"
    assert snapshot["id"] == _stream_ids(table.pk, (0, 0))[-1]
    _bet(world, 1)
    assert client.events(sse, 1)[0]["event"] == "bet_placed"
    client.close(response)


def test_heartbeats_on_a_quiet_table(client, world):
    response, sse = client.open(world["table"].pk, world["token"])
    assert client.events(sse, 1)[0]["event"] == "snapshot"
    assert client.next(sse, timeout=5) == {"comment": "heartbeat"}
    client.close(response)


def test_a_credential_may_hold_only_so_many_streams(client, world):
    table = world["table"]
    held = [client.open(table.pk, world["token"]) for _ in range(CAP)]
    for _, sse in held:
        client.events(sse, 1)
    refused, _ = client.open(table.pk, world["token"])
    assert refused.status == 429
    assert client.problem(refused)["type"].endswith("/too-many-streams")
    other, _ = client.open(table.pk, world["key"])  # another credential
    assert other.status == 200
    client.close(other)

    client.close(held[0][0])

    def reopened():  # the slot is handed back when the server sees the disconnect
        again, _ = client.open(table.pk, world["token"])
        client.close(again)
        return again.status == 200

    wait_until(reopened, timeout=10, message="the closed stream's slot was not handed back")
    for response, _ in held[1:]:
        client.close(response)


def test_a_device_streams_only_its_own_table(client, world):
    other = live_table("british_casino")
    response, _ = client.open(other.pk, world["token"])
    assert response.status == 404


def _backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_subscribers_hold_no_database_connection(client, world):
    table = world["table"]
    subscribers = 40
    keys = [world["key"]]
    for n in range(subscribers // CAP + 1):
        _, key = api_key_issue(actor=ACTOR, operator=OperatorFactory(), label=f"viewer {n}")
        keys.append(key)
    streams = [client.open(table.pk, keys[0])]
    client.events(streams[0][1], 1)
    one = _backends()
    for n in range(1, subscribers):
        streams.append(client.open(table.pk, keys[n // CAP + 1]))
        client.events(streams[-1][1], 1)
    many = _backends()
    _bet(world, 0)
    received = [client.events(sse, 1)[0]["event"] for _, sse in streams]
    for response, _ in streams:
        client.close(response)
    assert received == ["bet_placed"] * subscribers
    # One subscriber: the hub's two connections and the pool's; forty: the same few.
    assert many <= one + 2, (one, many)
    assert many < 12, many


def test_the_hub_connects_where_django_does_the_url_query_included(settings):
    """The embedded default's URL names its socket directory in the query string
    (``postgresql://postgres:@/casino?host=...``), which Django keeps in OPTIONS: the hub
    connected to libpq's default socket instead, and its streams never started. Found when a
    second test process ran these tests on an embedded server of its own."""
    from psycopg.conninfo import conninfo_to_dict

    from tables.streams import _conninfo

    db = settings.DATABASES["default"]
    settings.DATABASES = {
        "default": {
            **db, "HOST": "", "PORT": "", "NAME": "casino", "USER": "app", "PASSWORD": "",
            "OPTIONS": {
                "host": "/run/casino-pg", "port": 5433, "sslmode": "require",
                "options": "-c statement_timeout=5000", "pool": {"max_size": 4},
                "server_side_binding": False,
            },
        }
    }  # fmt: skip
    assert conninfo_to_dict(_conninfo()) == {
        "host": "/run/casino-pg", "port": "5433", "sslmode": "require",
        "options": "-c statement_timeout=5000", "dbname": "casino", "user": "app",
        "application_name": "casino-table-streams",
    }  # fmt: skip
    settings.DATABASES = {
        "default": {**db, "HOST": "db.internal", "PORT": "6432", "OPTIONS": {"host": "/x"}}
    }
    assert conninfo_to_dict(_conninfo())["host"] == "db.internal"  # HOST wins, as in Django
