from celery import shared_task

from casino.api.idempotency import idempotency_purge_expired
from casino.api.services import credential_refusals_summarize


@shared_task(name="api.idempotency_purge_expired")
def idempotency_purge_expired_task() -> int:
    return idempotency_purge_expired()


@shared_task(name="api.credential_refusals_summarize")
def credential_refusals_summarize_task() -> int:
    return credential_refusals_summarize()
