"""Benchmark set-up: the ledger rows of many stake debits, written in two statements.

For each bet, exactly what ``ledger.services.stake_debit`` writes: a ``stake`` transaction
referenced ``stake:<bet_ref>`` with the round's dimensions, the wallet leg and the table's
stakes-in-play leg. The legs trigger moves the wallet balances and the balance check runs at
commit as usual. (One stake_debit per bet took ~100 s for 10,000 bets on a loaded machine;
only the settlement after it is measured.) Not in the settlement's own code path: bench only.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from casino.pgarrays import int_array, text_array


def stakes_bulk(
    *,
    actor,
    table_id: int,
    round_id: int,
    currency: str,
    stakes: list[tuple[str, int, int, int]],
    dealer_id: int | None = None,
) -> None:
    """``stakes``: (bet_ref, wallet_id, operator_id, amount) per bet, in wallet order.

    Committed in chunks of ``CHUNK`` bets: at commit, the balance check of each transaction
    deletes its rows from the check queue, and with the queue's statistics unknown that is a
    scan of the queue per transaction (a single commit of 10,000 debits took ~20 s)."""
    from ledger.models import Account
    from ledger.postings import house_account_id

    in_play = house_account_id(Account.Kind.STAKES, currency, table_id=table_id)
    for first in range(0, len(stakes), CHUNK):
        _chunk(actor, table_id, round_id, currency, dealer_id, in_play,
               stakes[first : first + CHUNK])  # fmt: skip
    # Autovacuum analyses a table once 10% of it changed, seconds to a minute later; a ledger
    # in service has statistics for its size. A bulk build of seconds would leave the planner
    # thinking these tables are empty (probing legs by sequential scans), so it gets what
    # autovacuum would have done for stakes placed over minutes.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ledger_leg, ledger_transaction")


CHUNK = 500


def _chunk(actor, table_id, round_id, currency, dealer_id, in_play, stakes) -> None:
    posted_at = timezone.now()  # the transactions' and their legs' (ledger 0007)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ledger_transaction (kind, reference, description, posted_at, actor_kind,
                actor_id, actor_label, operator_id, table_id, round_id, dealer_id, shift,
                reverses_id)
            SELECT 'stake', 'stake:' || u.ref, '', %s, %s, '', %s, u.operator_id, %s, %s,
                   %s, '', NULL
            FROM unnest(%s::text[], %s::bigint[]) WITH ORDINALITY AS u(ref, operator_id, n)
            ORDER BY u.n
            RETURNING id, reference
            """,
            [
                posted_at, actor.kind, actor.label, table_id, round_id, dealer_id,
                text_array(s[0] for s in stakes), int_array(s[2] for s in stakes),
            ],
        )  # fmt: skip
        txn_of = {reference[len("stake:") :]: pk for pk, reference in cursor.fetchall()}
        txn_ids, accounts, amounts, refs = [], [], [], []
        for ref, wallet_id, _, amount in stakes:
            txn_ids += [txn_of[ref]] * 2
            accounts += [wallet_id, in_play]
            amounts += [-amount, amount]
            refs += [ref, ref]
        cursor.execute(
            """
            INSERT INTO ledger_leg (transaction_id, account_id, amount, currency, kind, bet_ref,
                                    posted_at)
            SELECT u.t, u.a, u.amount, %s, 'stake', u.ref, %s
            FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::text[])
                 AS u(t, a, amount, ref)
            """,
            [currency, posted_at, int_array(txn_ids), int_array(accounts), int_array(amounts),
             text_array(refs)],
        )  # fmt: skip
