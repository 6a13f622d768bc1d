"""The web server command: gunicorn supervising uvicorn workers serving ``casino.asgi``.

Used by ``make demo``, the benchmarks and the live-server tests, so all of them serve the way
production does. Why this server (measured): README "Web server".
"""

from __future__ import annotations

import sys


def server_command(*, bind: str, workers: int = 2, log_level: str = "warning") -> list[str]:
    return [
        sys.executable, "-m", "gunicorn", "casino.asgi:application",
        "--worker-class", "uvicorn_worker.UvicornWorker",
        "--bind", bind, "--workers", str(workers), "--log-level", log_level,
        # A stream ends on its own (TABLES_STREAM_SECONDS); a restart waits that long at most.
        "--graceful-timeout", "5",
    ]  # fmt: skip
