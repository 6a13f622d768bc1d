"""Reachability of the parts a request depends on, for load balancers and the pit."""

import time

from django.db import connection

from casino.celery import app as celery_app


def _timed(check) -> dict:
    started = time.perf_counter()
    try:
        check()
    except Exception as exc:  # any failure means "unreachable"; the reason is reported
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {"ok": True, "latency_ms": round((time.perf_counter() - started) * 1000, 2)}


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


def health_report() -> dict:
    report = {"database": _timed(_database), "broker": _timed(_broker)}
    report["status"] = "ok" if all(part["ok"] for part in report.values()) else "unavailable"
    return report
