"""Reads of the ledger: scoped querysets, balances, table accounting and reconciliation."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Decimal

from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch, QuerySet, Sum

from casino import replica
from casino.dbsql import month_bounds
from casino.rows import model_first, model_select_sql
from ledger.models import (
    Account,
    CarryForward,
    Correction,
    Leg,
    OperatorEvent,
    Player,
    Transaction,
    WebhookCircuit,
)


def player_list(*, operator_id: int | None) -> QuerySet[Player]:
    qs = Player.objects.select_related("operator")
    return qs if operator_id is None else qs.filter(operator_id=operator_id)


def player_get(*, pk: int, operator_id: int | None) -> Player | None:
    """One player, if ``operator_id`` (when given) is theirs; read by a statement built once
    (``casino/rows.py``): every bet and decision through the API reads its player."""
    if operator_id is None:
        return model_first(Player, model_select_sql(Player, "id = %s"), [pk])
    sql = model_select_sql(Player, "id = %s AND operator_id = %s")
    return model_first(Player, sql, [pk, operator_id])


def wallet_list(*, operator_id: int | None) -> QuerySet[Account]:
    qs = Account.objects.filter(kind=Account.Kind.WALLET).select_related("player")
    return qs if operator_id is None else qs.filter(operator_id=operator_id)


def transaction_list(*, operator_id: int | None) -> QuerySet[Transaction]:
    """Transactions with their legs; an operator sees only transactions touching its accounts,
    and of those only the legs on its own accounts (a round's settlement spans operators)."""
    legs = Leg.objects.order_by("pk")
    qs = Transaction.objects.all()
    if operator_id is not None:
        own = Leg.objects.filter(transaction=OuterRef("pk"), account__operator_id=operator_id)
        qs = qs.filter(Exists(own))
        legs = legs.filter(account__operator_id=operator_id)
    return qs.prefetch_related(Prefetch("legs", queryset=legs))


def correction_list() -> QuerySet[Correction]:
    return Correction.objects.select_related("original", "requested_by", "decided_by")


def webhook_circuit_of(*, operator_id: int) -> WebhookCircuit:
    """The operator endpoint's circuit breaker (closed until its first delivery attempt)."""
    return WebhookCircuit.objects.filter(operator_id=operator_id).first() or WebhookCircuit(
        operator_id=operator_id
    )


def operator_event_list(*, operator_id: int | None) -> QuerySet[OperatorEvent]:
    qs = OperatorEvent.objects.all()
    return qs if operator_id is None else qs.filter(operator_id=operator_id)


def legs_total(account: Account) -> int:
    """The account's balance recomputed from its legs (a house-side account's only balance):
    its archived months' carry-forward plus its legs still attached (models, "Balances")."""
    legs = Leg.objects.filter(account=account).aggregate(total=Sum("amount"))["total"] or 0
    carried = CarryForward.objects.filter(account=account).aggregate(total=Sum("amount"))
    return legs + (carried["total"] or 0)


def house_account_list() -> list[tuple[Account, int]]:
    """House-side accounts with their derived balances (a GROUP BY of the legs, one of the
    archived months' carry-forward)."""
    totals: dict[int, int] = defaultdict(int)
    for rows in (
        Leg.objects.exclude(account__kind=Account.Kind.WALLET),
        CarryForward.objects.exclude(account__kind=Account.Kind.WALLET),
    ):
        for account_id, total in rows.values_list("account_id").annotate(total=Sum("amount")):
            totals[account_id] += total
    accounts = Account.objects.exclude(kind=Account.Kind.WALLET).order_by("pk")
    return [(account, totals.get(account.pk, 0)) for account in accounts]


def legs_archived_until() -> datetime | None:
    """Legs posted before this instant may be archived (the end of the latest month of legs
    carried forward); None while no month of legs has been."""
    last = CarryForward.objects.order_by("-month").values_list("month", flat=True).first()
    if last is None:
        return None
    return month_bounds(last)[1]


# --- Reconciliation -----------------------------------------------------------------------


@dataclass(frozen=True)
class Discrepancy:
    what: str
    id: int
    expected: int
    found: int


def ledger_reconcile() -> list[Discrepancy]:
    """Everything that disagrees with the legs: wallet balances (against their archived
    months' carry-forward plus their legs), unbalanced transactions (among the legs still
    attached: a transaction's legs are all in one month) and archived months whose
    carry-forward does not sum to zero per currency (every transaction in them balanced).

    All should be impossible (the database maintains balances and refuses unbalanced
    commits); this is the independent check that proves it, for auditors and monitoring. The
    carry-forward's sums against the archived legs themselves: ``carry_forward_reconcile``.
    """
    out = []
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT id, legs, balance FROM (
                SELECT a.id, a.balance, coalesce(sum(l.amount), 0) + coalesce(
                    (SELECT sum(c.amount) FROM ledger_carryforward c WHERE c.account_id = a.id), 0
                ) AS legs
                FROM ledger_account a LEFT JOIN ledger_leg l ON l.account_id = a.id
                WHERE a.kind = 'wallet'
                GROUP BY a.id
            ) AS wallets
            WHERE legs <> balance
            ORDER BY id
            """
        )
        out += [Discrepancy("wallet_balance", *row) for row in cursor.fetchall()]
        cursor.execute(
            """
            SELECT transaction_id, 0, sum(amount) FROM ledger_leg
            GROUP BY transaction_id, currency HAVING sum(amount) <> 0 ORDER BY transaction_id
            """
        )
        out += [Discrepancy("transaction_sum", *row) for row in cursor.fetchall()]
        cursor.execute(
            """
            SELECT to_char(month, 'YYYYMM')::int, 0, sum(amount) FROM ledger_carryforward
            GROUP BY month, currency HAVING sum(amount) <> 0 ORDER BY month
            """
        )
        out += [Discrepancy("carry_forward_sum", *row) for row in cursor.fetchall()]
    return out


def carry_forward_reconcile(*, schema: str = "casino_archive") -> dict[str, list[Discrepancy]]:
    """Each archived month's carry-forward against its legs in the archive schema, where its
    partition still is (``ledger_leg_p<YYYYMM>``): per archived month, the accounts whose
    carried sum or leg count differs (``Discrepancy(what, account, carried, archived)``);
    a month whose archived partition is gone (dropped after its export) is absent. Leg counts
    that differ while the sums agree are reported as ``carry_forward_legs``."""
    out: dict[str, list[Discrepancy]] = {}
    months = CarryForward.objects.order_by("month").values_list("month", flat=True).distinct()
    with connection.cursor() as cursor:
        for month in months:
            name = f"ledger_leg_p{month:%Y%m}"
            cursor.execute("SELECT to_regclass(%s)", [f"{schema}.{name}"])
            if cursor.fetchone()[0] is None:
                continue
            cursor.execute(
                f"""
                SELECT coalesce(c.account_id, x.account_id), c.amount, x.amount, c.legs, x.legs
                FROM (SELECT account_id, amount, legs FROM ledger_carryforward
                      WHERE month = %s) AS c
                FULL JOIN (SELECT account_id, sum(amount) AS amount, count(*) AS legs
                           FROM "{schema}"."{name}" GROUP BY account_id) AS x
                    ON x.account_id = c.account_id
                WHERE c.amount IS DISTINCT FROM x.amount OR c.legs IS DISTINCT FROM x.legs
                ORDER BY 1
                """,
                [month],
            )
            out[f"{month:%Y-%m}"] = [
                Discrepancy("carry_forward", account, carried or 0, archived or 0)
                if carried != archived
                else Discrepancy("carry_forward_legs", account, legs or 0, found or 0)
                for account, carried, archived, legs, found in cursor.fetchall()
            ]
    return out


# --- Table accounting ---------------------------------------------------------------------

ACCOUNTING_DIMENSIONS = {
    "table": "t.table_id",
    "operator": "a.operator_id",
    "day": "(t.posted_at AT TIME ZONE 'UTC')::date",
    "shift": "t.shift",
    "dealer": "t.dealer_id",
}

# With a ShiftGrid: the casino's real gaming day and shift instead of the UTC day and the
# posting's own label.
SHIFT_DIMENSIONS = {
    **{k: v for k, v in ACCOUNTING_DIMENSIONS.items() if k not in ("day", "shift")},
    "gaming_day": "s.gaming_day",
    "shift": "s.shift",
}


@dataclass(frozen=True)
class ShiftGrid:
    """Gaming days and shifts for table accounting, computed by the tables app (which knows the
    casinos' time zones and shift plans) and passed in as plain values: each table's casino and
    each casino's shifts as UTC intervals [start, end). A leg counts in the shift containing its
    transaction's ``posted_at``; postings outside every interval are left out, so the grid's
    gaming days are the period."""

    table_casino: dict[int, int]
    spans: list[tuple[int, date, str, datetime, datetime]]  # casino, gaming day, shift, start, end


@dataclass(frozen=True)
class AccountingFilter:
    date_from: date | None = None
    date_to: date | None = None
    table_id: int | None = None
    operator_id: int | None = None
    dealer_id: int | None = None
    currency: str | None = None


def hold_pct(win: int, handle: int) -> Decimal | None:
    """Win as a percentage of handle, to the cent (half-even); None without handle."""
    if not handle:
        return None
    return (Decimal(win) * 100 / Decimal(handle)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)


def table_accounting(
    *, group_by: list[str], filters: AccountingFilter, shifts: ShiftGrid | None = None
) -> list[dict]:
    """Handle, payouts, bonuses, win and hold % over the legs of player wallets at tables.

    handle = stakes debited minus stakes refunded; payouts = stake returned plus winnings;
    win = handle - payouts - bonuses; hold % = win / handle. Corrections count: a reversal's
    legs carry the original's kinds negated, so they cancel it in the same GROUP BY. Days are
    UTC posting days (a stake counts on the day it was placed, a payout on the day it was
    paid). Since every transaction balances, the win equals the sum of the same transactions'
    legs on the house side (stakes in play, house, bonus pool), which the tests check.

    With ``shifts``, the period is the grid's gaming days (``date_from``/``date_to`` are not
    applied) and ``gaming_day`` and ``shift`` group by the casino's real shifts.
    """
    dimensions = ACCOUNTING_DIMENSIONS if shifts is None else SHIFT_DIMENSIONS
    unknown = set(group_by) - dimensions.keys()
    if unknown:
        raise ValueError(f"unknown dimensions {sorted(unknown)}")
    dims = [d for d in dimensions if d in group_by]
    select = [f"{dimensions[d]} AS {d}" for d in dims]
    where = ["a.kind = 'wallet'", "t.table_id IS NOT NULL"]
    params: list = []
    joins = ""
    if shifts is not None:
        columns = [list(c) for c in zip(*shifts.spans, strict=True)] or [[]] * 5
        joins = """
        JOIN unnest(%s::bigint[], %s::bigint[]) AS tc(table_id, casino_id)
            ON tc.table_id = t.table_id
        JOIN unnest(%s::bigint[], %s::date[], %s::text[], %s::timestamptz[], %s::timestamptz[])
            AS s(casino_id, gaming_day, shift, starts, ends)
            ON s.casino_id = tc.casino_id AND t.posted_at >= s.starts AND t.posted_at < s.ends
        """
        params += [list(shifts.table_casino), list(shifts.table_casino.values())]
        params += columns
        filters = replace(filters, date_from=None, date_to=None)
    for column, value in (
        ("t.table_id", filters.table_id),
        ("a.operator_id", filters.operator_id),
        ("t.dealer_id", filters.dealer_id),
        ("l.currency", filters.currency),
    ):
        if value is not None:
            where.append(f"{column} = %s")
            params.append(value)
    if filters.date_from is not None:
        where.append(f"{ACCOUNTING_DIMENSIONS['day']} >= %s")
        params.append(filters.date_from)
    if filters.date_to is not None:
        where.append(f"{ACCOUNTING_DIMENSIONS['day']} <= %s")
        params.append(filters.date_to)
    group = [*(dimensions[d] for d in dims), "l.currency"]
    sql = f"""
        SELECT {", ".join([*select, "l.currency AS currency"])},
            -coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('stake', 'stake_refund')), 0),
            coalesce(sum(l.amount) FILTER (WHERE l.kind = 'payout'), 0),
            coalesce(sum(l.amount) FILTER (WHERE l.kind = 'bonus'), 0)
        FROM ledger_leg l
        JOIN ledger_transaction t ON t.id = l.transaction_id
        JOIN ledger_account a ON a.id = l.account_id{joins}
        WHERE {" AND ".join(where)}
        GROUP BY {", ".join(group)}
        ORDER BY {", ".join(group)}
    """
    with replica.connection().cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        values = dict(zip([*dims, "currency"], row[: len(dims) + 1], strict=True))
        handle, payouts, bonuses = (int(x) for x in row[len(dims) + 1 :])
        win = handle - payouts - bonuses
        values.update(
            handle=handle, payouts=payouts, bonuses=bonuses, win=win, hold_pct=hold_pct(win, handle)
        )
        out.append(values)
    return out
