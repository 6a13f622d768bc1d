from datetime import date
from pathlib import Path

from celery import shared_task
from django.conf import settings

from audit.sealing import audit_chain_seal
from forensics.bundles import audit_day_export, gaming_day_closed_last
from tables.models import Casino
from tables.selectors import shift_calendar


@shared_task(name="audit.export_day", bind=True)
def audit_export_day_task(self, day: str | None = None) -> list[str]:
    """Seal, then write each casino's bundle of its last closed gaming day (or ``day``) under
    settings.AUDIT_EXPORT_DIR/<casino code>/<day>; a day already exported is left as it is.
    Beat runs it every hour: gaming days end at each casino's local day start, not at UTC
    midnight."""
    written, sealed = [], False
    for casino in Casino.objects.order_by("code"):
        calendar = shift_calendar(casino_id=casino.pk)
        when = date.fromisoformat(day) if day else gaming_day_closed_last(calendar)
        out = Path(settings.AUDIT_EXPORT_DIR) / casino.code / when.isoformat()
        if not (out / "manifest.json").exists():
            if not sealed:  # every event up to now, before the first bundle reads the seals
                audit_chain_seal()
                sealed = True
            audit_day_export(day=when, out=out, casino_id=casino.pk)
        written.append(str(out))
    return written
