"""Reachability of the parts a request depends on, for load balancers and the pit."""

import logging
import time

from django.db import connection

from casino.celery import app as celery_app

log = logging.getLogger(__name__)


def _timed(name: str, check) -> dict:
    started = time.perf_counter()
    try:
        check()
    except Exception:  # any failure means "unreachable"
        # The reason goes to the log only: the endpoint is anonymous, and an error's text
        # names hosts, ports, roles and database names.
        log.warning("health: %s unreachable", name, exc_info=True)
        return {"ok": False, "error": "unreachable"}
    return {"ok": True, "latency_ms": round((time.perf_counter() - started) * 1000, 2)}


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


def health_report() -> dict:
    report = {"database": _timed("database", _database), "broker": _timed("broker", _broker)}
    report["status"] = "ok" if all(part["ok"] for part in report.values()) else "unavailable"
    return report
