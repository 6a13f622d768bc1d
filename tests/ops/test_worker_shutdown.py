"""A worker asked to stop (SIGTERM: a deploy, a scale-down) begins its warm shutdown at once,
not when its idle event loop next wakes (up to 10 s later: casino/celery.py PromptShutdown)."""

import time

import pytest

from conftest import WorkerProcess


@pytest.mark.parametrize("pool", ["solo", "threads"])
def test_an_idle_worker_stops_promptly_on_sigterm(django_db_setup, django_db_blocker, pool):
    from django.db import connection

    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    worker = WorkerProcess(database_name=name, queue=f"shutdown-{pool}", pool=pool)
    worker.start()
    time.sleep(2)  # idle: the loop is in its poll
    started = time.monotonic()
    worker.process.terminate()
    worker.process.wait(30)
    stopped_in = time.monotonic() - started
    assert worker.process.returncode == 0, worker.output[-20:]
    # Without the step the loop polls out its 10 s first (8.5 s measured here); a generous
    # bound on the loaded test machine.
    assert stopped_in < 6, f"{stopped_in:.1f} s"
