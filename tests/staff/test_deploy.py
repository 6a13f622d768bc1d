"""Production settings pass ``manage.py check --deploy`` with no warning, and the console and
the API docs answer with a Content-Security-Policy their pages work under."""

from __future__ import annotations

import base64
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from django.conf import settings
from django.test import Client

from tests.factories import UserFactory
from tests.helpers.staff import login_verified

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct-horse-battery"  # tests/factories.py


def _check_deploy(tmp_path, **overrides) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CASINO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": settings.DATABASE_URL,
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "AUDIT_SIGNING_KEYS": base64.b64encode(secrets.token_bytes(32)).decode(),
        "LEDGER_WEBHOOK_SECRET_KEYS": Fernet.generate_key().decode(),
        "ALLOWED_HOSTS": "casino.example",
        "STATIC_ROOT": str(tmp_path / "static"),
        **overrides,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy_without_warnings(tmp_path):
    result = _check_deploy(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_would_name_a_missing_control(tmp_path):
    result = _check_deploy(tmp_path, SECURE_HSTS_SECONDS="0", SECURE_SSL_REDIRECT="0")
    assert result.returncode != 0
    assert "security.W004" in result.stderr and "security.W008" in result.stderr


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>", re.S)
INLINE_STYLE = re.compile(r"<style([^>]*)>", re.S)


def _inline_code_without_nonce(html: str, nonce: str) -> list[str]:
    bad = [
        m.group(0)
        for m in [*INLINE_SCRIPT.finditer(html), *INLINE_STYLE.finditer(html)]
        if f'nonce="{nonce}"' not in m.group(1)
    ]
    return bad + re.findall(r"<[^>]+\sstyle=\"[^\"]*\"", html) + re.findall(r"\son\w+=\"", html)


@pytest.mark.django_db
def test_console_pages_and_api_docs_need_no_inline_code_beyond_the_nonce():
    from tests.console.helpers import round_with_bet

    table, rnd, _ = round_with_bet()
    client = Client()
    login_verified(client, UserFactory(is_superuser=True))
    pages = [
        "/admin/",
        "/admin/tables/table/floor/",
        f"/admin/tables/round/{rnd.pk}/change/",
        f"/admin/tables/table/{table.pk}/change/",
        "/admin/audit/auditevent/",
        "/admin/auth/user/add/",
        "/admin/audit/reports/",
        "/admin/audit/reports/table-shift/",
        f"/admin/audit/replay/{rnd.pk}/",
        "/api/v1/docs/",
    ]
    newcomer = Client()
    newcomer.post(
        "/admin/login/",
        {"username": UserFactory(username="newcomer").username, "password": PASSWORD},
    )
    offenders = {}
    for who, url in [
        (Client(), "/admin/login/"),
        (newcomer, "/admin/mfa/enrol/"),
        *((client, url) for url in pages),
    ]:
        response = who.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "object-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy
        nonce = re.search(r"'nonce-([^']+)'", policy)
        bad = _inline_code_without_nonce(response.content.decode(), nonce and nonce.group(1))
        if bad:
            offenders[url] = bad
    assert offenders == {}
