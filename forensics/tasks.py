from datetime import date

from celery import shared_task

from audit.sealing import audit_chain_seal
from forensics.bundles import (
    audit_day_export,
    bundle_dir,
    export_calendars,
    gaming_day_closed_last,
)


@shared_task(name="audit.export_day", bind=True)
def audit_export_day_task(self, day: str | None = None) -> list[str]:
    """Seal, then write each casino's bundle of its last closed gaming day (or ``day``) under
    settings.AUDIT_EXPORT_DIR/<casino code>/<day> (``utc/<day>`` while there is no casino); a
    day already exported is left as it is. Beat runs it every hour: gaming days end at each
    casino's local day start, not at UTC midnight."""
    written, sealed = [], False
    for name, calendar, casino_id in export_calendars():
        when = date.fromisoformat(day) if day else gaming_day_closed_last(calendar)
        out = bundle_dir(name, when)
        if not (out / "manifest.json").exists():
            if not sealed:  # every event up to now, before the first bundle reads the seals
                audit_chain_seal()
                sealed = True
            audit_day_export(day=when, out=out, casino_id=casino_id)
        written.append(str(out))
    return written
