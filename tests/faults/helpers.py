"""Real processes for fault tests: gunicorn with production settings, a severable TCP proxy in
front of PostgreSQL, an HTTP bettor that retries with the same Idempotency-Key, and the money
checks every fault test ends with."""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _host_port() -> tuple[str, int]:
    db = settings.DATABASES["default"]
    options = db.get("OPTIONS") or {}
    host = db.get("HOST") or options.get("host") or "127.0.0.1"
    port = int(db.get("PORT") or options.get("port") or 5432)
    return host, port


def database_target() -> tuple[str, object]:
    """Where the test database listens: ("tcp", (host, port)) or ("unix", socket path)."""
    host, port = _host_port()
    if host.startswith("/"):
        return "unix", f"{host}/.s.PGSQL.{port}"
    return "tcp", (host, port)


def database_url(host: str = "", port: int | None = None) -> str:
    """A URL for the test database, optionally through ``host:port`` (the proxy)."""
    db = settings.DATABASES["default"]
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    name = connection.settings_dict["NAME"]
    if host:
        return f"postgres://{user}{password}@{host}:{port}/{name}"
    real_host, real_port = _host_port()
    if real_host.startswith("/"):
        return f"postgres://{user}{password}@/{name}?host={real_host}&port={real_port}"
    return f"postgres://{user}{password}@{real_host}:{real_port}/{name}"


class Proxy:
    """A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused at
    once) and restored."""

    def __init__(self):
        self.port = free_port()
        self.kind, self.target = database_target()
        self.up = threading.Event()
        self.up.set()
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", self.port))
        self._server.listen(128)
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _upstream(self) -> socket.socket:
        if self.kind == "unix":
            s = socket.socket(socket.AF_UNIX)
            s.connect(self.target)
            return s
        return socket.create_connection(self.target)

    def _accept(self):
        while not self._closed:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()  # the database is "down": refused at once
                continue
            try:
                upstream = self._upstream()
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def cut(self):
        self.up.clear()
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self):
        self.up.set()

    def close(self):
        self._closed = True
        self.cut()
        with contextlib.suppress(OSError):  # wakes the accept() closing alone leaves blocked
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()


class Gunicorn:
    """gunicorn with production settings on the test database: sync workers on casino.wsgi,
    or with ``asgi`` the product's server (``casino/serve.py web``: uvicorn workers on
    casino.asgi, whose database connections come from a pool)."""

    def __init__(
        self, database_url: str, *, workers: int = 2, extra_env: dict | None = None,
        asgi: bool = False,
    ):  # fmt: skip
        self.port = free_port()
        env = {
            **os.environ,
            "CASINO_ENV": "production",
            "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback, no TLS proxy in front
            "SECRET_KEY": "faults-" + uuid.uuid4().hex,
            "AUDIT_SIGNING_KEY": "faults-audit-" + uuid.uuid4().hex,
            "AUDIT_SIGNING_KEYS": base64.b64encode(os.urandom(32)).decode(),
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": os.environ.get("CELERY_BROKER_URL") or "memory://",
            "CELERY_QUEUE": "faults-" + uuid.uuid4().hex[:8],
            "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "ERROR",
            "DB_CONNECT_TIMEOUT": "2",
            "CASINO_DATA_DIR": str(ROOT / ".data" / "faults"),
            **(extra_env or {}),
        }
        if asgi:
            from casino.serve import web_command

            command = web_command(bind=f"127.0.0.1:{self.port}", workers=workers)
        else:
            command = [
                sys.executable, "-m", "gunicorn", "casino.wsgi:application", "--bind",
                f"127.0.0.1:{self.port}", "--workers", str(workers),
            ]  # fmt: skip
        command += ["--timeout", "30", "--graceful-timeout", "2", "--log-level", "error"]
        self.process = subprocess.Popen(  # noqa: S603
            command, cwd=ROOT, env=env, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/api/v1/tables/")
                conn.getresponse().read()
                if len(self.workers()) >= workers:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not start")

    def workers(self) -> list[int]:
        """Pids of the master's worker processes (read from /proc)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                pids.append(int(entry.name))
        return pids

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)


@contextlib.contextmanager
def asgi_server(name: str, **env: str):
    """``Gunicorn(asgi=True)`` with one worker and no broker, as a context; yields its port.
    ``env`` adds to or overrides the process's environment; ``name`` keeps its data folder
    apart."""
    server = Gunicorn(
        database_url(), workers=1, asgi=True,
        extra_env={
            "CELERY_BROKER_URL": "memory://",
            "CASINO_DATA_DIR": str(ROOT / ".data" / name),
            **env,
        },
    )  # fmt: skip
    try:
        yield server.port
    finally:
        server.stop()


def post_bet(port: int, key: str, slot: tuple, idem: str, timeout: float = 30):
    """(status, body dict or None, content type); status 0 when the connection failed."""
    round_id, player_id, box, behind, stake = slot
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(
            "POST", f"/api/v1/rounds/{round_id}/bets/",
            json.dumps({"player_id": player_id, "box": box, "stake": stake, "behind": behind}),
            {"Authorization": f"Bearer {key}", "Content-Type": "application/json",
             "Idempotency-Key": idem},
        )  # fmt: skip
        response = conn.getresponse()
        raw = response.read()
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        return response.status, body, response.getheader("Content-Type", "")
    except (OSError, http.client.HTTPException):
        return 0, None, ""
    finally:
        conn.close()


class Bettor(threading.Thread):
    """Places its slots one after another, recording every attempt (slot, idempotency key,
    status, body, content type, time); an unanswered attempt is retried with the same key."""

    def __init__(self, port: int, key: str, slots: list[tuple], pause: float = 0.0):
        super().__init__(daemon=True)
        self.port, self.key, self.slots, self.pause = port, key, slots, pause
        self.stop = threading.Event()
        self.log: list[tuple[tuple, str, int, dict | None, str, float]] = []

    def run(self):
        for slot in self.slots:
            idem = uuid.uuid4().hex
            while True:  # a 503 or a dropped connection: the same bet again, same key
                if self.stop.is_set():
                    return
                status, body, ctype = post_bet(self.port, self.key, slot, idem)
                self.log.append((slot, idem, status, body, ctype, time.monotonic()))
                if self.pause:
                    time.sleep(self.pause)
                if status not in (0, 503):
                    break
                time.sleep(0.05)


def settle_unknown(port: int, key: str, log: list, *, deadline: float = 60) -> dict[str, int]:
    """Re-send every request whose outcome the client did not know at some attempt (503,
    dropped connection, 500) with the same Idempotency-Key until it gets a definite answer: a key
    accepted on a later attempt is sent again too, and must replay. Returns the final status per
    key."""
    definite = (201, 409, 422)
    final = {idem: status for _, idem, status, *_ in log}  # the log is in time order
    unsure = {idem: slot for slot, idem, status, *_ in log if status not in definite}
    end = time.monotonic() + deadline
    for idem, slot in unsure.items():
        while True:
            final[idem], _, _ = post_bet(port, key, slot, idem)
            if final[idem] in definite or time.monotonic() >= end:
                break
            time.sleep(0.2)
    return final


def money_checks() -> None:
    """No partial money movement: the ledger balances and reconciles; every bet has exactly its
    stake debit and its audit event; no stake debit without a bet; no wallet below zero."""
    from audit.models import AuditEvent
    from ledger.models import Account, Leg, Transaction
    from ledger.selectors import ledger_reconcile
    from tables.models import Bet

    assert ledger_reconcile() == []
    assert not Account.objects.filter(kind="wallet", balance__lt=0).exists()
    staked = dict(Bet.objects.values_list("ref", "staked_total"))
    debited: dict[str, int] = {}
    for ref, amount in Leg.objects.filter(
        kind="stake", amount__lt=0, transaction__kind="stake"
    ).values_list("bet_ref", "amount"):
        debited[ref] = debited.get(ref, 0) - amount
    # Every bet has exactly its stakes debited (bet, doubles); no debit without a bet.
    assert debited == staked, "a bet without its debit or the reverse"
    assert Transaction.objects.filter(kind="stake").count() >= len(staked)
    bet_ids = set(Bet.objects.values_list("pk", flat=True))
    audited = set(
        AuditEvent.objects.filter(bet_id__in=bet_ids, name__contains="bet_placed").values_list(
            "bet_id", flat=True
        )
    )
    assert audited == bet_ids, f"bets without their audit event: {sorted(bet_ids - audited)[:10]}"
