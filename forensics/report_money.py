"""The money reports, from the ledger's legs: per table and shift, per dealer, and a player's
statement. Gaming days and shifts are the casinos' own (``tables.selectors.shift_grid``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model

from casino.errors import NotFound, ValidationFailed
from forensics.report_base import (
    MONEY,
    MONEY_COLUMNS,
    Period,
    Report,
    currency_totals,
    fetch_rows,
)
from ledger.models import Player
from ledger.selectors import AccountingFilter, legs_archived_until, table_accounting
from tables.models import Table
from tables.selectors import round_counts, shift_grid

# --- table / shift ---------------------------------------------------------------------------

GROUPINGS = ("shift", "gaming_day")


def _by_shift(
    period: Period, table_id: int | None, shift: str | None, group_by: list[str]
) -> tuple[list[dict[str, Any]], dict[tuple, dict[str, Any]]]:
    """Money (from the ledger's legs) and round counts per ``group_by`` in the casinos' gaming
    days ``period`` (only shift ``shift``, when given), keyed alike (``group_by``, currency)."""
    grid = shift_grid(
        date_from=period.date_from, date_to=period.date_to, shift=shift, table_id=table_id
    )
    money = table_accounting(
        group_by=group_by, filters=AccountingFilter(table_id=table_id), shifts=grid
    )
    rounds = {
        (*(r[d] for d in group_by), r["currency"]): r
        for r in round_counts(grid=grid, group_by=group_by)
    }
    return money, rounds


def table_shift_report(
    *,
    period: Period,
    table_id: int | None = None,
    shift: str | None = None,
    grouping: str = "shift",
) -> Report:
    """Per table and gaming day (and shift, unless ``grouping`` is "gaming_day"), in each
    casino's time zone: rounds, voids, handle, payouts, bonuses, win and hold %."""
    if grouping not in GROUPINGS:
        raise ValidationFailed(
            f"grouping is one of {', '.join(GROUPINGS)}.", errors={"grouping": ["unknown"]}
        )
    dims = ["table", "gaming_day", "shift"] if grouping == "shift" else ["table", "gaming_day"]
    money, rounds = _by_shift(period, table_id, shift, dims)
    codes = dict(Table.objects.values_list("pk", "code"))
    rows: dict[tuple, dict[str, Any]] = {}
    for item in money:
        rows[(*(item[d] for d in dims), item["currency"])] = {"rounds": 0, "voids": 0, **item}
    for key, item in rounds.items():
        row = rows.setdefault(
            key,
            {
                **dict(zip([*dims, "currency"], key, strict=True)),
                **dict.fromkeys(MONEY, 0),
                "hold_pct": None,
            },
        )
        row.update(rounds=item["rounds"], voids=item["voids"])
    out = []
    for key in sorted(rows, key=lambda k: (codes.get(k[0], ""), *k[1:])):
        row = rows[key]
        row["table_code"] = codes.get(row["table"], str(row["table"]))
        out.append(row)
    return Report(
        kind="table-shift",
        title="Table and shift report",
        period=period,
        parameters={"table": table_id, "shift": shift, "grouping": grouping},
        columns=[
            ("table_code", "Table"),
            ("gaming_day", "Gaming day"),
            *([("shift", "Shift")] if grouping == "shift" else []),
            ("currency", "Currency"),
            ("rounds", "Rounds"),
            ("voids", "Voids"),
            *MONEY_COLUMNS,
        ],
        rows=out,
        totals=currency_totals(out, ("rounds", "voids")),
        notes=[
            "Money from the ledger's legs on player wallets (stored in minor units, shown in the "
            "currency's units): handle = stakes "
            "less refunds, win = handle - payouts - bonuses, hold % = win / handle.",
            "Gaming days and shifts are the casino's, in its time zone (its shift plans): money "
            "counts in the shift it was posted in, rounds in the one they finished in. The "
            "period's dates are gaming days.",
        ],
    )


# --- dealer ---------------------------------------------------------------------------------


def dealer_report(
    *, period: Period, table_id: int | None = None, shift: str | None = None
) -> Report:
    """Per dealer: rounds dealt, voids, tables, and the money of the rounds they dealt."""
    money, rounds = _by_shift(period, table_id, shift, ["dealer"])
    rows: dict[tuple, dict[str, Any]] = {}
    for item in money:
        rows[(item["dealer"], item["currency"])] = {
            "dealer_id": item["dealer"],
            "rounds": 0,
            "voids": 0,
            "tables": 0,
            **item,
        }
    for key, item in rounds.items():
        row = rows.setdefault(
            key,
            {"dealer_id": key[0], "currency": key[1], **dict.fromkeys(MONEY, 0), "hold_pct": None},
        )
        row.update(rounds=item["rounds"], voids=item["voids"], tables=item["tables"])
    names = dict(
        get_user_model()
        .objects.filter(pk__in=[k[0] for k in rows if k[0]])
        .values_list("pk", "username")
    )
    out = []
    for key in sorted(rows, key=lambda k: (names.get(k[0], "~"), k[1])):
        row = rows[key]
        row["dealer"] = names.get(row["dealer_id"], "(no dealer)")
        out.append(row)
    return Report(
        kind="dealer",
        title="Dealer report",
        period=period,
        parameters={"table": table_id, "shift": shift},
        columns=[
            ("dealer", "Dealer"),
            ("currency", "Currency"),
            ("rounds", "Rounds"),
            ("voids", "Voids"),
            ("tables", "Tables"),
            *MONEY_COLUMNS,
        ],
        rows=out,
        totals=currency_totals(out, ("rounds", "voids")),
        notes=[
            "The dealer is the one assigned when the round opened (pinned on the round).",
            "The period's dates are the casinos' gaming days (in their time zones).",
        ],
    )


# --- player statement -------------------------------------------------------------------------

_STATEMENT_SQL = """
    SELECT l.id, t.posted_at, t.id, t.kind, t.reference, t.table_id, t.round_id, l.bet_ref,
           l.kind, l.amount, a.currency, a.id
    FROM ledger_leg l
    JOIN ledger_account a ON a.id = l.account_id
    JOIN ledger_transaction t ON t.id = l.transaction_id
    WHERE a.kind = 'wallet' AND a.player_id = %s AND t.posted_at >= %s AND t.posted_at < %s
    ORDER BY l.id
"""
# A leg's posted_at is its transaction's (ledger 0007); archived months count by their
# carry-forward (a statement never starts inside one: ``legs_archived_until``).
_OPENING_SQL = """
    SELECT a.id, a.currency, a.balance,
           coalesce((SELECT sum(l.amount) FROM ledger_leg l
                     WHERE l.account_id = a.id AND l.posted_at < %s), 0)
           + coalesce((SELECT sum(c.amount) FROM ledger_carryforward c
                       WHERE c.account_id = a.id), 0)
    FROM ledger_account a WHERE a.kind = 'wallet' AND a.player_id = %s ORDER BY a.id
"""


def player_statement(*, period: Period, player_id: int | None = None) -> Report:
    """Every movement of a player's wallets in the period with the running balance."""
    if player_id is None:
        raise ValidationFailed(
            "A player statement needs a player.", errors={"player": ["required"]}
        )
    player = Player.objects.select_related("operator").filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"Player {player_id} does not exist.")
    archived_until = legs_archived_until()
    if archived_until is not None and period.start < archived_until:
        raise ValidationFailed(
            f"The ledger's legs before {archived_until:%Y-%m-%d} (UTC) are archived "
            "(README 'Retention'): a statement must start after them.",
            errors={"date_from": [f"before {archived_until:%Y-%m-%d}: archived"]},
        )
    wallets = {
        wallet_id: {"currency": cur, "balance_now": now, "opening": int(opening)}
        for wallet_id, cur, now, opening in fetch_rows(_OPENING_SQL, [period.start, player_id])
    }
    running = {wallet_id: w["opening"] for wallet_id, w in wallets.items()}
    credits: dict[int, int] = defaultdict(int)
    debits: dict[int, int] = defaultdict(int)
    rows = []
    for (
        leg_id,
        posted,
        txn_id,
        txn_kind,
        ref,
        table,
        rnd,
        bet_ref,
        kind,
        amount,
        cur,
        wallet,
    ) in fetch_rows(_STATEMENT_SQL, [player_id, period.start, period.end]):
        running[wallet] += amount
        (credits if amount > 0 else debits)[wallet] += amount
        rows.append(
            {
                "leg_id": leg_id,
                "posted_at": posted,
                "transaction_id": txn_id,
                "transaction_kind": txn_kind,
                "reference": ref,
                "table_id": table,
                "round_id": rnd,
                "bet_ref": bet_ref,
                "kind": kind,
                "currency": cur,
                "amount": amount,
                "balance": running[wallet],
            }
        )
    totals = [
        {
            "wallet_id": wid,
            "currency": w["currency"],
            "opening": w["opening"],
            "credits": credits[wid],
            "debits": debits[wid],
            "closing": running[wid],
            "balance_now": w["balance_now"],
        }
        for wid, w in wallets.items()
    ]
    return Report(
        kind="player-statement",
        title=f"Player statement: {player} ({player.display_name})",
        period=period,
        parameters={"player": player_id},
        columns=[
            ("posted_at", "Posted (UTC)"),
            ("transaction_id", "Transaction"),
            ("transaction_kind", "Kind"),
            ("reference", "Reference"),
            ("table_id", "Table"),
            ("round_id", "Round"),
            ("bet_ref", "Bet"),
            ("kind", "Leg"),
            ("currency", "Currency"),
            ("amount", "Amount"),
            ("balance", "Balance"),
        ],
        rows=rows,
        totals=totals,
        notes=[
            "Opening balance: the wallet's legs before the period; closing = opening + "
            "credits + debits; balance_now is the wallet's balance at generation time."
        ],
    )
