"""A scratch database for migration tests: migrated forward to a past state, filled through
that state's models, then migrated forward to every app's leaf.

Never backwards: the partitioned tables' migrations (audit 0007, tables 0011, ledger 0007)
are irreversible, so a test that migrated the test database back past one of them could not
return. Each step runs in a process of its own on the scratch database (``manage.py migrate``,
or a snippet with the historical models of a migration state), as a deployment would: data
migrations write through the default connection, which there is the scratch database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connection

from conftest import ROOT, database_url_for

_PREAMBLE = """
import json, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup()
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
def historical_apps(targets):
    return MigrationExecutor(connection).loader.project_state(targets).apps
"""


class Scratch:
    def __init__(self, name: str):
        self.name = name
        self.url = database_url_for(name)
        self.env = {**os.environ, "DATABASE_URL": self.url, "PYTHONUNBUFFERED": "1"}

    def _run(self, args: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run(  # noqa: S603
            [sys.executable, *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    def migrate(self, targets: list[tuple[str, str]] | None = None) -> None:
        """Forward to ``targets``, by the migration executor (no post-migrate signals: a
        partial schema has no complete content types), or without targets everything, by
        ``manage.py migrate`` as a deployment runs it; fails the test on an error."""
        if targets is not None:
            self.run(f"MigrationExecutor(connection).migrate({targets!r})\nprint('null')")
            return
        done = self._run(["manage.py", "migrate", "--noinput", "-v", "0"])
        assert done.returncode == 0, done.stdout + done.stderr

    def unapplied(self) -> bool:
        return self._run(["manage.py", "migrate", "--check"]).returncode != 0

    def run(self, code: str) -> Any:
        """Run ``code`` (``historical_apps(targets)`` at hand) on the scratch database; it
        ends by printing one JSON value, returned here."""
        done = self._run(["-c", _PREAMBLE + textwrap.dedent(code)])
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def connect(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True)


@contextmanager
def scratch_database() -> Iterator[Scratch]:
    name = f"{connection.settings_dict['NAME']}_scratch"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        yield Scratch(name)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
