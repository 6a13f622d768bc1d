"""The periodic tasks run in a real worker: sealing, and verification auditing its own result."""

import pytest

from audit.models import AuditEvent, AuditSeal
from audit.tasks import audit_seal_task, audit_verify_task
from conftest import wait_until
from tests.audit.helpers import record

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_log"),
]


def test_the_worker_seals_then_verifies_and_records_the_outcome(celery_worker):
    record(3)

    def sealed():
        audit_seal_task.delay()
        return AuditSeal.objects.exists()

    wait_until(sealed, timeout=60, interval=1, message="".join(celery_worker.output[-20:]))
    audit_verify_task.delay()
    verified = wait_until(
        lambda: AuditEvent.objects.filter(name="audit.verified").first(),
        timeout=60,
        message="".join(celery_worker.output[-20:]),
    )
    assert verified.payload["ok"] is True and verified.payload["events_verified"] >= 1
    assert verified.actor_kind == "system" and verified.actor_label == "audit.verify"
    assert verified.request_id, "the task id is recorded"
