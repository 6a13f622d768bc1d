"""Benchmark: which ASGI server runs the API (README "Web server").

What is measured: 16 clients (threads, persistent connections) reading ``GET
/api/v1/players/{id}/`` (API-key auth, the role check, one indexed query) for ``BENCH_SECONDS``
(8) against each candidate with ``BENCH_WORKERS`` (2) worker processes, production settings,
on a scratch database: gunicorn supervising uvicorn workers (``uvicorn-worker``, what
``casino/serve.py web`` runs), uvicorn's own process manager (``uvicorn --workers``), and, as the
baseline, gunicorn's sync workers (what served the API before the live tier). The candidates
run in turn, twice each (A B C A B C), so a shared machine's load drifts over all of them.

Run: ``python -m bench asgi_server``; it creates and drops the database ``bench_asgi_<port>``.
"""

from __future__ import annotations

import http.client
import os
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

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from bench.report import result  # noqa: E402
from casino.serve import web_command  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
CLIENTS = 16
PORT = int(os.environ.get("BENCH_PORT", "8768"))
DB_NAME = f"bench_asgi_{PORT}"
BIND = f"127.0.0.1:{PORT}"
PY = sys.executable
CANDIDATES = {
    "gunicorn + uvicorn workers": web_command(bind=BIND, workers=WORKERS),
    "uvicorn --workers": [
        PY, "-m", "uvicorn", "casino.asgi:application", "--host", "127.0.0.1", "--port",
        str(PORT), "--workers", str(WORKERS), "--log-level", "warning", "--no-access-log",
    ],
    "gunicorn sync workers (before)": [
        PY, "-m", "gunicorn", "casino.wsgi:application", "--bind", BIND, "--workers",
        str(WORKERS), "--log-level", "warning",
    ],
}  # fmt: skip


def _world() -> tuple[str, int]:
    from casino.actors import Actor
    from casino.api.services import api_key_issue
    from ledger.models import Operator, Player

    actor = Actor.system("bench.asgi_server")
    operator = Operator.objects.create(code="bench-asgi", name="bench")
    _, key = api_key_issue(actor=actor, operator=operator, label="bench")
    player = Player.objects.create(operator=operator, external_ref="p")
    return key, player.pk


def _run(command: list[str], database_url: str, key: str, player: int) -> tuple[float, float]:
    env = {
        **os.environ, "CASINO_ENV": "production", "SECURE_SSL_REDIRECT": "0",
        "SECRET_KEY": "bench-" + uuid.uuid4().hex,
        "AUDIT_SIGNING_KEY": "bench-" + uuid.uuid4().hex, "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": "memory://", "ALLOWED_HOSTS": "127.0.0.1", "LOG_LEVEL": "WARNING",
        "CASINO_DATA_DIR": str(ROOT / ".data" / "bench"), "API_THROTTLE_RATE": "1000000/min",
    }  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)  # noqa: S603
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
                conn.request("GET", "/api/v1/health/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        latencies: list[float] = []
        stop_at = time.monotonic() + 1 + SECONDS
        measure_from = time.monotonic() + 1  # a second of warm-up

        def client():
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
            headers = {"Authorization": f"Bearer {key}"}
            while time.monotonic() < stop_at:
                sent = time.monotonic()
                conn.request("GET", f"/api/v1/players/{player}/", headers=headers)
                response = conn.getresponse()
                response.read()
                assert response.status == 200, response.status
                if sent >= measure_from:
                    latencies.append(time.monotonic() - sent)

        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        latencies.sort()
        return len(latencies) / SECONDS, latencies[int(0.99 * len(latencies))] * 1000
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def main() -> int:
    connection.settings_dict["TEST"]["NAME"] = DB_NAME
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        key, player = _world()
        connection.close()
        url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{DB_NAME}"))
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in CANDIDATES}
        for _ in range(2):
            for name, command in CANDIDATES.items():
                runs[name].append(_run(command, url, key, player))
                print(f"{name}: {runs[name][-1][0]:.0f} req/s, p99 {runs[name][-1][1]:.1f} ms; "
                      f"load average {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
        best = {name: max(r[0] for r in rs) for name, rs in runs.items()}
        p99 = {name: min(r[1] for r in rs) for name, rs in runs.items()}
        baseline = "gunicorn sync workers (before)"
        for name in CANDIDATES:
            if name != baseline:
                result(
                    name=f"authenticated GET, {CLIENTS} clients, {WORKERS} workers: {name} "
                    f"(p99 {p99[name]:.0f} ms vs {p99[baseline]:.0f})",
                    figure=best[name], unit="requests/s",
                    baseline_name=f"{baseline}, requests/s", baseline=best[baseline], target="",
                )  # fmt: skip
        return 0
    finally:
        connection.close()
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
