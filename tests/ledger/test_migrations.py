"""The ledger's data migrations on a database that already holds money (a scratch database,
migrated forward only, each step a process of its own: tests/helpers/migrations.py).

- 0006: existing operator events get opaque public ids.
- 0007: legs partitioned by month keep every row, id and amount, take their transaction's
  posted_at, land in their month's partition, and leave wallet balances as they were; the
  balance rules still hold on the partitioned table.
"""

from __future__ import annotations

import re
from datetime import datetime

import psycopg
import pytest

from tests.helpers.migrations import scratch_database

pytestmark = pytest.mark.django_db(transaction=True)

EVENT_ID = re.compile(r"evt_[0-9a-f]{32}")
LEG_COLUMNS = "transaction_id, account_id, amount, currency, kind, bet_ref"

# On the schema of ledger 0005 (before both migrations), through its historical models, and
# raw SQL for the legs: three operator events, a wallet with a deposit long ago and a
# withdrawal now.
BEFORE = """
from datetime import UTC, datetime
from django.db import transaction
from django.utils import timezone
apps = historical_apps([("ledger", "0005_webhook_isolation_and_sealed_secrets")])
Operator, Player, Account, Transaction, OperatorEvent = (
    apps.get_model("ledger", name)
    for name in ("Operator", "Player", "Account", "Transaction", "OperatorEvent")
)
operator = Operator.objects.create(code="op", name="Op")
for n in range(3):
    OperatorEvent.objects.create(operator_id=operator.pk, kind="wallet.deposit", payload={"n": n})
player = Player.objects.create(operator_id=operator.pk, external_ref="p1")
wallet = Account.objects.create(
    kind="wallet", currency="EUR", operator_id=operator.pk, player_id=player.pk
)
cash = Account.objects.create(kind="operator_cash", currency="EUR", operator_id=operator.pk)
postings = {}
for reference, posted_at, amount in (
    ("old", datetime(2025, 3, 14, 9, 26, tzinfo=UTC), 500),
    ("new", timezone.now(), -120),
):
    with transaction.atomic(), connection.cursor() as cursor:
        txn = Transaction.objects.create(
            kind="deposit", reference=reference, posted_at=posted_at, actor_kind="system",
            actor_label="migration test",
        )
        for account, signed in ((wallet, amount), (cash, -amount)):
            cursor.execute(
                "INSERT INTO ledger_leg (transaction_id, account_id, amount, currency, kind, "
                "bet_ref) VALUES (%s, %s, %s, 'EUR', 'deposit', '')",
                [txn.pk, account.pk, signed],
            )
    postings[txn.pk] = posted_at.isoformat()
print(json.dumps({"wallet": wallet.pk, "cash": cash.pk, "postings": postings}))
"""


def _balance(cursor, account_id: int) -> int:
    cursor.execute("SELECT balance FROM ledger_account WHERE id = %s", [account_id])
    return cursor.fetchone()[0]


def test_existing_events_get_opaque_ids_and_legs_keep_every_row_in_their_month():
    with scratch_database() as scratch:
        scratch.migrate([("ledger", "0005_webhook_isolation_and_sealed_secrets")])
        made = scratch.run(BEFORE)
        wallet, cash = made["wallet"], made["cash"]
        postings = {int(k): datetime.fromisoformat(v) for k, v in made["postings"].items()}
        with scratch.connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"SELECT id, {LEG_COLUMNS} FROM ledger_leg ORDER BY id")
            legs_before = cursor.fetchall()
            assert len(legs_before) == 4 and _balance(cursor, wallet) == 380

        scratch.migrate()
        assert not scratch.unapplied()

        with scratch.connect() as conn, conn.cursor() as cursor:
            cursor.execute("SELECT public_id FROM ledger_operatorevent")
            ids = [public_id for (public_id,) in cursor.fetchall()]
            assert len(set(ids)) == 3 and all(EVENT_ID.fullmatch(i) for i in ids)
            # Every leg, id and amount kept; each at its transaction's time, in that month.
            cursor.execute(
                f"SELECT id, {LEG_COLUMNS}, posted_at, tableoid::regclass::text "
                "FROM ledger_leg ORDER BY id"
            )
            legs_after = cursor.fetchall()
            assert [row[:7] for row in legs_after] == legs_before
            for row in legs_after:
                posted = postings[row[1]]
                assert (row[7], row[8]) == (posted, f"ledger_leg_p{posted:%Y%m}")
            assert _balance(cursor, wallet) == 380  # copied, not posted again
            # Its indexes under their names (the primary key now with posted_at), its triggers.
            cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'ledger_leg'")
            indexes = {name for (name,) in cursor.fetchall()}
            assert {"ledger_leg_pkey", "leg_account_amount_idx", "leg_bet_ref_idx"} < indexes
            assert any(name.startswith("ledger_leg_transaction_id_") for name in indexes)
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = 'ledger_leg'::regclass")
            assert {name for (name,) in cursor.fetchall()} == {
                "ledger_leg_after_insert",
                "ledger_leg_no_change",
                "ledger_leg_no_truncate",
            }

            # The rules hold on the partitioned table: a new posting moves the wallet, ids go
            # on from the old sequence's position, an unbalanced one is refused at commit.
            insert = (
                f"INSERT INTO ledger_leg ({LEG_COLUMNS}, posted_at) "
                "VALUES (%s, %s, %s, 'EUR', 'deposit', '', %s) RETURNING id"
            )
            with conn.transaction():
                cursor.execute(
                    "INSERT INTO ledger_transaction (kind, reference, description, posted_at, "
                    "actor_kind, actor_id, actor_label, shift) VALUES ('deposit', 'after', '', "
                    "now(), 'system', '', 't', '') RETURNING id, posted_at"
                )
                txn, posted = cursor.fetchone()
                cursor.execute(insert, [txn, wallet, 30, posted])
                assert cursor.fetchone()[0] > legs_before[-1][0]
                cursor.execute(insert, [txn, cash, -30, posted])
            with (
                pytest.raises(psycopg.errors.CheckViolation, match="does not balance"),
                conn.transaction(),
            ):
                cursor.execute(insert, [txn, wallet, 5, posted])
            assert _balance(cursor, wallet) == 410
