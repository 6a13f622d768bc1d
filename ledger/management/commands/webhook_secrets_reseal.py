"""Re-encrypt every webhook signing secret under the newest LEDGER_WEBHOOK_SECRET_KEYS key
(after putting a new key first; then the old key can be dropped)."""

from django.core.management.base import BaseCommand
from django.db import transaction

from ledger.models import Operator
from ledger.sealed import reseal


class Command(BaseCommand):
    help = "Re-encrypt the operators' webhook secrets under the newest key."

    def handle(self, *args, **options):
        count = 0
        with transaction.atomic():
            for operator in Operator.objects.select_for_update().exclude(webhook_secret_sealed=""):
                operator.webhook_secret_sealed = reseal(operator.webhook_secret_sealed)
                operator.save(update_fields=["webhook_secret_sealed"])
                count += 1
        self.stdout.write(f"{count} webhook secrets re-encrypted under the newest key.")
