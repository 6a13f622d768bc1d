from django.core.management.base import BaseCommand

from audit.sealing import audit_chain_seal


class Command(BaseCommand):
    help = "Seal every finished audit event not sealed yet (the periodic task does this too)."

    def handle(self, *args, **options):
        seals = audit_chain_seal()
        events = sum(seal.event_count for seal in seals)
        head = f", head seal {seals[-1].seq}" if seals else ""
        self.stdout.write(f"sealed {events} events in {len(seals)} seals{head}")
