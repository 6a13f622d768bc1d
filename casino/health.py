"""What operations need to know about the running system: readiness of its dependencies,
heartbeats of the workers and beat, and the state gauges (settlement backlog, overdue timers,
queue depth, audit seal lag, last verification) read at scrape time.

Heartbeats live in the shared cache (``CACHE_URL``): each worker process writes its own every
``HEALTH_HEARTBEAT_EVERY_S`` from a thread started when it is ready, and the ``casino.heartbeat``
task, which beat schedules, writes beat's (so a stale beat heartbeat means no schedule ran it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Min, Q
from django.utils import timezone

from casino.celery import app as celery_app

HEARTBEAT_KEY = "casino:heartbeat"
HEARTBEAT_FORGET_S = 3600


log = logging.getLogger(__name__)


def _timed(check) -> dict:
    started = time.perf_counter()
    try:
        check()
    except Exception as exc:  # any failure means "not ready"; the kind is reported, not text
        # The reason goes to the log only: an error's text names hosts, ports, roles and
        # database names, and the health endpoints are anonymous.
        name = check.__name__.strip("_").removesuffix("_connect")
        log.warning("health: %s unreachable", name, exc_info=True)
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "latency_ms": round((time.perf_counter() - started) * 1000, 2)}


def readiness_public() -> dict:
    """What an anonymous caller learns: the status and which part is unreachable, nothing
    about why or how fast."""
    report = readiness()
    return {k: ({"ok": v["ok"]} if isinstance(v, dict) else v) for k, v in report.items()}


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _broker_connect() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


@dataclass(frozen=True)
class _BrokerSeen:
    at: float  # _clock() when the connection was tried
    report: dict  # what readiness reports: ok, and the latency or the error's kind


_broker_seen: dict[str, _BrokerSeen] = {}  # per broker URL
_clock = time.monotonic


def _broker() -> dict:
    """The broker answers a new connection; the outcome is remembered per broker URL for
    ``HEALTH_BROKER_CHECK_EVERY_S``. A connection costs an AMQP handshake (~4.5 ms, 2.3 ms of
    CPU here) and a connection's worth of work in the broker: probes every 50 ms from a load
    balancer, one per process and second instead. The report carries the latency measured when
    the connection was made and how long ago that was (``checked_s_ago``)."""
    url = str(celery_app.conf.broker_url)
    now = _clock()
    seen = _broker_seen.get(url)
    if seen is None or now - seen.at >= settings.HEALTH_BROKER_CHECK_EVERY_S:
        seen = _broker_seen[url] = _BrokerSeen(now, _timed(_broker_connect))
    return {**seen.report, "checked_s_ago": round(now - seen.at, 2)}


def _cache() -> None:
    cache.get("casino:ready-probe")


# Set by the web server for a probe it answers from its ReadinessMonitor (casino/asgi.py).
readiness_known: ContextVar[dict | None] = ContextVar("casino_readiness_known", default=None)


def readiness() -> dict:
    """Database, broker and cache: what a web process needs to serve a request. The report the
    server already has for this request (``readiness_known``), else checked now."""
    known = readiness_known.get()
    return known if known is not None else readiness_now()


def readiness_now() -> dict:
    checks = {"database": _timed(_database), "broker": _broker(), "cache": _timed(_cache)}
    return {"status": "ok" if all(c["ok"] for c in checks.values()) else "unavailable", **checks}


class ReadinessMonitor:
    """A web worker's readiness, checked by a thread of its own every ``every_s`` seconds, for
    the probes the worker answers on its event loop (casino/asgi.py). Checked in the probe,
    a probe waited for a request thread, a pool connection and the GIL between its three
    round trips: p99 over 100 ms while the worker served a busy table's streams and bets.

    A report is trusted for ``every_s`` plus ``OVERDUE_S``: a check that hangs (a database
    that accepts connections and never answers) makes the worker unavailable, not stale."""

    OVERDUE_S = 5.0

    def __init__(
        self,
        *,
        every_s: float,
        check: Callable[[], dict] = readiness_now,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._every = every_s
        self._check = check
        self._clock = clock
        self._latest: tuple[float, dict] | None = None  # (when checked, the report)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="casino-readiness", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                report = self._check()
                self._latest = (self._clock(), report)
            except Exception:  # not updated: overdue soon, i.e. unavailable; tried again
                log.exception("health: the readiness check failed")
            finally:
                connection.close()  # back to the pool between checks
            self._stop.wait(self._every)

    def latest(self) -> dict | None:
        """The last report; None until the first check has completed."""
        latest = self._latest
        if latest is None:
            return None
        checked_at, report = latest
        if self._clock() - checked_at <= self._every + self.OVERDUE_S:
            return report
        overdue = {"ok": False, "error": "CheckOverdue"}
        return {"status": "unavailable", **{part: overdue for part in report if part != "status"}}


# --- heartbeats ----------------------------------------------------------------------------


def heartbeat_write(name: str) -> None:
    """Record that ``name`` ("beat" or "worker:<hostname>") is alive now."""
    now = time.time()
    beats = {
        other: at
        for other, at in (cache.get(HEARTBEAT_KEY) or {}).items()
        if now - at < HEARTBEAT_FORGET_S  # a worker scaled away long ago is forgotten
    }
    beats[name] = now
    cache.set(HEARTBEAT_KEY, beats, timeout=None)


def heartbeats() -> dict[str, float]:
    """Seconds since each process last reported alive."""
    now = time.time()
    return {name: round(now - at, 1) for name, at in (cache.get(HEARTBEAT_KEY) or {}).items()}


def heartbeat_thread_start(name: str) -> threading.Thread:
    """Write ``name``'s heartbeat now and then every ``HEALTH_HEARTBEAT_EVERY_S`` (a daemon
    thread of a worker process: it stops with the process, and so does the heartbeat)."""

    def beat() -> None:
        from django.db import close_old_connections

        while True:
            try:
                heartbeat_write(name)
            except Exception:  # the cache is down: readiness says so; try again later
                close_old_connections()
            time.sleep(settings.HEALTH_HEARTBEAT_EVERY_S)

    thread = threading.Thread(target=beat, name="casino-heartbeat", daemon=True)
    thread.start()
    return thread


# --- state gauges --------------------------------------------------------------------------


@dataclass
class State:
    settling: int = 0
    settling_oldest_s: float = 0.0
    timers_overdue: dict[str, int] = field(default_factory=dict)
    queue_depth: dict[str, int] = field(default_factory=dict)
    unsealed: int = 0
    seal_lag_s: float = 0.0
    verification_ok: int = -1
    verification_age_s: float = -1.0
    heartbeats: dict[str, float] = field(default_factory=dict)


def state_read() -> State:
    from audit.models import AuditEvent, AuditSeal
    from audit.selectors import audit_verification_latest
    from tables.models import Round

    now = timezone.now()
    state = State()
    settling = Round.objects.filter(phase=Round.Phase.SETTLING).aggregate(
        oldest=Min("settling_since"), count=Count("pk")
    )
    state.settling = settling["count"]
    if settling["oldest"]:
        state.settling_oldest_s = (now - settling["oldest"]).total_seconds()
    state.timers_overdue = {
        "betting_close": Round.objects.filter(
            phase=Round.Phase.OPEN, betting_closes_at__lt=now
        ).count(),
        "decision": Round.objects.filter(phase__in=Round.LIVE, decision_deadline__lt=now).count(),
    }
    head = AuditSeal.objects.order_by("-seq").values("last_txid", "last_event_id").first()
    unsealed = AuditEvent.objects.all()
    if head:
        unsealed = unsealed.filter(
            Q(txid__gt=head["last_txid"]) | Q(txid=head["last_txid"], id__gt=head["last_event_id"])
        )
    pending = unsealed.aggregate(oldest=Min("occurred_at"), count=Count("pk"))
    state.unsealed = pending["count"]
    if pending["oldest"]:
        state.seal_lag_s = (now - pending["oldest"]).total_seconds()
    latest = audit_verification_latest()
    if latest is not None:
        state.verification_ok = 1 if latest.get("ok") else 0
        state.verification_age_s = (now - latest["recorded_at"]).total_seconds()
    state.queue_depth = queue_depths()
    try:
        state.heartbeats = heartbeats()
    except Exception:
        state.heartbeats = {}
    return state


def queue_depths() -> dict[str, int]:
    """Messages waiting in the main and webhook queues (a passive declare: creates nothing).
    A broker that cannot be reached gives no figure (readiness reports it)."""
    depths = {}
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            channel = conn.default_channel
            for queue in (celery_app.conf.task_default_queue, settings.LEDGER_WEBHOOK_QUEUE):
                try:
                    depths[queue] = channel.queue_declare(queue=queue, passive=True).message_count
                except Exception:  # not declared yet: nothing waits in it
                    depths[queue] = 0
                    channel = conn.channel()
    except Exception:
        return {}
    return depths


def detailed() -> dict:
    """Readiness, heartbeats and lags against their thresholds (protected: staff or token)."""
    state = state_read()
    max_age = settings.HEALTH_HEARTBEAT_MAX_AGE_S
    checks = {
        **{k: v for k, v in readiness().items() if k != "status"},
        "beat": _threshold(state.heartbeats.get("beat"), max_age),
        "workers": {
            name.removeprefix("worker:"): _threshold(age, max_age)
            for name, age in state.heartbeats.items()
            if name.startswith("worker:")
        },
        "seal_lag": _threshold(state.seal_lag_s, settings.HEALTH_SEAL_LAG_MAX_S),
        "settlement_backlog": {
            **_threshold(state.settling_oldest_s, settings.HEALTH_SETTLING_MAX_S),
            "rounds": state.settling,
        },
        "audit_verification": {
            "ok": state.verification_ok == 1,
            "age_s": state.verification_age_s,
        },
        "queue_depth": state.queue_depth,
    }
    workers_ok = bool(checks["workers"]) and all(w["ok"] for w in checks["workers"].values())
    flat = [checks[k]["ok"] for k in ("database", "broker", "cache", "beat", "seal_lag")]
    flat += [workers_ok, checks["settlement_backlog"]["ok"], checks["audit_verification"]["ok"]]
    return {"status": "ok" if all(flat) else "degraded", **checks}


def _threshold(value: float | None, limit: float) -> dict:
    if value is None:
        return {"ok": False, "age_s": None, "max_s": limit}
    return {"ok": value <= limit, "age_s": round(value, 1), "max_s": limit}
