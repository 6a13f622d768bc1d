"""Low-level writes of the ledger: house-side accounts, transaction rows and legs.

Only ``ledger/services.py`` calls these; they check nothing about funds or locks (the services
do, in the order of ``ledger/lock_objects.py``). Every leg of every posting is written by one
``INSERT … SELECT FROM unnest(…)``, whether the posting has two legs or twenty thousand; the
database then checks the balance at commit and moves the wallet balances (migration 0003).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from casino.actors import Actor
from ledger.models import Account, Transaction


@dataclass(frozen=True)
class LegSpec:
    account_id: int
    amount: int
    currency: str
    kind: str
    bet_ref: str = ""


@dataclass(frozen=True)
class Dimensions:
    """What a transaction is about; table accounting groups by these."""

    operator_id: int | None = None
    table_id: int | None = None
    round_id: int | None = None
    dealer_id: int | None = None
    shift: str = ""


def house_account_id(
    kind: str, currency: str, *, table_id: int | None = None, operator_id: int | None = None
) -> int:
    """The id of a house-side account, created on first use (never locked: see lock_objects)."""
    lookup = {"kind": kind, "currency": currency, "table_id": table_id, "operator_id": operator_id}
    found = Account.objects.filter(player_id=None, **lookup).values_list("pk", flat=True).first()
    if found is not None:
        return found
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ledger_account (kind, currency, operator_id, player_id, table_id,
                                        balance, created_at)
            VALUES (%s, %s, %s, NULL, %s, 0, %s)
            ON CONFLICT ON CONSTRAINT account_unique_identity DO NOTHING
            """,
            [kind, currency, operator_id, table_id, timezone.now()],
        )
    return Account.objects.filter(player_id=None, **lookup).values_list("pk", flat=True).get()


def transaction_insert(
    *,
    kind: str,
    reference: str,
    actor: Actor,
    dimensions: Dimensions,
    description: str = "",
    reverses_id: int | None = None,
) -> Transaction | None:
    """Insert a transaction row; None when ``reference`` already exists (nothing written)."""
    txn = Transaction(
        kind=kind,
        reference=reference,
        description=description[:255],
        posted_at=timezone.now(),
        actor_kind=actor.kind,
        actor_id=actor.id or "",
        actor_label=actor.label[:150],
        operator_id=dimensions.operator_id,
        table_id=dimensions.table_id,
        round_id=dimensions.round_id,
        dealer_id=dimensions.dealer_id,
        shift=dimensions.shift,
        reverses_id=reverses_id,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ledger_transaction (kind, reference, description, posted_at, actor_kind,
                actor_id, actor_label, operator_id, table_id, round_id, dealer_id, shift,
                reverses_id)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
            ON CONFLICT (reference) DO NOTHING
            RETURNING id
            """,
            [
                txn.kind, txn.reference, txn.description, txn.posted_at, txn.actor_kind,
                txn.actor_id, txn.actor_label, txn.operator_id, txn.table_id, txn.round_id,
                txn.dealer_id, txn.shift, txn.reverses_id,
            ],
        )  # fmt: skip
        row = cursor.fetchone()
    if row is None:
        return None
    txn.pk = row[0]
    txn._state.adding = False
    txn._state.db = "default"
    return txn


def legs_insert(transaction_id: int, legs: list[LegSpec]) -> int:
    """All legs of one transaction in a single statement; returns how many were written."""
    legs = [leg for leg in legs if leg.amount != 0]
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ledger_leg (transaction_id, account_id, amount, currency, kind, bet_ref)
            SELECT %s, u.account_id, u.amount, u.currency, u.kind, u.bet_ref
            FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[])
                 AS u(account_id, amount, currency, kind, bet_ref)
            """,
            [
                transaction_id,
                [leg.account_id for leg in legs],
                [leg.amount for leg in legs],
                [leg.currency for leg in legs],
                [leg.kind for leg in legs],
                [leg.bet_ref for leg in legs],
            ],
        )
        return cursor.rowcount
