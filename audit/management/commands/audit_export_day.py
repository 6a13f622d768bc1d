from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from audit.bundles import audit_day_export
from casino.errors import DomainError


class Command(BaseCommand):
    help = (
        "Write the signed regulator bundle of one gaming day (audit/EXPORT_FORMAT.md) into a "
        "new directory; check it with audit/verify_bundle.py."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", required=True, type=date.fromisoformat, help="YYYY-MM-DD")
        parser.add_argument("--out", required=True, type=Path, help="a new or empty directory")

    def handle(self, *args, date, out, **options):
        try:
            manifest = audit_day_export(day=date, out=out)
        except DomainError as error:
            raise CommandError(str(error)) from error
        chain = manifest["chain"]
        self.stdout.write(
            f"wrote {out}: {chain['events']} events ({chain['day_events']} of {date}) in seals "
            f"{chain['first_seq']}..{chain['last_seq']}, signed by key {manifest['key_id']}"
        )
