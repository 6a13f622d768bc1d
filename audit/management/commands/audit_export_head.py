import json

from django.core.management.base import BaseCommand

from audit.heads import audit_head_export


class Command(BaseCommand):
    help = "Print the audit chain head, signed, to store outside the database."

    def handle(self, *args, **options):
        self.stdout.write(json.dumps(audit_head_export(), indent=2, sort_keys=True))
