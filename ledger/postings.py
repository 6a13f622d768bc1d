"""Low-level SQL of the ledger: house-side accounts and wallets, transaction rows and legs,
and the settlement's stake check and ``round.settled`` events.

Only ``ledger/services/`` calls these, and the services hold no SQL of their own. They check
nothing about funds or locks (the services do, in the order of ``ledger/lock_objects.py``).
Every leg of every posting is written by one ``INSERT … SELECT FROM unnest(…)``, whether the
posting has two legs or twenty thousand; the database then checks the balance at commit and
moves the wallet balances (migration 0003).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from django.db import connection
from django.utils import timezone

from casino.actors import Actor
from casino.pgarrays import int_array, text_array
from casino.rows import Along, execute_prepared
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


def wallet_insert(*, operator_id: int, player_id: int, currency: str) -> bool:
    """Open the player's wallet in ``currency`` unless it exists: True when this call created
    it (a concurrent opening of the same wallet writes nothing: ON CONFLICT DO NOTHING)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ledger_account (kind, currency, operator_id, player_id, table_id,
                                        balance, created_at)
            VALUES ('wallet', %s, %s, %s, NULL, 0, %s)
            ON CONFLICT ON CONSTRAINT account_unique_identity DO NOTHING
            RETURNING id
            """,
            [currency, operator_id, player_id, timezone.now()],
        )
        return cursor.fetchone() is not None


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


def legs_insert(txn: Transaction, legs: list[LegSpec]) -> int:
    """All legs of one transaction in a single statement; returns how many were written.
    Each leg carries the transaction's ``posted_at`` (its month partition; the database
    refuses any other at commit)."""
    legs = [leg for leg in legs if leg.amount != 0]
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ledger_leg (transaction_id, account_id, amount, currency, kind, bet_ref,
                                    posted_at)
            SELECT %s, u.account_id, u.amount, u.currency, u.kind, u.bet_ref, %s
            FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[])
                 AS u(account_id, amount, currency, kind, bet_ref)
            """,
            [
                txn.pk,
                txn.posted_at,
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
        INSERT INTO ledger_leg (transaction_id, account_id, amount, currency, kind, bet_ref,
                                posted_at)
        SELECT t.id, coalesce(u.account_id, h.id), u.amount, u.currency, u.kind, u.bet_ref,
               %(posted_at)s
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
    along: Along | None = None,
) -> Transaction | None:
    """``transaction_insert`` and ``legs_insert`` in one round trip, the house-side account
    (``house``, for the legs whose ``account_id`` is None) looked up in the same statement;
    ``along``, a caller's statement, is sent in the same round trip (``Along``).

    None when ``reference`` already exists (nothing written). The first posting on a house
    account not created yet falls back to ``house_account_id`` and ``legs_insert``."""
    txn = _transaction_row(kind, reference, actor, dimensions)
    with connection.cursor() as cursor:
        posting = (  # planned once per connection: a stake is posted with every bet
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
        if along is None:
            execute_prepared(cursor, *posting)
            txn_id, house_id = cursor.fetchone()
        else:
            [(txn_id, house_id)] = along.send_with(cursor, posting)
    if txn_id is None:
        return None
    txn = _saved(txn, txn_id)
    if house_id is None:  # the house account's first posting: create it, then the legs
        house_id = house_account_id(
            house.kind, house.currency, table_id=house.table_id, operator_id=house.operator_id
        )
        legs_insert(txn, [leg._replace(account_id=leg.account_id or house_id) for leg in legs])
    return txn


# Per bet, an index lookup by bet_ref (a handful of legs each): the cost follows the round's
# size, not the size of the table's stakes-in-play history. ``bet_ref <> ''`` lets the planner
# use the partial index ``leg_bet_ref_idx``.
_STAKE_CHECK_SQL = """
    SELECT u.bet_ref, u.stake, u.in_play FROM (
        SELECT x.bet_ref, sum(x.stake) AS stake,
               (SELECT coalesce(sum(l.amount), 0) FROM ledger_leg AS l
                WHERE l.bet_ref = x.bet_ref AND l.bet_ref <> '' AND l.account_id = %s) AS in_play
        FROM unnest(%s::text[], %s::bigint[]) AS x(bet_ref, stake)
        GROUP BY x.bet_ref
    ) AS u
    WHERE u.in_play <> u.stake
    ORDER BY u.bet_ref
    LIMIT 5
"""


class StakeMismatchRow(NamedTuple):
    bet_ref: str
    stake: int  # the lines' stakes of the bet, summed
    in_play: int  # the bet's stake in play on the account


def stakes_in_play_mismatches(
    *, in_play_account_id: int, bet_refs: Sequence[str], stakes: Sequence[int]
) -> list[StakeMismatchRow]:
    """The first five bets (by bet_ref) whose line stakes, summed per bet, differ from their
    stake in play on ``in_play_account_id``; empty when every bet's stakes add up. One
    statement whatever the number of lines."""
    with connection.cursor() as cursor:
        cursor.execute(
            _STAKE_CHECK_SQL, [in_play_account_id, text_array(bet_refs), int_array(stakes)]
        )
        return [StakeMismatchRow(*row) for row in cursor.fetchall()]


_SETTLED_EVENTS_SQL = """
    INSERT INTO ledger_operatorevent (public_id, operator_id, kind, payload, created_at,
                                      transaction_id, delivery, attempts, next_attempt_at)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), a.operator_id, %(kind)s,
           json_build_object(
               'transaction_id', %(txn)s, 'round_id', %(round)s, 'table_id', %(table)s,
               'currency', %(currency)s,
               'bets', json_agg(json_build_object(
                   'bet_ref', u.bet_ref, 'line', u.line, 'wallet_id', u.wallet_id,
                   'player_id', a.player_id, 'stake', u.stake, 'payout', u.payout,
                   'bonus', u.bonus, 'result', u.result, 'bonus_kind', u.bonus_kind)
                   ORDER BY u.n)),
           %(now)s, %(txn)s,
           CASE WHEN o.webhook_url = '' THEN 'not_configured'
                WHEN o.webhook_event_types <> '{}' AND NOT %(kind)s = ANY(o.webhook_event_types)
                THEN 'not_subscribed'
                ELSE 'pending' END, 0, %(now)s
    FROM unnest(%(bet_ref)s::text[], %(line)s::bigint[], %(wallet)s::bigint[],
                %(stake)s::bigint[], %(payout)s::bigint[], %(bonus)s::bigint[],
                %(result)s::text[], %(bonus_kind)s::text[]) WITH ORDINALITY
         AS u(bet_ref, line, wallet_id, stake, payout, bonus, result, bonus_kind, n)
    JOIN ledger_account AS a ON a.id = u.wallet_id
    JOIN ledger_operator AS o ON o.id = a.operator_id
    GROUP BY a.operator_id, o.webhook_url, o.webhook_event_types
    RETURNING id, delivery
"""


class SettledLine(Protocol):
    """What the settled events say of each line (``ledger.services.SettlementLine``)."""

    @property
    def bet_ref(self) -> str: ...
    @property
    def wallet_id(self) -> int: ...
    @property
    def stake(self) -> int: ...
    @property
    def payout(self) -> int: ...
    @property
    def bonus(self) -> int: ...
    @property
    def result(self) -> str: ...
    @property
    def bonus_kind(self) -> str: ...


def settled_events_insert(
    *,
    kind: str,
    transaction_id: int,
    round_id: int,
    table_id: int,
    currency: str,
    lines: Sequence[SettledLine],
) -> list[int]:
    """One ``kind`` event per operator with players in the settlement (its bets' lines, in
    order), in one INSERT … SELECT whatever the number of lines; the ids of those whose
    webhook delivery is pending (the others are feed-only: no webhook, or not subscribed).

    Each line carries its number within its bet (``line``, from 1): a split bet's two hands
    may settle alike, and without it an integrator de-duplicating by ``bet_ref`` would drop
    one of them."""
    numbers: dict[str, int] = defaultdict(int)
    line_numbers = []
    for line in lines:
        numbers[line.bet_ref] += 1
        line_numbers.append(numbers[line.bet_ref])
    with connection.cursor() as cursor:
        cursor.execute(
            _SETTLED_EVENTS_SQL,
            {
                "kind": kind,
                "txn": transaction_id,
                "round": round_id,
                "table": table_id,
                "currency": currency,
                "now": timezone.now(),
                "bet_ref": text_array(line.bet_ref for line in lines),
                "line": int_array(line_numbers),
                "wallet": int_array(line.wallet_id for line in lines),
                "stake": int_array(line.stake for line in lines),
                "payout": int_array(line.payout for line in lines),
                "bonus": int_array(line.bonus for line in lines),
                "result": text_array(line.result for line in lines),
                "bonus_kind": text_array(line.bonus_kind for line in lines),
            },
        )
        return [pk for pk, delivery in cursor.fetchall() if delivery == "pending"]
