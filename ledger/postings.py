"""Low-level writes of the ledger: house-side accounts, transaction rows and legs.

Only ``ledger/services/`` calls these; they check nothing about funds or locks (the services
do, in the order of ``ledger/lock_objects.py``). Every leg of every posting is written by one
``INSERT … SELECT FROM unnest(…)``, whether the posting has two legs or twenty thousand; the
database then checks the balance at commit and moves the wallet balances (migration 0003).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection
from django.utils import timezone

from casino.actors import Actor
from casino.pgarrays import int_array, text_array
from casino.rows import execute_prepared
from ledger.models import Account, Transaction


class LegSpec(NamedTuple):
    """One leg to post. A tuple, not a dataclass: a settlement builds 20,000 of them."""

    account_id: int | None  # None: the house-side account named by ``posting_insert``'s house
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
    txn = _transaction_row(kind, reference, actor, dimensions, description, reverses_id)
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
    return _saved(txn, row[0])


def _transaction_row(
    kind: str,
    reference: str,
    actor: Actor,
    dimensions: Dimensions,
    description: str = "",
    reverses_id: int | None = None,
) -> Transaction:
    """The row a posting writes (by SQL, not ``save``)."""
    return Transaction(
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


def _saved(txn: Transaction, pk: int) -> Transaction:
    """``txn`` as the database now holds it under ``pk``."""
    txn.pk = pk
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
                int_array(leg.account_id for leg in legs),
                int_array(leg.amount for leg in legs),
                text_array(leg.currency for leg in legs),
                text_array(leg.kind for leg in legs),
                text_array(leg.bet_ref for leg in legs),
            ],
        )
        return cursor.rowcount


@dataclass(frozen=True)
class HouseAccount:
    """A house-side account named by what it is (see ``house_account_id``)."""

    kind: str
    currency: str
    table_id: int | None = None
    operator_id: int | None = None


_POSTING_SQL = """
    WITH h AS (
        SELECT id FROM ledger_account
        WHERE kind = %(h_kind)s AND currency = %(h_currency)s AND player_id IS NULL
          AND table_id IS NOT DISTINCT FROM %(h_table)s::bigint
          AND operator_id IS NOT DISTINCT FROM %(h_operator)s::bigint
    ), t AS (
        INSERT INTO ledger_transaction (kind, reference, description, posted_at, actor_kind,
            actor_id, actor_label, operator_id, table_id, round_id, dealer_id, shift,
            reverses_id)
        VALUES (%(kind)s, %(reference)s, %(description)s, %(posted_at)s, %(actor_kind)s,
            %(actor_id)s, %(actor_label)s, %(operator_id)s, %(table_id)s, %(round_id)s,
            %(dealer_id)s, %(shift)s, NULL)
        ON CONFLICT (reference) DO NOTHING
        RETURNING id
    ), l AS (
        INSERT INTO ledger_leg (transaction_id, account_id, amount, currency, kind, bet_ref)
        SELECT t.id, coalesce(u.account_id, h.id), u.amount, u.currency, u.kind, u.bet_ref
        FROM t CROSS JOIN h,
             unnest(%(accounts)s::bigint[], %(amounts)s::bigint[], %(currencies)s::text[],
                    %(kinds)s::text[], %(refs)s::text[])
             AS u(account_id, amount, currency, kind, bet_ref)
        WHERE u.amount <> 0
    )
    SELECT (SELECT id FROM t), (SELECT id FROM h)
"""


def posting_insert(
    *,
    kind: str,
    reference: str,
    actor: Actor,
    dimensions: Dimensions,
    house: HouseAccount,
    legs: list[LegSpec],
) -> Transaction | None:
    """``transaction_insert`` and ``legs_insert`` in one round trip, the house-side account
    (``house``, for the legs whose ``account_id`` is None) looked up in the same statement.

    None when ``reference`` already exists (nothing written). The first posting on a house
    account not created yet falls back to ``house_account_id`` and ``legs_insert``."""
    txn = _transaction_row(kind, reference, actor, dimensions)
    with connection.cursor() as cursor:
        execute_prepared(  # planned once per connection: a stake is posted with every bet
            cursor,
            _POSTING_SQL,
            {
                "h_kind": house.kind,
                "h_currency": house.currency,
                "h_table": house.table_id,
                "h_operator": house.operator_id,
                "kind": txn.kind,
                "reference": txn.reference,
                "description": txn.description,
                "posted_at": txn.posted_at,
                "actor_kind": txn.actor_kind,
                "actor_id": txn.actor_id,
                "actor_label": txn.actor_label,
                "operator_id": txn.operator_id,
                "table_id": txn.table_id,
                "round_id": txn.round_id,
                "dealer_id": txn.dealer_id,
                "shift": txn.shift,
                "accounts": int_array(leg.account_id for leg in legs),
                "amounts": int_array(leg.amount for leg in legs),
                "currencies": text_array(leg.currency for leg in legs),
                "kinds": text_array(leg.kind for leg in legs),
                "refs": text_array(leg.bet_ref for leg in legs),
            },
        )
        txn_id, house_id = cursor.fetchone()
    if txn_id is None:
        return None
    if house_id is None:  # the house account's first posting: create it, then the legs
        house_id = house_account_id(
            house.kind, house.currency, table_id=house.table_id, operator_id=house.operator_id
        )
        legs_insert(txn_id, [leg._replace(account_id=leg.account_id or house_id) for leg in legs])
    return _saved(txn, txn_id)
