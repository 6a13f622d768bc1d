import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from audit.verification import audit_chain_verify, audit_verification_run
from casino.actors import Actor


class Command(BaseCommand):
    help = (
        "Verify the audit log: every seal and every sealed event. Names the first modified, "
        "missing or inserted event; exits 1 on any fault."
    )

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", dest="as_json", help="JSON report")
        parser.add_argument(
            "--against", type=Path, help="a head exported earlier (audit_export_head) to check"
        )
        parser.add_argument(
            "--record", action="store_true", help="record the outcome as an audit event"
        )

    def handle(self, *args, as_json=False, against=None, record=False, **options):
        anchor = _load(against) if against else None
        if record:
            actor = Actor.system("audit_verify command")
            report = audit_verification_run(actor=actor, anchor=anchor)
        else:
            report = audit_chain_verify(anchor=anchor)
        if as_json:
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
        elif report.ok:
            self.stdout.write(
                f"OK: {report.events_verified} events in {report.seals_verified} seals "
                f"verified in {report.duration_s}s; head seal {report.head_seq} "
                f"{report.head_hash}; {report.events_pending} events not sealed yet"
            )
        else:
            self.stderr.write(f"FAILED: {report.problem.detail}")
        if not report.ok:
            raise SystemExit(1)


def _load(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise CommandError(f"cannot read the anchor {path}: {error}") from error
