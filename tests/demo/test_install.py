"""The demo's install is the runtime requirements only: the game maths stack (numba, llvmlite,
numpy) is an optional extra that neither the web process nor the worker's start-up imports."""

import json
import os
import subprocess
import sys

from django.conf import settings

from conftest import ROOT

MATHS = {"numpy", "numba", "llvmlite"}
PROBE = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
import casino.wsgi, casino.asgi, casino.urls
from django.urls import get_resolver
get_resolver().reverse_dict  # every URL conf and view module of the project
from casino.celery import app
app.loader.import_default_modules()  # every task module, as the worker loads them
import casino.demo.management.commands.demo
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules})))
"""


def _requirements(name: str) -> set[str]:
    lines = (ROOT / name).read_text().splitlines()
    return {
        line.split("==")[0].split("[")[0].lower()
        for line in lines
        if line and not line.startswith(("#", "-r"))
    }


def test_the_web_process_and_the_worker_start_without_the_game_maths():
    probe = subprocess.run(  # noqa: S603
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**os.environ, "CASINO_ENV": os.environ.get("CASINO_ENV", "test")},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = set(json.loads(probe.stdout.strip().splitlines()[-1]))
    assert "django" in loaded and "rest_framework" in loaded, "the probe loaded the project"
    assert not loaded & MATHS


def test_the_game_maths_is_an_extra_the_tests_install_and_the_demo_does_not():
    assert not _requirements("requirements.txt") & MATHS
    assert _requirements("requirements-maths.txt") >= MATHS
    assert "-r requirements-maths.txt" in (ROOT / "requirements-dev.txt").read_text()


def test_make_stop_says_only_what_it_did(tmp_path):
    """`make stop` (python -m casino.embedded stop) without a login session's XDG_RUNTIME_DIR,
    as in containers and CI: no runtime-directory warning from the wheel's platformdirs."""
    (tmp_path / "pg").mkdir()
    (tmp_path / "pg" / "PG_VERSION").write_text("18\n")
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    stop = subprocess.run(
        [sys.executable, "-m", "casino.embedded", "stop"],
        cwd=ROOT,
        env={**env, "CASINO_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert stop.stdout == "embedded PostgreSQL was not running\n"
    assert stop.stderr == ""


def test_the_serverless_broker_connects_without_a_warning(tmp_path):
    """With no CELERY_BROKER_URL (the demo's default) every process that publishes or consumes
    connects to kombu's filesystem transport; no "No hostname was supplied" warning from any."""
    probe = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from casino.celery import app\n"
        "with app.connection_for_write() as connection:\n"
        "    connection.ensure_connection(max_retries=1)\n"
        "    print(settings.CELERY_BROKER_URL, connection.as_uri())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    run = subprocess.run(  # noqa: S603
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={
            **env,
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "CASINO_ENV": "development",
            "CASINO_DATA_DIR": str(tmp_path),
            # This run's database: without one (a machine with only Python) the probe would
            # start an embedded server of its own in tmp_path and leave it running.
            "DATABASE_URL": settings.DATABASE_URL,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert run.stdout.startswith("filesystem://"), run.stdout
    assert "hostname" not in run.stdout + run.stderr, run.stdout + run.stderr
