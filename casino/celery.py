"""The Celery application. Tasks are thin adapters over services (see each app's tasks.py)."""

import os
import threading
import time

from celery import Celery, signals
from kombu.transport import TRANSPORT_ALIASES

# filesystem:// (the broker of a machine without one) writes each message whole
# (casino/brokerfs.py). Registered for the scheme, not as broker_transport: that setting would
# apply to whatever URL a process is given, a RabbitMQ or an unreachable one included.
TRANSPORT_ALIASES["filesystem"] = "casino.brokerfs:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="casino.heartbeat")
def heartbeat_task() -> None:
    """Scheduled by beat: a fresh beat heartbeat means beat schedules and a worker runs."""
    from casino.health import heartbeat_write

    heartbeat_write("beat")


# --- observability (casino/logs.py, casino/metrics.py, casino/tracing.py) ------------------


@signals.before_task_publish.connect
def _publish(headers=None, **kwargs):
    from casino.logs import on_task_publish

    on_task_publish(headers=headers)


@signals.task_prerun.connect
def _prerun(task_id=None, task=None, args=None, **kwargs):
    from casino import logs, metrics

    logs.on_task_prerun(task_id=task_id, task=task, args=args)
    eta = getattr(task.request, "eta", None)
    if eta and task.name in metrics.TIMER_TASKS:
        from django.utils.dateparse import parse_datetime

        due = parse_datetime(eta) if isinstance(eta, str) else eta
        if due is not None:
            metrics.timer_observed(task=task.name, lateness_s=time.time() - due.timestamp())


@signals.task_postrun.connect
def _postrun(**kwargs):
    from casino.logs import on_task_postrun

    on_task_postrun()


@signals.worker_ready.connect
def _worker_ready(sender=None, **kwargs):
    from casino.health import heartbeat_thread_start

    heartbeat_thread_start(f"worker:{getattr(sender, 'hostname', 'worker')}")


@signals.worker_shutting_down.connect
def _wake_event_loop(**kwargs):
    """A stop signal only sets a flag that the worker's event loop reads between polls, and an
    idle loop polls for up to 10 s (kombu's longest timer wait): a deploy, a scale-down or a
    test's teardown waited 8.5 s for a worker doing nothing. The loop's own waker ends the poll,
    but it only wakes from another thread (this handler runs on the loop's)."""
    from kombu.asynchronous import get_event_loop

    hub = get_event_loop()
    if hub is not None:
        threading.Thread(target=hub.call_soon, args=(_nothing,), daemon=True).start()


def _nothing() -> None:
    pass


@signals.worker_init.connect
def _worker_init(**kwargs):
    from casino.tracing import tracing_setup

    tracing_setup()
