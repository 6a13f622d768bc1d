"""gunicorn's configuration for ``python -m casino.serve web`` (command-line options win)."""

import os

bind = os.environ.get("WEB_BIND") or f"0.0.0.0:{os.environ.get('PORT') or '8000'}"
workers = int(os.environ.get("WEB_WORKERS") or "2")
# gunicorn supervises uvicorn workers serving casino.asgi: streams hold no worker (README
# "Web server" says why this server, measured).
worker_class = "uvicorn_worker.UvicornWorker"
# A stream ends on its own (TABLES_STREAM_SECONDS); a restart waits that long at most.
graceful_timeout = 5
# Logs are JSON lines from the application (casino/logs.py); gunicorn's own go to stderr.
accesslog = None
errorlog = "-"


def post_worker_init(worker):
    """A web worker has loaded the application: its objects leave the cyclic collector's
    walks, and collections come less often (casino/gcpause.py says why, with the figures)."""
    from casino.gcpause import web_worker_gc_tune

    web_worker_gc_tune()


def child_exit(server, worker):
    """A web worker exited: its live gauges (stream subscribers) no longer count."""
    from casino.metrics import process_exited

    process_exited(worker.pid)
