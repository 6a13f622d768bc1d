"""Prometheus metrics (prometheus_client), scraped at ``/api/v1/metrics/``.

Two kinds:
- counters and histograms the processes update as things happen (HTTP requests, bets, task
  lateness, settlement latency, webhook attempts, stream subscribers). Web workers and Celery
  workers are separate processes, so these use prometheus_client's multiprocess mode: each
  process writes its values to files in ``PROMETHEUS_MULTIPROC_DIR`` (set by the settings
  before this module is imported) and a scrape sums them. The web and worker processes of a
  node share that directory (compose: the ``metrics`` volume).
- gauges read from PostgreSQL and the broker at scrape time (``StateCollector``): the
  settlement backlog, overdue timers, Celery queue depth, audit seal lag and the last
  verification. They are the same whichever process answers, and cost nothing between scrapes.

Hot-path cost: one dict lookup and an mmap write per update; no database or network work.
"""

from __future__ import annotations

import json
import os
import time
from datetime import timedelta

import structlog
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

HTTP_REQUESTS = Counter(
    "casino_http_requests_total",
    "HTTP requests by route (the URL pattern), method and status.",
    ["route", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "casino_http_request_duration_seconds",
    "HTTP request latency by route (the URL pattern) and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
BETS = Counter(
    "casino_bets_total",
    "Bets placed through the API: accepted, or refused with the problem code as the reason.",
    ["outcome", "reason"],
)
SETTLEMENT_LATENCY = Histogram(
    "casino_settlement_latency_seconds",
    "From a round entering settling to its settlement committed.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
TIMERS_FIRED = Counter("casino_timers_fired_total", "Timer tasks (ETA) run, by task.", ["task"])
TIMER_LATENESS = Histogram(
    "casino_timer_lateness_seconds",
    "How late a timer task (ETA) ran after it was due, by task.",
    ["task"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60),
)
TIMERS_LATE = Counter(
    "casino_timers_late_total",
    "Timer tasks that ran more than TIMER_LATE_SECONDS after they were due, by task.",
    ["task"],
)
WEBHOOK_ATTEMPTS = Counter(
    "casino_webhook_attempts_total",
    "Operator webhook attempts by operator and result (ok or failed).",
    ["operator", "result"],
)
STREAM_SUBSCRIBERS = Gauge(
    "casino_stream_subscribers",
    "Open live-stream (Server-Sent Events) connections, all processes summed.",
    multiprocess_mode="livesum",
)

log = structlog.stdlib.get_logger("casino.bets")

# A timer that runs this much after its due time counts as late.
TIMER_LATE_SECONDS = 2.0
TIMER_TASKS = frozenset({"tables.round_betting_close_due", "tables.round_timeout_apply"})
BET_ROUTE = "round-bets"


def stream_subscribed() -> None:
    """A live stream opened (call ``stream_unsubscribed`` when it closes, in a finally)."""
    STREAM_SUBSCRIBERS.inc()


def stream_unsubscribed() -> None:
    STREAM_SUBSCRIBERS.dec()


def bet_counted(*, status: int, problem_code: str) -> None:
    if 200 <= status < 300:
        BETS.labels("accepted", "").inc()
    elif status >= 400:
        BETS.labels("refused", problem_code or str(status)).inc()


def settlement_observed(latency: timedelta) -> None:
    SETTLEMENT_LATENCY.observe(max(latency.total_seconds(), 0.0))


def timer_observed(*, task: str, lateness_s: float) -> None:
    TIMERS_FIRED.labels(task).inc()
    TIMER_LATENESS.labels(task).observe(max(lateness_s, 0.0))
    if lateness_s > TIMER_LATE_SECONDS:
        TIMERS_LATE.labels(task).inc()


def webhook_attempt_counted(*, operator_id: int, ok: bool) -> None:
    WEBHOOK_ATTEMPTS.labels(str(operator_id), "ok" if ok else "failed").inc()


def process_exited(pid: int) -> None:
    """A multiprocess worker exited (gunicorn's child_exit): drop its live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)


def multiprocess_dir_clear() -> None:
    """Empty the multiprocess directory before a fresh set of processes starts (the demo; a
    container's tmpfs volume starts empty anyway): counters start from zero again."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        for name in os.listdir(directory):
            if name.endswith(".db"):
                os.remove(os.path.join(directory, name))


class StateCollector:
    """Gauges computed from PostgreSQL and the broker when scraped (see casino/health.py)."""

    def collect(self):
        from casino import health

        state = health.state_read()
        backlog = GaugeMetricFamily(
            "casino_settlement_backlog", "Rounds in settling, not settled yet."
        )
        backlog.add_metric([], state.settling)
        yield backlog
        oldest = GaugeMetricFamily(
            "casino_settlement_oldest_seconds", "Age of the oldest round still in settling."
        )
        oldest.add_metric([], state.settling_oldest_s)
        yield oldest
        due = GaugeMetricFamily(
            "casino_timers_overdue",
            "Timers past their due time and not applied yet (betting windows, decisions).",
            labels=["timer"],
        )
        for timer, count in state.timers_overdue.items():
            due.add_metric([timer], count)
        yield due
        depth = GaugeMetricFamily(
            "casino_celery_queue_depth", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        for queue, count in state.queue_depth.items():
            depth.add_metric([queue], count)
        yield depth
        lag = GaugeMetricFamily(
            "casino_audit_seal_lag_seconds", "Age of the oldest audit event not sealed yet."
        )
        lag.add_metric([], state.seal_lag_s)
        yield lag
        pending = GaugeMetricFamily("casino_audit_events_unsealed", "Audit events not sealed yet.")
        pending.add_metric([], state.unsealed)
        yield pending
        verified = GaugeMetricFamily(
            "casino_audit_verification_ok",
            "The last audit chain verification: 1 passed, 0 failed, -1 none recorded.",
        )
        verified.add_metric([], state.verification_ok)
        yield verified
        verified_age = GaugeMetricFamily(
            "casino_audit_verification_age_seconds", "Age of the last audit chain verification."
        )
        verified_age.add_metric([], state.verification_age_s)
        yield verified_age
        beats = GaugeMetricFamily(
            "casino_heartbeat_age_seconds",
            "Seconds since each worker or beat last reported alive.",
            labels=["process"],
        )
        for name, age in state.heartbeats.items():
            beats.add_metric([name], age)
        yield beats


def metrics_exposition() -> tuple[bytes, str]:
    """The whole exposition: every process's counters (multiprocess mode) and the state."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:  # one process (a shell): its own metrics
        from prometheus_client import REGISTRY

        registry = REGISTRY
    return generate_latest(registry) + generate_latest(_state_registry()), CONTENT_TYPE_LATEST


def _state_registry() -> CollectorRegistry:
    registry = CollectorRegistry()
    registry.register(StateCollector())
    return registry


class MetricsMiddleware:
    """Counts and times every request by its route (the URL pattern, so ``rounds/<int:pk>/``
    is one series however many rounds there are), and bets by outcome, with a log line per
    bet. Placed innermost but one: it sees the final status of everything the views answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        match = request.resolver_match
        route = match.route if match else "<unmatched>"
        HTTP_REQUESTS.labels(route, request.method, str(response.status_code)).inc()
        HTTP_LATENCY.labels(route, request.method).observe(elapsed)
        if match and match.url_name == BET_ROUTE and request.method == "POST":
            _bet_outcome(response)
        return response


def _bet_outcome(response) -> None:
    data = getattr(response, "data", None)
    if data is None and response.get("Content-Type", "").startswith("application/problem+json"):
        # a refusal answered outside DRF's Response (the idempotency block's replay or rollback)
        try:
            data = json.loads(response.content)
        except ValueError:
            data = None
    code = ""
    if response.status_code >= 400 and isinstance(data, dict):
        code = str(data.get("type", "")).rsplit("/", 1)[-1]
    bet_counted(status=response.status_code, problem_code=code)
    if response.status_code < 300:
        bet_id = data.get("id") if isinstance(data, dict) else None
        log.info("bet accepted", bet=bet_id, status=response.status_code)
    else:
        log.info("bet refused", reason=code, status=response.status_code)
