"""Benchmark: the audit writer's overhead on bet placement, target ≤ 15 %.

Places N bets (default 3,000; ``BENCH_AUDIT_BETS``) through the bet service
(``tables.services.bet_place``: round lock, engine check, bet row, round event, stake debit in
the ledger, and their audit events — two per bet) twice in the same run on the same database:
once as in production, once with ``audit_event_record`` replaced by a no-op everywhere it was
imported (the baseline: the same work without the audit log). The runs alternate in blocks so
drift (caches, autovacuum, a busy neighbour) hits both alike; the figure is the overhead of the
audited run's bets/s against the baseline's.
Run: ``python -m bench audit_overhead``; it creates and drops its own database
``bench_audit_overhead``.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("CASINO_ENV", "test")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from bench.report import result  # noqa: E402

N = int(os.environ.get("BENCH_AUDIT_BETS", "3000"))
BLOCKS = int(os.environ.get("BENCH_AUDIT_BLOCKS", "6"))  # per mode, alternating
BOXES = 7
TARGET_PCT = 15.0


@contextmanager
def audit_writer_disabled():
    """Replace ``audit_event_record`` by a no-op in every module that imported it."""
    import audit.services

    original = audit.services.audit_event_record

    def no_op(**kwargs):
        return None

    patched = [
        module
        for module in list(sys.modules.values())
        if getattr(module, "audit_event_record", None) is original
    ]
    for module in patched:
        module.audit_event_record = no_op
    try:
        yield
    finally:
        for module in patched:
            module.audit_event_record = original


class Floor:
    """One open reader-fed British table, seven funded players (one per box) and two
    supervisors to void each round once its bets are placed (outside the timing)."""

    def __init__(self):
        from django.contrib.auth.models import Group, User

        from casino.actors import Actor
        from casino.api import roles
        from casino.celery import app
        from ledger import services as ledger
        from ledger.models import Operator
        from tables import services
        from tables.models import Casino, Table

        self.services = services
        self.actor = Actor.system("bench")
        app.send_task = lambda *args, **kwargs: None  # no timers: nothing to fire here
        rule_set, payouts = services.preset_versions_ensure(
            actor=self.actor, preset="british_casino"
        )
        casino, _ = Casino.objects.get_or_create(code="bench", defaults={"name": "Bench"})
        self.table = Table.objects.create(
            casino=casino,
            code="bench-audit",
            name="Bench",
            rule_set=rule_set,
            payout_schedule=payouts,
            card_source=Table.CardSource.CARD_READER,
            betting_seconds=86_400,
        )
        services.table_open(actor=self.actor, table_id=self.table.pk)
        services.shoe_load(actor=self.actor, table_id=self.table.pk, shuffle_method="bench")
        operator = Operator.objects.create(code="bench", name="Bench")
        self.players = []
        for index in range(BOXES):
            player = ledger.player_create(
                actor=self.actor, operator=operator, external_ref=f"bench-{index}"
            )
            wallet, _ = ledger.wallet_open(actor=self.actor, player=player, currency="EUR")
            ledger.wallet_deposit(actor=self.actor, wallet=wallet, amount=10**12)
            self.players.append(player)
        # The void services check the staff's roles themselves (groups synced on migrate).
        self.requester = User.objects.create(username="bench-boss")
        self.requester.groups.add(Group.objects.get(name=roles.PIT_BOSS))
        self.approver = User.objects.create(username="bench-supervisor")
        self.approver.groups.add(Group.objects.get(name=roles.FLOOR_SUPERVISOR))

    def round_of_bets(self, count: int) -> float:
        """Open a round, time ``count`` bets (one per box), void the round; the seconds."""
        services = self.services
        rnd = services.round_open(actor=self.actor, table_id=self.table.pk)
        started = time.perf_counter()
        for box in range(1, count + 1):
            services.bet_place(
                actor=self.actor, round_id=rnd.pk, player=self.players[box - 1], box=box,
                stake=100,
            )  # fmt: skip
        took = time.perf_counter() - started
        services.void_request(actor=self.actor, user=self.requester, round_id=rnd.pk, reason="b")
        services.void_approve(actor=self.actor, user=self.approver, round_id=rnd.pk)
        return took

    def bets(self, n: int) -> float:
        took, left = 0.0, n
        while left:
            count = min(BOXES, left)
            took += self.round_of_bets(count)
            left -= count
        return took


def main() -> int:
    connection.settings_dict["TEST"]["NAME"] = "bench_audit_overhead"
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        from audit.models import AuditEvent

        floor = Floor()
        floor.bets(BOXES * 10)  # warm up: caches, prepared plans, the house accounts
        per_block = max(N // BLOCKS, BOXES)
        audited = baseline = 0.0
        before = AuditEvent.objects.count()
        for _ in range(BLOCKS):
            audited += floor.bets(per_block)
            with audit_writer_disabled():
                baseline += floor.bets(per_block)
        bets = per_block * BLOCKS
        written = AuditEvent.objects.count() - before
    finally:
        teardown_databases(old, verbosity=0)

    audited_rate, baseline_rate = bets / audited, bets / baseline
    overhead = (baseline_rate / audited_rate - 1) * 100
    print(f"{bets} bets per mode in {BLOCKS} alternating blocks; {written} audit events written")
    for label, rate, seconds in (
        ("with the audit writer", audited_rate, audited),
        ("audit writer a no-op", baseline_rate, baseline),
    ):
        print(f"{label:>22}: {rate:,.0f} bets/s ({seconds / bets * 1e3:.2f} ms/bet)")
    print(f"audit overhead: {overhead:.1f} % (target <= {TARGET_PCT:.0f} %)")
    result(
        name="audit_overhead (bet placement)",
        figure=audited_rate,
        unit="bets/s",
        baseline_name="same bets, audit writer a no-op",
        baseline=baseline_rate,
        target=f"overhead <= {TARGET_PCT:.0f} % (ratio >= {1 / (1 + TARGET_PCT / 100):.3f})",
        ok=overhead <= TARGET_PCT,
    )
    return 0 if overhead <= TARGET_PCT else 1


if __name__ == "__main__":
    sys.exit(main())
