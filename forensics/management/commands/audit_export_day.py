from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from casino.errors import DomainError
from forensics.bundles import audit_day_export
from tables.models import Casino


class Command(BaseCommand):
    help = (
        "Write the signed regulator bundle of one casino gaming day (forensics/EXPORT_FORMAT.md) "
        "into a new directory; check it with forensics/verify_bundle.py."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", required=True, type=date.fromisoformat, help="YYYY-MM-DD")
        parser.add_argument("--out", required=True, type=Path, help="a new or empty directory")
        parser.add_argument(
            "--casino", help="the casino's code (the gaming day is its own); optional with one"
        )

    def handle(self, *args, date, out, casino, **options):
        casino_id = None
        if casino is not None:
            casino_id = Casino.objects.filter(code=casino).values_list("pk", flat=True).first()
            if casino_id is None:
                raise CommandError(f"no casino {casino!r}")
        try:
            manifest = audit_day_export(day=date, out=out, casino_id=casino_id)
        except DomainError as error:
            raise CommandError(str(error)) from error
        chain = manifest["chain"]
        self.stdout.write(
            f"wrote {out}: {chain['events']} events ({chain['day_events']} of gaming day {date}, "
            f"{manifest['period']['start']} to {manifest['period']['end']}) in seals "
            f"{chain['first_seq']}..{chain['last_seq']}, signed by key {manifest['key_id']}"
        )
