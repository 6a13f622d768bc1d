"""Every row lock the ledger takes, named in one place.

Lock order
==========
Any code path that takes more than one of these takes them in this order, and never takes an
earlier one after a later one, so two money movements can wait for each other but never
deadlock:

0. The caller's own locks: the API's Idempotency-Key advisory lock (casino/api/idempotency.py),
   then the tables app's rows (round, seat, bet) when it calls ``stake_debit`` or
   ``round_settlement_post`` inside its transaction. Tables rows come before ledger rows, but
   for one: a bet locks its box after its wallet (``tables/lock_objects.py``; nothing that
   locks a box takes a wallet after it).
1. A correction row being decided (``correction_for_decision``).
2. The round advisory lock (``round_lock``): settlement, stake refunds and corrections of a
   round's transactions serialise on it, so a bet can't be refunded while its round is
   being settled (which would pay its stake twice).
3. Wallet account rows, ascending id, ``FOR NO KEY UPDATE`` (``wallets_for_update``, in bulk
   ``wallet_rows_for_update``; a bet locks its one player's wallet with
   ``player_wallet_for_update``, right after the round row, before writing anything). The
   legs trigger then updates exactly these rows, so it takes no new locks. NO KEY UPDATE lets
   concurrent inserts of legs (whose foreign keys take KEY SHARE on the account) proceed.

House-side accounts (stakes in play, house, bonus pool, operator cash) are never locked: their
balances are derived from legs, which are only inserted. Placing a bet locks only the player's
own wallet row, so tables never serialise on a shared house row.

Outside money transactions, webhook delivery locks one ``OperatorEvent`` row at a time with
``SKIP LOCKED`` (``operator_event_for_delivery``), then its operator's ``WebhookCircuit`` row
(``webhook_circuit_for_delivery``: the in-flight bound and the breaker), and takes none of the
locks above. No lock is held during the HTTP call itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import NamedTuple

from django.db import connection
from django.db.models import QuerySet

from casino.pgarrays import int_array
from casino.rows import Along, execute_prepared, model_from_row, model_select_sql
from ledger.models import Account, Correction, OperatorEvent, WebhookCircuit


def correction_for_decision(pk: int) -> QuerySet[Correction]:
    return Correction.objects.select_for_update().filter(pk=pk)


def _round_lock_id(round_id: int) -> int:
    digest = hashlib.sha256(f"ledger-round:{round_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def round_lock(round_id: int) -> None:
    """Transaction-scoped advisory lock on a round's ledger postings."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_round_lock_id(round_id)])


def wallets_for_update(ids: Iterable[int]) -> QuerySet[Account]:
    """Wallet rows locked in ascending id order (evaluate it to take the locks)."""
    return (
        Account.objects.filter(pk__in=sorted(set(ids)), kind=Account.Kind.WALLET)
        .order_by("pk")
        .select_for_update(no_key=True)
    )


def player_wallet_for_update(
    player_id: int, currency: str, *, along: Along | None = None
) -> Account | None:
    """One player's wallet in one currency, locked like ``wallets_for_update`` (a bet locks
    only its player's wallet, found and locked in one round trip, by a statement built once:
    ``casino/rows.py``); ``along`` is the caller's statement sent in the same round trip (a
    bet's box lock, after the wallet's)."""
    statement = (
        model_select_sql(
            Account, "kind = 'wallet' AND player_id = %s AND currency = %s",
            lock="FOR NO KEY UPDATE",
        ),
        [player_id, currency],
    )  # fmt: skip
    with connection.cursor() as cursor:
        if along is None:
            execute_prepared(cursor, *statement)
            rows = cursor.fetchall()
        else:
            rows = along.send_with(cursor, statement)
    return model_from_row(Account, rows[0]) if rows else None


class WalletRow(NamedTuple):
    id: int
    currency: str
    balance: int
    operator_id: int


_WALLETS_FOR_UPDATE_SQL = """
    SELECT id, currency, balance, operator_id FROM ledger_account
    WHERE id = ANY(%s::bigint[]) AND kind = 'wallet'
    ORDER BY id FOR NO KEY UPDATE
"""


def wallet_rows_for_update(ids: Iterable[int]) -> dict[int, WalletRow]:
    """The same lock as ``wallets_for_update`` for the bulk settlement path: one round trip,
    tuples instead of models (a round may pay 10,000 wallets). Ids that are not wallets are
    absent from the answer."""
    with connection.cursor() as cursor:
        cursor.execute(_WALLETS_FOR_UPDATE_SQL, [int_array(sorted(set(ids)))])
        return {row[0]: WalletRow(*row) for row in cursor.fetchall()}


def operator_event_for_delivery(pk: int) -> QuerySet[OperatorEvent]:
    return (
        OperatorEvent.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("operator")
        .filter(pk=pk)
    )


def webhook_circuit_for_delivery(operator_id: int) -> WebhookCircuit:
    """The operator's circuit row, created on first use, locked (claims and outcomes of one
    operator's deliveries take turns on it; other operators never wait)."""
    WebhookCircuit.objects.get_or_create(operator_id=operator_id)
    return WebhookCircuit.objects.select_for_update().get(operator_id=operator_id)
