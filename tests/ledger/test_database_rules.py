"""The ledger's rules hold for raw SQL too: PostgreSQL enforces them, not only the services."""

from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import DatabaseError
from django.utils import timezone

from ledger.models import Account, Leg, Transaction
from ledger.postings import house_account_id
from ledger.selectors import ledger_reconcile
from tests.ledger.conftest import fund

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def committed_sql():
    """A cursor in a transaction that really commits (deferred checks run at its end)."""
    with transaction.atomic(), connection.cursor() as cursor:
        yield cursor


def _raw_transaction(cursor, reference: str) -> int:
    cursor.execute(
        """
        INSERT INTO ledger_transaction (kind, reference, description, posted_at, actor_kind,
            actor_id, actor_label, shift)
        VALUES ('deposit', %s, '', %s, 'system', '', 'raw sql', '') RETURNING id
        """,
        [reference, timezone.now()],
    )
    return cursor.fetchone()[0]


def _raw_leg(
    cursor,
    txn_id: int,
    account_id: int,
    amount: int,
    currency: str = "EUR",
    *,
    posted_at=None,
    into: str = "ledger_leg",
):
    """A leg by hand; ``posted_at`` its transaction's unless given (now() without one),
    ``into`` the partitioned table or straight into one of its partitions."""
    cursor.execute(
        f"INSERT INTO {into} (id, transaction_id, account_id, amount, currency, kind, bet_ref, "
        "posted_at) SELECT nextval(pg_get_serial_sequence('ledger_leg', 'id')), "
        "%s, %s, %s, %s, 'deposit', '', coalesce(%s, "
        "(SELECT posted_at FROM ledger_transaction WHERE id = %s), now())",
        [txn_id, account_id, amount, currency, posted_at, txn_id],
    )


def test_an_unbalanced_raw_sql_transaction_is_refused_at_commit(wallet):
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    with (
        pytest.raises(IntegrityError, match="does not balance"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        txn_id = _raw_transaction(cursor, "raw-unbalanced")
        _raw_leg(cursor, txn_id, wallet.pk, 500)
        _raw_leg(cursor, txn_id, cash, -499)
        # Statements succeed: the check is deferred to COMMIT.
    assert not Transaction.objects.filter(reference="raw-unbalanced").exists()
    wallet.refresh_from_db()
    assert wallet.balance == 0


def test_a_transaction_with_one_leg_or_none_is_refused(wallet):
    with (
        pytest.raises(IntegrityError, match="at least two"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        _raw_transaction(cursor, "raw-empty")
    assert not Transaction.objects.filter(reference="raw-empty").exists()


def test_a_balanced_raw_sql_transaction_commits_and_moves_the_wallet_balance(wallet):
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    with transaction.atomic(), connection.cursor() as cursor:
        txn_id = _raw_transaction(cursor, "raw-balanced")
        _raw_leg(cursor, txn_id, wallet.pk, 700)
        _raw_leg(cursor, txn_id, cash, -700)
    wallet.refresh_from_db()
    assert wallet.balance == 700
    assert ledger_reconcile() == []


def test_a_wallet_can_not_go_negative_even_by_raw_sql(wallet):
    fund(wallet, 100)
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    with (
        pytest.raises(IntegrityError, match="account_wallet_never_negative"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        txn_id = _raw_transaction(cursor, "raw-overdraft")
        _raw_leg(cursor, txn_id, wallet.pk, -101)
        _raw_leg(cursor, txn_id, cash, 101)
    wallet.refresh_from_db()
    assert wallet.balance == 100


def test_a_leg_in_another_currency_than_its_account_is_refused(wallet):
    with (
        pytest.raises(IntegrityError, match="the account holds EUR"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        txn_id = _raw_transaction(cursor, "raw-currency")
        _raw_leg(cursor, txn_id, wallet.pk, 5, currency="GBP")


def test_a_leg_on_a_missing_account_or_transaction_is_refused(wallet):
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    with pytest.raises(IntegrityError, match="does not exist"), committed_sql() as cursor:
        txn_id = _raw_transaction(cursor, "raw-no-account")
        _raw_leg(cursor, txn_id, 10**12, 5)
    missing = "transaction 999999999, which does not exist"
    with pytest.raises(IntegrityError, match=missing), committed_sql() as cursor:
        _raw_leg(cursor, 999_999_999, wallet.pk, 5)
        _raw_leg(cursor, 999_999_999, cash, -5)


def test_accounts_are_permanent(wallet):
    with pytest.raises(DatabaseError, match="append-only: DELETE"), committed_sql() as cursor:
        cursor.execute("SET LOCAL casino.maintenance = 'off'")
        cursor.execute("DELETE FROM ledger_account WHERE id = %s", [wallet.pk])
    with pytest.raises(DatabaseError, match="never change"), committed_sql() as cursor:
        cursor.execute("UPDATE ledger_account SET currency = 'GBP' WHERE id = %s", [wallet.pk])


def test_legs_and_transactions_are_append_only(wallet):
    fund(wallet, 100)
    leg = Leg.objects.filter(account=wallet).get()
    for sql in (
        f"UPDATE ledger_leg SET amount = 1 WHERE id = {leg.pk}",
        f"DELETE FROM ledger_leg WHERE id = {leg.pk}",
        "TRUNCATE ledger_leg CASCADE",
        f"UPDATE ledger_transaction SET reference = 'x' WHERE id = {leg.transaction_id}",
        f"DELETE FROM ledger_transaction WHERE id = {leg.transaction_id}",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("SET LOCAL casino.maintenance = 'off'")
            cursor.execute(sql)
    assert Leg.objects.get(pk=leg.pk).amount == 100


def test_a_balance_can_only_move_through_legs(wallet):
    fund(wallet, 100)
    with pytest.raises(DatabaseError, match="maintained from its legs"), transaction.atomic():
        Account.objects.filter(pk=wallet.pk).update(balance=10**9)
    wallet.refresh_from_db()
    assert wallet.balance == 100


def test_a_leg_posted_at_another_time_than_its_transaction_is_refused(wallet):
    """A leg carries its transaction's posted_at (its month partition), so the balance check,
    which sums that one partition, sees every leg of the transaction."""
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    elsewhere = timezone.now() - timedelta(days=40)
    with (
        pytest.raises(IntegrityError, match="its legs must carry that posted_at"),
        committed_sql() as cursor,
    ):
        txn_id = _raw_transaction(cursor, "raw-posted-elsewhere")
        _raw_leg(cursor, txn_id, wallet.pk, 300)
        _raw_leg(cursor, txn_id, cash, -300)
        _raw_leg(cursor, txn_id, wallet.pk, 50, posted_at=elsewhere)
        _raw_leg(cursor, txn_id, cash, -50, posted_at=elsewhere)
    assert not Transaction.objects.filter(reference="raw-posted-elsewhere").exists()
    wallet.refresh_from_db()
    assert wallet.balance == 0


def test_legs_added_later_to_a_committed_transaction_are_checked_at_their_commit(wallet):
    """A transaction is checked from its own row in the database transaction that inserts it;
    legs another database transaction adds to it go through the queue and are checked too."""
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    with committed_sql() as cursor:
        txn_id = _raw_transaction(cursor, "raw-later")
        _raw_leg(cursor, txn_id, wallet.pk, 400)
        _raw_leg(cursor, txn_id, cash, -400)
    with pytest.raises(IntegrityError, match="does not balance"), committed_sql() as cursor:
        _raw_leg(cursor, txn_id, wallet.pk, 25)
    with committed_sql() as cursor:  # balanced additions are a valid (if unusual) posting
        _raw_leg(cursor, txn_id, wallet.pk, 25)
        _raw_leg(cursor, txn_id, cash, -25)
    earlier = timezone.now() - timedelta(days=3)
    with (
        pytest.raises(IntegrityError, match="its legs must carry that posted_at"),
        committed_sql() as cursor,
    ):
        _raw_leg(cursor, txn_id, wallet.pk, 5, posted_at=earlier)
    wallet.refresh_from_db()
    assert wallet.balance == 425
    assert ledger_reconcile() == []


def test_legs_written_before_their_transaction_row_are_checked_at_commit(wallet):
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    posted = timezone.now()

    def legs_then_transaction(cursor, reference: str, amounts: tuple[int, int]) -> None:
        cursor.execute("SELECT nextval(pg_get_serial_sequence('ledger_transaction', 'id'))")
        txn_id = cursor.fetchone()[0]
        _raw_leg(cursor, txn_id, wallet.pk, amounts[0], posted_at=posted)
        _raw_leg(cursor, txn_id, cash, amounts[1], posted_at=posted)
        cursor.execute(
            """
            INSERT INTO ledger_transaction (id, kind, reference, description, posted_at,
                actor_kind, actor_id, actor_label, shift)
            OVERRIDING SYSTEM VALUE
            VALUES (%s, 'deposit', %s, '', %s, 'system', '', 'raw sql', '')
            """,
            [txn_id, reference, posted],
        )

    with pytest.raises(IntegrityError, match="does not balance"), committed_sql() as cursor:
        legs_then_transaction(cursor, "raw-legs-first-unbalanced", (300, -299))
    with committed_sql() as cursor:
        legs_then_transaction(cursor, "raw-legs-first", (300, -300))
    wallet.refresh_from_db()
    assert wallet.balance == 300
    assert ledger_reconcile() == []


def test_legs_written_straight_into_a_partition_are_checked_and_move_the_wallet(wallet):
    """The parent's statement trigger does not fire for an INSERT into a partition; each
    partition has its own (casino_partition_protect)."""
    cash = house_account_id("operator_cash", "EUR", operator_id=wallet.operator_id)
    partition = f"ledger_leg_p{timezone.now():%Y%m}"
    with pytest.raises(IntegrityError, match="does not balance"), committed_sql() as cursor:
        txn_id = _raw_transaction(cursor, "raw-partition-unbalanced")
        _raw_leg(cursor, txn_id, wallet.pk, 500, into=partition)
        _raw_leg(cursor, txn_id, cash, -499, into=partition)
    with committed_sql() as cursor:
        txn_id = _raw_transaction(cursor, "raw-partition-balanced")
        _raw_leg(cursor, txn_id, wallet.pk, 700, into=partition)
        _raw_leg(cursor, txn_id, cash, -700, into=partition)
    wallet.refresh_from_db()
    assert wallet.balance == 700
    with pytest.raises(IntegrityError, match="never_negative"), committed_sql() as cursor:
        txn_id = _raw_transaction(cursor, "raw-partition-overdraft")
        _raw_leg(cursor, txn_id, wallet.pk, -701, into=partition)
        _raw_leg(cursor, txn_id, cash, 701, into=partition)
    assert ledger_reconcile() == []


def test_reconcile_finds_a_balance_tampered_with_by_a_superuser(wallet):
    fund(wallet, 100)
    assert ledger_reconcile() == []
    with transaction.atomic(), connection.cursor() as cursor:
        # Only a superuser can switch triggers off; reconciliation still notices.
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE ledger_account SET balance = 999 WHERE id = %s", [wallet.pk])
    problems = ledger_reconcile()
    assert [(p.what, p.id, p.expected, p.found) for p in problems] == [
        ("wallet_balance", wallet.pk, 100, 999)
    ]
