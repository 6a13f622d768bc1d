"""The demo's credentials file: logins, the operator's API key and the URLs, readable by the
user only, so they can be read again after the start-up banner has scrolled away
(``manage.py demo --credentials``).

Structured data (JSON): each login is a dict, so a per-user field (an MFA secret, backup
codes) is one more key in ``demo_seed``'s login entries and one more line in ``as_text``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings

FILE_NAME = "demo-credentials.json"


def credentials_path() -> Path:
    return Path(settings.DATA_DIR) / FILE_NAME


def credentials_write(data: dict, path: Path | None = None) -> Path:
    """Write ``data`` as JSON with mode 0600 (atomically: a reader never sees half a file)."""
    path = path or credentials_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        json.dump(data, handle, indent=2)
        handle.write("\n")
    os.replace(temporary, path)
    return path


def credentials_read(path: Path | None = None) -> dict | None:
    path = path or credentials_path()
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return None


def as_text(data: dict) -> str:
    """The credentials as the demo prints them."""
    urls = data["urls"]
    operator = data["operator"]
    api = urls["api"]
    human = data["tables"]["human_paced"]
    lines = [
        f"  Pit console (admin):  {urls['admin']}",
        f"  API docs (Swagger):   {urls['docs']}",
        f"  OpenAPI schema:       {urls['schema']}",
        f"  Health:               {urls['health']}",
        *_operations(data),
        "  Staff logins (username / password / role):",
        *(
            f"    {login['username']:<8} {login['password']:<18} {login['role']}"
            for login in data["logins"]
        ),
        "  Second factor at each login: a code from an authenticator app set up with the",
        "  login's secret (or its otpauth_uri in the file), or a backup code (each works once;",
        "  new ones on every start); 'Remember this device' skips it for a while:",
        *(
            f"    {login['username']:<8} secret {login['totp_secret']}  "
            f"backup codes {' '.join(login['backup_codes'])}"
            for login in data["logins"]
            if "totp_secret" in login
        ),
        f"  Operator '{operator['code']}' API key:",
        f"    {operator['api_key']}",
        f"    try: curl -H 'Authorization: Bearer {operator['api_key']}' {api}me/",
        "  Tables at a human pace (your bets; betting window "
        f"{data['tables']['human_betting_seconds']} s):",
        *(f"    {t['id']:>4}  {t['code']}" for t in human),
        f"  Self-playing tables: {len(data['tables']['self_playing'])} (simulated players)",
        f"    {api}tables/   and a table's live stream {api}tables/<id>/events/",
        *_sandbox(data),
    ]
    return "\n".join(lines)


def _sandbox(data: dict) -> list[str]:
    """The sandbox's key and tables (absent from a file an older demo wrote)."""
    sandbox = data.get("sandbox")
    if not sandbox:
        return []
    return [
        f"  Sandbox (test mode) operator '{sandbox['operator_code']}' API key (sees only the",
        f"  sandbox tables, which deal themselves; wallets in play money, {sandbox['currency']}):",
        f"    {sandbox['api_key']}",
        *(f"    {t['id']:>4}  {t['code']}" for t in sandbox["tables"]),
    ]


def _operations(data: dict) -> list[str]:
    """Liveness, readiness, and the metrics and detailed health with the scraper's token
    (absent from a file an older demo wrote)."""
    urls = data["urls"]
    if "metrics" not in urls:
        return []
    token = data.get("metrics_token", "")
    return [
        f"  Liveness / readiness: {urls['health_live']}  {urls['health_ready']}",
        f"  Metrics (Prometheus): {urls['metrics']}",
        f"  Detailed health:      {urls['health_detail']}",
        f"    both with: curl -H 'Authorization: Bearer {token}' (or an admin login)",
    ]
