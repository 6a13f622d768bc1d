"""``manage.py sandbox --operator CODE``: a sandbox operator with a new API key and one
self-dealing sandbox table per preset (casino/sandbox), printed as JSON for the integrator.

Re-running keeps the operator and its tables and issues one more key (earlier keys keep
working until revoked in the console or the API)."""

import json

from django.core.management.base import BaseCommand, CommandError

from casino.actors import Actor
from casino.errors import DomainError
from casino.money import PLAY_MONEY
from casino.sandbox.services import (
    sandbox_key_issue,
    sandbox_operator_ensure,
    sandbox_table_ensure,
)
from tables.engine import PRESETS


class Command(BaseCommand):
    help = "Create (or reuse) a sandbox operator and its sandbox tables; issue a sandbox key."

    def add_arguments(self, parser):
        parser.add_argument("--operator", required=True, help="the sandbox operator's code")
        parser.add_argument("--name", default="", help="its name (default: the code)")
        parser.add_argument(
            "--preset", action="append", choices=list(PRESETS), help="tables to ensure (all)"
        )

    def handle(self, *args, operator, name, preset, **options):
        actor = Actor.system("manage.sandbox")
        try:
            sandbox_operator = sandbox_operator_ensure(
                actor=actor, code=operator, name=name or operator
            )
            _, raw = sandbox_key_issue(actor=actor, operator=sandbox_operator, label="sandbox")
            tables = [
                sandbox_table_ensure(actor=actor, preset=p, code=f"sandbox-{p}")
                for p in preset or PRESETS
            ]
        except DomainError as refusal:
            raise CommandError(str(refusal)) from refusal
        document = {
            "operator": {"id": sandbox_operator.pk, "code": sandbox_operator.code},
            "api_key": raw,
            "currency": PLAY_MONEY,
            "tables": [{"id": t.pk, "code": t.code, "name": t.name} for t in tables],
        }
        self.stdout.write(json.dumps(document, indent=2))
