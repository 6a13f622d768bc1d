"""CPU time of the PostgreSQL backends serving one database, read from ``/proc``.

``pg_stat_statements`` needs ``shared_preload_libraries`` (a server restart); process CPU needs
nothing: a backend's process title names its database (``postgres: ... <user> <db> <host>``),
and ``/proc/<pid>/stat`` has its user and system time. A sampler thread reads them while the
load runs, so the CPU of backends that exit before the end (pgbench's) is counted up to their
last sample (every ``interval`` seconds). Linux only; the server must run on this machine.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


def _backends(database: str) -> dict[int, float]:
    """pid -> CPU seconds so far, of every backend whose title names ``database``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            if not title.startswith("postgres: ") or f" {database} " not in title:
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / _TICK  # utime + stime
    return found


class BackendCpu:
    """``with BackendCpu(db) as cpu: ...`` then ``cpu.seconds``: the CPU the database's
    backends used inside the block (backends started inside it: all of theirs)."""

    def __init__(self, database: str, interval: float = 0.2):
        self.database, self.interval = database, interval
        self.seconds = 0.0
        self._stop = threading.Event()

    def __enter__(self) -> BackendCpu:
        self._first = _backends(self.database)
        self._last = dict(self._first)
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(self.interval):
            self._last.update(_backends(self.database))

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._last.update(_backends(self.database))
        self.seconds = sum(cpu - self._first.get(pid, 0.0) for pid, cpu in self._last.items())
