from datetime import date
from pathlib import Path

from celery import shared_task
from django.conf import settings

from audit.bundles import audit_day_export, gaming_day_closed_last
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


@shared_task(name="audit.export_day", bind=True)
def audit_export_day_task(self, day: str | None = None) -> str:
    """Seal, then write the bundle of the last closed gaming day (or ``day``) under
    settings.AUDIT_EXPORT_DIR/<day>; a day already exported is left as it is."""
    when = date.fromisoformat(day) if day else gaming_day_closed_last()
    out = Path(settings.AUDIT_EXPORT_DIR) / when.isoformat()
    if (out / "manifest.json").exists():
        return str(out)
    audit_chain_seal()
    audit_day_export(day=when, out=out)
    return str(out)
