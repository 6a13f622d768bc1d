"""The deployment's entry points (``python -m casino.serve …``, as the Dockerfile and
compose.yaml run them) as real processes on the test database and broker: migrate, a web
server that becomes ready, a worker and beat whose task round trip shows in the heartbeats."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import tempfile
import time

import pytest
from django.db import connection

from casino.health import heartbeats
from conftest import ROOT, database_url_for, wait_until
from tests.faults.helpers import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def _serve(*args: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "casino.serve", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _get(port: int, path: str, token: str = "") -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    except OSError:
        return 0, {}
    finally:
        conn.close()


def _stop(process: subprocess.Popen) -> str:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.stdout.read() if process.stdout else ""


def test_migrate_web_worker_and_beat_entry_points(celery_queues):
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for(connection.settings_dict["NAME"]),
        "CELERY_QUEUE": celery_queues.main,
        "LEDGER_WEBHOOK_QUEUE": celery_queues.webhooks,
        "METRICS_TOKEN": "scraper",
        "HEALTH_HEARTBEAT_EVERY_S": "1",
        "PYTHONUNBUFFERED": "1",
    }
    migrate = subprocess.run(
        [sys.executable, "-m", "casino.serve", "migrate"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr

    port = free_port()
    schedule = os.path.join(tempfile.mkdtemp(), "beat-schedule")
    processes = {
        "web": _serve("web", "--bind", f"127.0.0.1:{port}", "--workers", "1", env=env),
        "worker": _serve("worker", "--pool=solo", "--loglevel=INFO", env=env),
        "beat": _serve("beat", "--schedule", schedule, "--loglevel=INFO", env=env),
    }
    try:
        wait_until(
            lambda: _get(port, "/api/v1/health/ready/")[0] == 200, timeout=60, interval=0.5,
            message="the web entry point never became ready",
        )  # fmt: skip
        assert _get(port, "/api/v1/health/live/") == (200, {"status": "ok"})
        worker = f"worker:{celery_queues.main}@"
        started = time.time()
        # Beat schedules casino.heartbeat every second; the worker runs it (the round trip),
        # and its own heartbeat thread reports the worker.
        wait_until(
            lambda: heartbeats().get("beat", 1e9) < time.time() - started
            and any(name.startswith(worker) for name in heartbeats()),
            timeout=60, interval=0.5, message="no heartbeat from beat through the worker",
        )  # fmt: skip
        _, detail = _get(port, "/api/v1/health/detail/", token="scraper")
        assert detail["beat"]["ok"] is True
        assert any(name.startswith(celery_queues.main) for name in detail["workers"])
        assert _get(port, "/api/v1/health/detail/")[0] == 401
    finally:
        outputs = {name: _stop(process) for name, process in processes.items()}
    assert '"event"' in outputs["worker"], outputs["worker"][-2000:]  # JSON log lines


def test_the_deployment_files_start_only_the_tested_entry_points():
    """compose.yaml's app services and the Dockerfile run ``python -m casino.serve <name>``
    with names the entry point knows (the ones the test above starts)."""
    import yaml

    from casino.serve import command

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    names = {
        service["command"][0]
        for service in compose["services"].values()
        if service.get("image", "").startswith("casino")
    }
    assert names == {"migrate", "web", "worker", "webhooks", "beat"}
    for name in names:
        assert command(name, [])  # known to casino.serve (an unknown name exits)
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["python", "-m", "casino.serve"]' in dockerfile
    # The web image goes without the game maths; only the worker target installs them.
    web_stage = dockerfile.split("FROM web AS worker")[0]
    assert "pip install -r requirements.txt" in web_stage
    assert "pip install -r requirements-maths.txt" not in web_stage
    assert compose["services"]["worker"]["build"]["target"] == "worker"
    assert compose["x-app"]["build"]["target"] == "web"
