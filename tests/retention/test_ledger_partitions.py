"""Retention of the ledger's legs: partitioned by month of their transaction's posted_at
(ledger 0007), created ahead, detached to the archive after the month's export with each
account's legs carried forward, so every balance stays what it was (README "Retention").

Real PostgreSQL, real rounds played and settled through the services; only the ledger's clock
is moved (``posted_at``) to put postings into past or future months.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from datetime import datetime, timedelta
from types import SimpleNamespace
from unittest import mock

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError
from django.test import override_settings

from audit.models import AuditEvent
from casino.errors import Unprocessable, ValidationFailed
from casino.retention.chain import DETACHED
from casino.retention.services import (
    ARCHIVE_SCHEMA,
    partition_detach,
    partitions_default_rows,
    partitions_ensure,
)
from forensics.report_base import Period
from forensics.report_money import player_statement
from ledger import services
from ledger.models import Account, CarryForward, Leg, Transaction
from ledger.selectors import (
    AccountingFilter,
    carry_forward_reconcile,
    house_account_list,
    ledger_reconcile,
    legs_total,
    table_accounting,
)
from tables.models import Round
from tests.audit.rounds import settled_round
from tests.factories import UserFactory, funded_player
from tests.retention.helpers import (
    ACTOR,
    LEGS,
    at,
    export_month,
    month,
    months_of,
    partition_of,
)


@contextmanager
def posted_at(when: datetime):
    """Ledger postings made inside are dated ``when`` (only the ledger's clock moves)."""
    with mock.patch("ledger.postings.timezone", SimpleNamespace(now=lambda: when)):
        yield


def wallet_of(player) -> Account:
    return Account.objects.get(kind=Account.Kind.WALLET, player=player)


def refused(sql: str, match: str = "append-only") -> None:
    with (
        pytest.raises(DatabaseError, match=match),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL casino.maintenance = 'off'")
        cursor.execute(sql)


def triggers_of(table: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass", [table])
        return {name for (name,) in cursor.fetchall()}


def test_leg_partitions_are_ahead_protected_and_append_only(db):
    # The migration made this month's and the next three, and a DEFAULT partition.
    assert months_of(LEGS)[-5:] == [month(0), month(1), month(2), month(3), None]
    created = partitions_ensure(actor=ACTOR, months_ahead=4)
    new = f"{LEGS}_p{month(4):%Y%m}"
    assert new in created
    for part in (new, f"{LEGS}_p{month(0):%Y%m}", f"{LEGS}_default"):
        # the parent's row triggers cloned; its own TRUNCATE and wallet-balance triggers
        assert {"ledger_leg_no_change", f"{part}_no_truncate", f"{part}_after_insert"} <= (
            triggers_of(part)
        ), part
    assert "ledger_leg_after_insert" in triggers_of(LEGS)

    wallet = wallet_of(funded_player(700))
    leg = Leg.objects.get(account=wallet)
    part = partition_of(LEGS, leg.pk)
    assert part == f"{LEGS}_p{month(0):%Y%m}"
    assert leg.posted_at == leg.transaction.posted_at
    with posted_at(at(month(9))):  # a leg in the DEFAULT partition too
        services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=1)
    assert partitions_default_rows()[LEGS] == 2
    for table in (part, f"{LEGS}_default", LEGS):
        refused(f"UPDATE {table} SET amount = 1")
        refused(f"DELETE FROM {table}")
        refused(f"TRUNCATE {table}")
    refused("TRUNCATE ledger_carryforward")
    assert Leg.objects.get(pk=leg.pk).amount == 700


def test_a_leg_of_a_far_month_lands_in_its_partition_or_the_default_one(db):
    wallet = wallet_of(funded_player(1_000))
    with posted_at(at(month(2)) + timedelta(days=3)):
        ahead, _ = services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=200)
    with posted_at(at(month(9)) + timedelta(days=3)):
        far, _ = services.wallet_withdraw(actor=ACTOR, wallet=wallet, amount=300)
    assert {partition_of(LEGS, leg.pk) for leg in ahead.legs.all()} == {f"{LEGS}_p{month(2):%Y%m}"}
    assert {partition_of(LEGS, leg.pk) for leg in far.legs.all()} == {f"{LEGS}_default"}
    assert partitions_default_rows()[LEGS] == 2
    wallet.refresh_from_db()
    assert wallet.balance == legs_total(wallet) == 900
    assert ledger_reconcile() == []
    # The month the DEFAULT partition holds rows of is not created silently.
    with pytest.raises(Exception, match="default partition"), transaction.atomic():
        partitions_ensure(actor=ACTOR, months_ahead=9)


def _snapshot() -> dict:
    """Every balance and the accounting of the attached period from last month on."""
    return {
        "balances": dict(Account.objects.values_list("pk", "balance")),
        "totals": {account.pk: legs_total(account) for account in Account.objects.all()},
        "house": [(account.pk, total) for account, total in house_account_list()],
        "accounting": table_accounting(
            group_by=["table", "day"], filters=AccountingFilter(date_from=month(-1))
        ),
    }


def test_a_month_of_legs_detaches_after_the_export_and_every_balance_stays(old_months, tmp_path):
    old, previous = old_months
    with posted_at(at(old) + timedelta(days=3)):
        first = settled_round("british_casino")
    with posted_at(at(previous) + timedelta(days=5)):
        second = settled_round("british_casino")
    third = settled_round("british_casino")
    old_player = (
        Transaction.objects.get(pk=first.ledger_transaction_id)
        .legs.filter(account__kind=Account.Kind.WALLET)[0]
        .account.player
    )
    old_wallet = wallet_of(old_player)
    services.wallet_withdraw(actor=ACTOR, wallet=old_wallet, amount=100)  # this month
    for rnd, when in ((first, old), (second, previous), (third, month(0))):
        legs = Leg.objects.filter(transaction__round_id=rnd.pk)
        assert {partition_of(LEGS, leg.pk) for leg in legs} == {f"{LEGS}_p{when:%Y%m}"}
    old_legs = set(Leg.objects.filter(posted_at__lt=at(previous)).values_list("pk", flat=True))
    assert ledger_reconcile() == []
    before = _snapshot()
    statement = player_statement(period=Period.of(previous), player_id=old_player.pk)

    exports = tmp_path / "exports"
    with override_settings(AUDIT_EXPORT_DIR=str(exports)):
        with pytest.raises(ValidationFailed, match="no complete regulator export bundle"):
            partition_detach(table=LEGS, month=old, actor=ACTOR)
        export_month(old, exports)
        with pytest.raises(ValidationFailed, match="not the oldest"):
            partition_detach(table=LEGS, month=previous, actor=ACTOR)
        # A round opened in the month and not finished keeps its stakes' legs here.
        Round.objects.filter(pk=third.pk).update(phase="settling", opened_at=at(old))
        with pytest.raises(ValidationFailed, match=f"round {third.pk}.*not settled"):
            partition_detach(table=LEGS, month=old, actor=ACTOR)
        Round.objects.filter(pk=third.pk).update(phase="settled", opened_at=third.opened_at)
        assert months_of(LEGS)[0] == old  # nothing detached by a refusal

        record = partition_detach(
            table=LEGS, month=old, actor=ACTOR, export_dir=tmp_path / "archive"
        )

    # The month left the live table for the archive; its transactions' headers stay.
    assert old not in months_of(LEGS)
    assert not Leg.objects.filter(pk__in=old_legs).exists()
    assert Transaction.objects.filter(pk=first.ledger_transaction_id).exists()
    assert record["rows"] == len(old_legs) == record["carry_forward"]["legs"]
    assert record["archive"] == f"{ARCHIVE_SCHEMA}.{LEGS}_p{old:%Y%m}"
    carried = CarryForward.objects.filter(month=old)
    assert carried.count() == record["carry_forward"]["accounts"] > 0
    event = AuditEvent.objects.get(name=DETACHED, payload__table=LEGS)
    assert event.payload["carry_forward"] == record["carry_forward"]

    # Every balance is what it was: wallets, house accounts, sums of legs, reconciliation,
    # and the accounting of the period still attached.
    assert _snapshot() == before
    assert ledger_reconcile() == []
    assert carry_forward_reconcile() == {f"{old:%Y-%m}": []}
    again = player_statement(period=Period.of(previous), player_id=old_player.pk)
    assert (again.rows, again.totals) == (statement.rows, statement.totals)
    with pytest.raises(ValidationFailed, match="archived"):
        player_statement(period=Period.of(old + timedelta(days=10)), player_id=old_player.pk)

    # The archive refuses any change, a new leg included; the export is what it holds.
    archived = record["archive"]
    refused(f"INSERT INTO {archived} SELECT * FROM {archived} LIMIT 1")
    refused(f"UPDATE {archived} SET amount = amount + 1")
    refused(f"DELETE FROM {archived}")
    refused("UPDATE ledger_carryforward SET amount = amount + 1")
    refused("DELETE FROM ledger_carryforward")
    lines = (tmp_path / "archive" / f"{LEGS}_p{old:%Y%m}.copy").read_bytes()
    assert hashlib.sha256(lines).hexdigest() == record["export"]["sha256"]
    assert len(lines.splitlines()) == len(old_legs)

    # Money keeps moving on the carried-forward balances; an archived posting is not
    # corrected here (its legs are in the archive).
    services.wallet_deposit(actor=ACTOR, wallet=old_wallet, amount=50)
    old_wallet.refresh_from_db()
    assert old_wallet.balance == before["balances"][old_wallet.pk] + 50 == legs_total(old_wallet)
    assert ledger_reconcile() == []
    with pytest.raises(Unprocessable, match="archived month"):
        services.correction_request(
            actor=ACTOR, user=UserFactory(), reason="late dispute", replacement_legs=[],
            original=Transaction.objects.get(pk=first.ledger_transaction_id),
        )  # fmt: skip

    # An auditor recomputes the carry-forward from the archive: a changed archived leg shows.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(f"UPDATE {archived} SET amount = amount + 1 WHERE id = %s", [min(old_legs)])
    [problem] = carry_forward_reconcile()[f"{old:%Y-%m}"]
    assert problem.what == "carry_forward" and problem.found == problem.expected + 1
