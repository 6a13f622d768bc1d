"""`manage.py demo` as a newcomer meets it: a real process on a free port, its credentials file,
a staff login with it, and a bet placed by hand at a human-paced table with the file's key."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from django.db import connection

from audit.selectors import audit_verification_latest
from conftest import ROOT, _queue_delete, database_url_for, wait_until
from tables.models import Bet

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


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


def test_the_demo_writes_its_credentials_and_takes_a_bet_at_a_human_paced_table(
    tmp_path, celery_test_queue
):
    port = _free_port()
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    env = {
        **os.environ,
        "CASINO_ENV": "development",
        "DATABASE_URL": database_url_for(connection.settings_dict["NAME"]),
        "CELERY_QUEUE": f"{celery_test_queue}-demo",
        "LEDGER_WEBHOOK_QUEUE": f"{celery_test_queue}-demo-webhooks",
        "CASINO_DATA_DIR": str(tmp_path),
        # The demo empties its metrics directory at start: its own, not this test process's
        # (whose counters later tests scrape).
        "PROMETHEUS_MULTIPROC_DIR": str(metrics),
        "PYTHONUNBUFFERED": "1",
    }
    command = [sys.executable, "manage.py", "demo", "--port", str(port), "--seconds", "240"]
    demo = subprocess.Popen(  # noqa: S603
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    output: list[str] = []
    threading.Thread(target=lambda: output.extend(demo.stdout), daemon=True).start()
    path = tmp_path / "demo-credentials.json"
    try:
        wait_until(
            lambda: "Press Ctrl-C" in "".join(output) or demo.poll() is not None,
            timeout=120,
            interval=0.5,
        )
        assert demo.poll() is None, "the demo exited:\n" + "".join(output)
        printed = "".join(output)
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
        assert "pitboss" in _staff_login(urls, pitboss)

        # the README's walk-through: list tables, create a player, fund them, bet, read the round
        human = credentials["tables"]["human_paced"][0]
        status, tables = _call("GET", urls["api"] + "tables/", key)
        assert status == 200 and human["id"] in {t["id"] for t in tables["results"]}
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

        def betting_open():
            status, table = _call("GET", urls["api"] + f"tables/{human['id']}/", key)
            return status == 200 and table["current_round_id"]

        round_id = wait_until(betting_open, timeout=60, interval=1)
        status, table = _call("GET", urls["api"] + f"tables/{human['id']}/", key)
        bet = {"player_id": player["id"], "box": 1, "stake": table["min_bet"]}
        status, placed = _call("POST", urls["api"] + f"rounds/{round_id}/bets/", key, bet)
        assert status == 201, placed
        status, state = _call(
            "GET", urls["api"] + f"rounds/{round_id}/?player_id={player['id']}", key
        )
        assert status == 200 and state["phase"] == "open", "the window is a human one"
        assert Bet.objects.filter(round_id=round_id, player_id=player["id"]).count() == 1

        # the access log is quiet by default: no request line in the demo's output
        assert not re.search(r'"(GET|POST) /api/v1/', "".join(output))

        # the credentials again, from the file, without starting anything
        again = subprocess.run(
            [sys.executable, "manage.py", "demo", "--credentials"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert key in again.stdout and pitboss["password"] in again.stdout
    finally:
        demo.terminate()
        try:
            demo.wait(40)
        except subprocess.TimeoutExpired:
            demo.kill()
        _queue_delete(env["CELERY_QUEUE"])
        _queue_delete(env["LEDGER_WEBHOOK_QUEUE"])
    assert "Demo stopped." in "".join(output)


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
