from celery import shared_task

from audit.sealing import audit_chain_seal
from audit.verification import audit_verification_run
from casino.actors import Actor


@shared_task(name="audit.seal", bind=True)
def audit_seal_task(self) -> int:
    return sum(seal.event_count for seal in audit_chain_seal())


@shared_task(name="audit.verify", bind=True)
def audit_verify_task(self) -> bool:
    actor = Actor.system("audit.verify", task_id=self.request.id or "")
    return audit_verification_run(actor=actor).ok
