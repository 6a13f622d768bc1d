from datetime import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from casino.actors import Actor
from casino.dbsql import TIME_PARTITIONED
from casino.errors import ValidationFailed
from casino.retention.services import (
    partition_detach,
    partition_list,
    partitions_default_rows,
    partitions_ensure,
)


class Command(BaseCommand):
    help = (
        "The monthly partitions of the append-only tables (audit log, round events, ledger "
        "legs; README 'Retention'): 'ensure' creates them ahead, 'list' shows them, 'detach "
        "TABLE YYYY-MM' moves the oldest month to the archive schema once its gaming days are "
        "exported (ledger legs: carried forward per account)."
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        ensure = sub.add_parser("ensure")
        ensure.add_argument("--months-ahead", type=int, default=None)
        ensure.add_argument("--from", dest="first_month", default=None, help="YYYY-MM")
        sub.add_parser("list")
        detach = sub.add_parser("detach")
        detach.add_argument("table", choices=sorted(TIME_PARTITIONED))
        detach.add_argument("month", help="YYYY-MM")
        detach.add_argument("--export-dir", type=Path, default=None)

    def handle(self, *args, action, **options):
        actor = Actor.system("manage.py partitions")
        try:
            if action == "ensure":
                first = options["first_month"]
                created = partitions_ensure(
                    actor=actor,
                    months_ahead=options["months_ahead"],
                    first_month=_month(first) if first else None,
                )
                self.stdout.write(f"created {len(created)}: {' '.join(created)}".rstrip(": "))
            elif action == "list":
                for table in TIME_PARTITIONED:
                    for partition in partition_list(table=table):
                        self.stdout.write(f"{partition.name}\t~{partition.rows_estimate} rows")
                for table, rows in partitions_default_rows().items():
                    if rows:
                        self.stderr.write(f"{table}_default holds {rows} rows: a clock was off")
            else:
                record = partition_detach(
                    table=options["table"],
                    month=_month(options["month"]),
                    actor=actor,
                    export_dir=options["export_dir"],
                )
                self.stdout.write(f"detached {record['partition']} -> {record['archive']}")
        except ValidationFailed as exc:
            raise CommandError(str(exc)) from exc


def _month(text: str):
    try:
        return datetime.strptime(text, "%Y-%m").date()
    except ValueError as exc:
        raise CommandError(f"{text!r} is not a month (YYYY-MM)") from exc
