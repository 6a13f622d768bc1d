"""`manage.py demo` as a newcomer meets it: a real process on a free port, its credentials file,
a staff login with it, and a bet placed by hand at a human-paced table with the file's key."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import UTC, datetime

import pytest
from django.db import connection

from audit.selectors import audit_verification_latest
from conftest import ROOT, _queue_delete, database_url_for, wait_until
from tables.engine import PRESETS
from tables.models import Bet

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
# A line of the web server's access log (uvicorn's format under gunicorn).
ACCESS_LINE = re.compile(r'"(GET|POST) /api/v1/')


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _call(method: str, url: str, key: str, body: dict | None = None):
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": uuid.uuid4().hex}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def _staff_login(urls: dict, login: dict) -> str:
    """Log in on the staff login page as a browser does, the second factor with one of the
    login's backup codes from the credentials file; the admin index page it lands on."""
    username, password = login["username"], login["password"]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(urls["login"], timeout=10).read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode(
        {
            "username": username,
            "password": password,
            "csrfmiddlewaretoken": token,
            "next": "/admin/",
        }
    ).encode()
    request = urllib.request.Request(  # noqa: S310 -- the demo's own http URL
        urls["login"], data=form, headers={"Referer": urls["login"]}
    )
    with opener.open(request, timeout=10) as response:
        assert response.url.rstrip("/").endswith("/admin/mfa"), f"login refused: {response.url}"
        mfa = response.url
    token = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode(
        {"token": login["backup_codes"][0], "csrfmiddlewaretoken": token, "next": "/admin/"}
    ).encode()
    request = urllib.request.Request(mfa, data=form, headers={"Referer": mfa})  # noqa: S310
    with opener.open(request, timeout=10) as response:
        assert response.url.rstrip("/").endswith("/admin"), f"second factor refused: {response.url}"
        return response.read().decode()


class Demo:
    """``manage.py demo`` as a real process on a free port, its output collected; stopped as
    Ctrl-C stops it (SIGINT to the command alone: its servers run in process groups of their
    own, so a terminal's Ctrl-C reaches only it)."""

    def __init__(self, tmp_path, queue: str, *args: str):
        self.port = _free_port()
        metrics = tmp_path / "metrics"
        metrics.mkdir()
        self.env = {
            **os.environ,
            "CASINO_ENV": "development",
            "DATABASE_URL": database_url_for(connection.settings_dict["NAME"]),
            "CELERY_QUEUE": f"{queue}-demo",
            "LEDGER_WEBHOOK_QUEUE": f"{queue}-demo-webhooks",
            "CASINO_DATA_DIR": str(tmp_path),
            # The demo empties its metrics directory at start: its own, not this test
            # process's (whose counters later tests scrape).
            "PROMETHEUS_MULTIPROC_DIR": str(metrics),
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("LOG_LEVEL", None)  # the demo's own default
        command = [sys.executable, "manage.py", "demo", "--port", str(self.port), *args]
        self.process = subprocess.Popen(  # noqa: S603
            command,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(
            target=lambda: self.lines.extend(self.process.stdout), daemon=True
        )
        self.reader.start()

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def after_banner(self) -> list[str]:
        banner = next(i for i, line in enumerate(self.lines) if "Press Ctrl-C" in line)
        return self.lines[banner + 1 :]

    def wait_banner(self) -> None:
        wait_until(
            lambda: "Press Ctrl-C" in self.output or self.process.poll() is not None,
            timeout=120,
            interval=0.5,
        )
        assert self.process.poll() is None, "the demo exited:\n" + self.output

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(40)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.reader.join(10)  # the output to its end
        self.process.stdout.close()
        _queue_delete(self.env["CELERY_QUEUE"])
        _queue_delete(self.env["LEDGER_WEBHOOK_QUEUE"])


def test_the_demo_writes_its_credentials_and_takes_a_bet_at_a_human_paced_table(
    tmp_path, celery_test_queue
):
    demo = Demo(tmp_path, celery_test_queue, "--seconds", "600")
    path = tmp_path / "demo-credentials.json"
    port = demo.port
    try:
        demo.wait_banner()
        printed = demo.output
        assert str(path) in printed and "manage.py demo --credentials" in printed
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        credentials = json.loads(path.read_text())
        urls, key = credentials["urls"], credentials["operator"]["api_key"]
        assert urls["base"] == f"http://127.0.0.1:{port}"
        for name in ("docs", "health_live", "health_ready", "metrics"):
            assert urls[name] in printed, name

        # the audit chain was verified before the demo served anything
        assert "Audit chain: verified" in printed
        latest = audit_verification_latest()
        assert latest is not None and latest["ok"]

        # staff login with the file's password
        pitboss = next(x for x in credentials["logins"] if x["username"] == "pitboss")
        wait_until(lambda: _health(urls["health"]), timeout=60, interval=0.5)
        assert b"casino_http_requests_total" in _metrics(urls, credentials["metrics_token"])
        floor = _staff_login(urls, pitboss)
        assert "pitboss" in floor
        # the floor's audit badge is true from the first minute
        assert "Audit chain verified" in floor and "not verified yet" not in floor

        # the README's walk-through: list tables, create a player, fund them, bet, read the round
        # one human-paced table per preset, with windows a person can act in by hand
        assert {t["code"] for t in credentials["tables"]["human_paced"]} == {
            f"human-{preset}" for preset in PRESETS
        }
        # (the README's own commands bet at the first human-paced table, below)
        human = credentials["tables"]["human_paced"][1]
        status, tables = _call("GET", urls["api"] + "tables/?page_size=100", key)
        assert status == 200
        listed = {t["id"]: t for t in tables["results"]}
        for table in credentials["tables"]["human_paced"]:
            timers = listed[table["id"]]["betting_seconds"], listed[table["id"]]["decision_seconds"]
            assert timers[0] >= 60 and timers[1] >= 30, (table["code"], timers)
        status, player = _call(
            "POST", urls["api"] + "players/", key, {"external_ref": "newcomer-1"}
        )
        assert status == 201, player
        status, wallet = _call(
            "POST", urls["api"] + "wallets/", key, {"player_id": player["id"], "currency": "EUR"}
        )
        assert status == 201, wallet
        status, moved = _call(
            "POST", urls["api"] + f"wallets/{wallet['id']}/deposits/", key, {"amount": 50_000}
        )
        assert status == 201, moved

        round_id = _betting_open(urls, key, human["id"])
        status, table = _call("GET", urls["api"] + f"tables/{human['id']}/", key)
        bet = {"player_id": player["id"], "box": 1, "stake": table["min_bet"]}
        status, placed = _call("POST", urls["api"] + f"rounds/{round_id}/bets/", key, bet)
        assert status == 201, placed
        status, state = _call(
            "GET", urls["api"] + f"rounds/{round_id}/?player_id={player['id']}", key
        )
        assert status == 200 and state["phase"] == "open", "the window is a human one"
        assert Bet.objects.filter(round_id=round_id, player_id=player["id"]).count() == 1

        # the README's "One bet by hand", copy-pasted into bash as a newcomer would (only the
        # port is this demo's), from a folder whose .data is this demo's data folder
        readme_table = credentials["tables"]["human_paced"][0]
        _betting_open(urls, key, readme_table["id"])
        newcomer = tmp_path / "clone"
        newcomer.mkdir()
        (newcomer / ".data").symlink_to(tmp_path)
        steps = _readme_block("**One bet by hand**").replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        walked = subprocess.run(  # noqa: S603
            ["bash", "-e", "-o", "pipefail", "-c", steps],  # noqa: S607
            cwd=newcomer,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert walked.returncode == 0, walked.stdout + walked.stderr
        mine = Bet.objects.get(
            round__table_id=readme_table["id"], player__external_ref__startswith="me-"
        )
        assert f'"id":"{mine.ref}"' in walked.stdout.replace(" ", ""), walked.stdout
        assert '"phase": "open"' in walked.stdout, "step 4 shows the round, still open"

        # the sandbox: its key (in the file and printed) sees only its own tables, which deal
        # themselves (the worker's beat runs the sandbox dealer): rounds open without a device
        sandbox = credentials["sandbox"]
        assert sandbox["api_key"] in printed and len(sandbox["tables"]) == 5
        status, listed = _call("GET", urls["api"] + "tables/?page_size=100", sandbox["api_key"])
        assert status == 200
        assert {t["id"] for t in listed["results"]} == {t["id"] for t in sandbox["tables"]}
        first = sandbox["tables"][0]["id"]

        def sandbox_dealt():
            status, table = _call("GET", urls["api"] + f"tables/{first}/", sandbox["api_key"])
            return status == 200 and table["rounds_played"] >= 2

        wait_until(sandbox_dealt, timeout=90, interval=1)

        # quiet by default: once the players have made a few hundred requests (20 bets and
        # the rest), no line was printed for any of them (no access log, no per-request
        # line of the HTTP client, no per-bet line of the server)
        wait_until(
            lambda: Bet.objects.filter(round__table__code__startswith="demo-").count() >= 20,
            timeout=180,
            interval=1,
        )
        quiet = demo.after_banner()
        per_request = [ACCESS_LINE, re.compile(r'HTTP Request: |"bet accepted"')]
        noisy = [line for line in quiet if any(p.search(line) for p in per_request)]
        assert not noisy, "".join(quiet)
        # (what may remain: warnings, such as a refusal's line when a simulated player's
        # decision races the table's timer, a few a minute at most)
        assert len(quiet) < 40, "".join(quiet)

        # the credentials again, from the file, without starting anything
        again = subprocess.run(
            [sys.executable, "manage.py", "demo", "--credentials"],
            cwd=ROOT,
            env=demo.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert key in again.stdout and pitboss["password"] in again.stdout
    finally:
        demo.stop()
    # Ctrl-C stops the demo, its servers with it, and nothing failed on the way
    assert demo.process.returncode == 0
    assert "Demo stopped." in demo.output
    assert "Traceback" not in demo.output and "round failed" not in demo.output, demo.output
    assert not _health(f"http://127.0.0.1:{port}/api/v1/health/"), "the web server outlived it"


def test_the_access_log_flag_prints_a_line_per_request(tmp_path, celery_test_queue):
    demo = Demo(tmp_path, celery_test_queue, "--access-log", "--no-players", "--seconds", "120")
    try:
        demo.wait_banner()
        url = f"http://127.0.0.1:{demo.port}/api/v1/health/live/?probe=newcomer"
        assert _health(url)
        wait_until(lambda: "/api/v1/health/live/?probe=newcomer" in demo.output, timeout=20)
        [line] = [x for x in demo.lines if "probe=newcomer" in x]
        assert ACCESS_LINE.search(line), line  # the pattern the quiet demo is checked against
    finally:
        demo.stop()
    assert demo.process.returncode == 0 and "Demo stopped." in demo.output


def _betting_open(urls: dict, key: str, table_id: int, *, left: float = 30) -> int:
    """The table's open round once its betting window has ``left`` seconds to run (a person
    who finds less waits for the next round, as the README says)."""

    def open_round():
        status, table = _call("GET", urls["api"] + f"tables/{table_id}/", key)
        if status != 200 or not table["current_round_id"]:
            return None
        status, state = _call("GET", urls["api"] + f"rounds/{table['current_round_id']}/", key)
        if status != 200 or state["phase"] != "open" or not state["betting_closes_at"]:
            return None
        closes = datetime.fromisoformat(state["betting_closes_at"])
        return (closes - datetime.now(UTC)).total_seconds() > left and state["round_id"]

    return wait_until(open_round, timeout=180, interval=1)


def _readme_block(heading: str) -> str:
    """The first ``sh`` code block of the README after ``heading``."""
    readme = (ROOT / "README.md").read_text()
    after = readme[readme.index(heading) :]
    return re.search(r"^```sh\n(.*?)^```$", after, re.MULTILINE | re.DOTALL).group(1)


def _metrics(urls: dict, token: str) -> bytes:
    headers = {"Authorization": f"Bearer {token}"}
    request = urllib.request.Request(urls["metrics"], headers=headers)  # noqa: S310
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return response.read()


def _health(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310
            return response.status == 200
    except OSError:
        return False
