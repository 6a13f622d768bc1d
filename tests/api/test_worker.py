"""The Celery platform: tasks run in a real worker process against the test database."""

from datetime import timedelta

import pytest

from casino.api.models import IdempotencyRecord
from casino.api.tasks import idempotency_purge_expired_task
from conftest import wait_until


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_purge_task(celery_worker):
    stale = IdempotencyRecord.objects.create(
        scope="user:1",
        key="old",
        method="POST",
        path="/x",
        fingerprint="0" * 64,
        response_status=201,
        response_body={},
    )
    IdempotencyRecord.objects.filter(pk=stale.pk).update(
        created_at=stale.created_at - timedelta(days=2)
    )
    fresh = IdempotencyRecord.objects.create(
        scope="user:1",
        key="new",
        method="POST",
        path="/x",
        fingerprint="0" * 64,
        response_status=201,
        response_body={},
    )
    idempotency_purge_expired_task.delay()
    wait_until(
        lambda: not IdempotencyRecord.objects.filter(pk=stale.pk).exists(),
        message="worker did not purge:\n" + "".join(celery_worker.output[-20:]),
    )
    assert IdempotencyRecord.objects.filter(pk=fresh.pk).exists()
    assert any("api.idempotency_purge_expired" in line for line in celery_worker.output)
