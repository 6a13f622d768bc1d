"""The reports of the pit, the auditors and the regulator, as plain data.

Each builder returns a ``Report``: its period (UTC days, both inclusive), generation time and
software version, columns, rows, totals and notes; ``forensics/exports.py`` renders it as CSV or
PDF, the admin as HTML, the API as JSON. Money figures come from the ledger's legs (through
``ledger.selectors.table_accounting`` or read-only SQL over the ledger tables), so every
report reconciles with the ledger; counts of rounds, voids and exceptions come from the rounds
and the audit log. ``report_generate`` is the one entry point: it records who read which
report (``audit.viewed``), as GLI-19 asks for reads.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from audit import events, signing
from audit.canonical import canonical_json, sha256_hex
from audit.models import AuditEvent
from casino import replica
from casino.actors import Actor
from casino.errors import NotFound, ValidationFailed
from casino.version import software_version
from ledger.models import Player
from ledger.selectors import AccountingFilter, hold_pct, table_accounting
from tables import engine as eng
from tables.models import PayoutScheduleVersion, RuleSetVersion, Shoe, Table
from tables.selectors import round_counts, shift_grid
from tables.services import rtp_figures_ensure

Z95 = 1.959963984540054
DEFAULT_DAYS = 30


@dataclass(frozen=True)
class Period:
    date_from: date
    date_to: date

    @classmethod
    def of(cls, date_from: date | None = None, date_to: date | None = None) -> Period:
        date_to = date_to or timezone.now().astimezone(UTC).date()
        date_from = date_from or date_to - timedelta(days=DEFAULT_DAYS - 1)
        if date_from > date_to:
            raise ValidationFailed(
                "date_from is after date_to.", errors={"date_from": ["after date_to"]}
            )
        return cls(date_from, date_to)

    @property
    def start(self) -> datetime:
        return datetime.combine(self.date_from, time.min, tzinfo=UTC)

    @property
    def end(self) -> datetime:
        """Exclusive: midnight after the last day."""
        return datetime.combine(self.date_to + timedelta(days=1), time.min, tzinfo=UTC)

    def __str__(self) -> str:
        return f"{self.date_from.isoformat()} to {self.date_to.isoformat()} (UTC, inclusive)"


@dataclass
class Report:
    kind: str
    title: str
    period: Period
    columns: list[tuple[str, str]]  # (key, label)
    rows: list[dict[str, Any]]
    totals: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    chart: list[dict[str, Any]] | None = None
    generated_at: datetime = field(default_factory=timezone.now)
    software_version: str = field(default_factory=software_version)
    generated_by: str = ""
    # sha256 of ``report_data`` in canonical JSON, and its signature (``report_seal``)
    digest: str = ""
    signature: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["period"] = {
            "date_from": self.period.date_from,
            "date_to": self.period.date_to,
            "text": str(self.period),
        }
        data["columns"] = [{"key": k, "label": label} for k, label in self.columns]
        return data

    def label(self, key: str) -> str:
        """The readable header of a column or totals key (never a raw key like hold_pct)."""
        return dict(self.columns).get(key) or LABELS.get(key) or key.replace("_", " ").capitalize()


# Headers of totals keys that are not among a report's columns.
LABELS = {
    "currency": "Currency",
    "rounds": "Rounds",
    "voids": "Voids",
    "handle": "Handle",
    "payouts": "Payouts",
    "bonuses": "Bonuses",
    "win": "Win",
    "hold_pct": "Hold %",
    "returned": "Returned",
    "wallet_id": "Wallet",
    "opening": "Opening balance",
    "credits": "Credits",
    "debits": "Debits",
    "closing": "Closing balance",
    "balance_now": "Balance now",
    "category": "Category",
    "count": "Count",
    "shuffles": "Shuffles",
    "flagged": "Flagged",
}
# Values in integer minor units of the row's ``currency``: shown by the currency's exponent.
MONEY_KEYS = frozenset(
    {
        "handle",
        "payouts",
        "bonuses",
        "win",
        "returned",
        "amount",
        "balance",
        "opening",
        "credits",
        "debits",
        "closing",
        "balance_now",
    }
)


def report_data(report: Report) -> dict[str, Any]:
    """What a report's digest covers, JSON-safe (decimals and dates as strings): everything
    but the digest and the signature themselves."""
    data = report.as_dict()
    data.pop("digest")
    data.pop("signature")
    return json.loads(json.dumps(data, default=_json_default))


def _json_default(value: Any) -> str:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def report_seal(report: Report) -> Report:
    """Set the report's digest (sha256 of ``report_data`` in canonical JSON) and sign it with
    the audit signing key, so a printed or exported report can be checked against its data."""
    report.digest = sha256_hex(canonical_json(report_data(report)))
    # Only ``signing.sign`` is relied on: the signing scheme (algorithm, key ids, rotation) is
    # the signing module's, and is named here when it says so.
    report.signature = {
        "algorithm": str(getattr(signing, "ALGORITHM", "")),
        "key_id": str(signing.key_id()) if hasattr(signing, "key_id") else "",
        "value": str(signing.sign(report.digest.encode("ascii"))),
    }
    return report


def _fetch(sql: str, params: list | dict) -> list[tuple]:
    with replica.connection().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


MONEY = ("handle", "payouts", "bonuses", "win")


def _currency_totals(rows: list[dict[str, Any]], counts: tuple[str, ...] = ()) -> list[dict]:
    totals: dict[str, dict[str, Any]] = {}
    for row in rows:
        cur = row.get("currency") or ""
        total = totals.setdefault(cur, {"currency": cur, **dict.fromkeys((*counts, *MONEY), 0)})
        for key in (*counts, *MONEY):
            total[key] += row.get(key) or 0
    for total in totals.values():
        total["hold_pct"] = hold_pct(total["win"], total["handle"])
    return [totals[c] for c in sorted(totals)]


MONEY_COLUMNS = [
    ("handle", "Handle"),
    ("payouts", "Payouts"),
    ("bonuses", "Bonuses"),
    ("win", "Win"),
    ("hold_pct", "Hold %"),
]


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
        totals=_currency_totals(out, ("rounds", "voids")),
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
        totals=_currency_totals(out, ("rounds", "voids")),
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
_OPENING_SQL = """
    SELECT a.id, a.currency, a.balance,
           coalesce((SELECT sum(l.amount) FROM ledger_leg l
                     JOIN ledger_transaction t ON t.id = l.transaction_id
                     WHERE l.account_id = a.id AND t.posted_at < %s), 0)
    FROM ledger_account a WHERE a.kind = 'wallet' AND a.player_id = %s ORDER BY a.id
"""


def player_statement(*, period: Period, player_id: int | None) -> Report:
    """Every movement of a player's wallets in the period with the running balance."""
    if player_id is None:
        raise ValidationFailed(
            "A player statement needs a player.", errors={"player": ["required"]}
        )
    player = Player.objects.select_related("operator").filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"Player {player_id} does not exist.")
    wallets = {
        wallet_id: {"currency": cur, "balance_now": now, "opening": int(opening)}
        for wallet_id, cur, now, opening in _fetch(_OPENING_SQL, [period.start, player_id])
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
    ) in _fetch(_STATEMENT_SQL, [player_id, period.start, period.end]):
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


# --- game performance ------------------------------------------------------------------------

_PER_GAME_SQL = """
    WITH per_bet AS (
        SELECT b.id, r.id AS round_id, r.rule_set_id, r.payout_schedule_id, r.currency, b.stake,
               -coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('stake', 'stake_refund')), 0)
                   AS staked,
               coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('payout', 'bonus')), 0)
                   AS returned
        FROM tables_bet b
        JOIN tables_round r ON r.id = b.round_id
        JOIN ledger_leg l ON l.bet_ref = b.ref AND l.bet_ref <> ''
        JOIN ledger_account a ON a.id = l.account_id AND a.kind = 'wallet'
        WHERE r.phase = 'settled' AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
        GROUP BY b.id, r.id
    ), unit AS (
        -- x: the initial stake (the unit the game maths' RTP is per; a traditional bet's
        -- stake comes after the first card); y: x plus the bet's net result.
        SELECT rule_set_id, payout_schedule_id, currency, round_id, staked, returned,
               (CASE WHEN stake > 0 THEN stake ELSE staked END)::numeric AS x,
               ((CASE WHEN stake > 0 THEN stake ELSE staked END) + returned - staked)::numeric
                   AS y
        FROM per_bet WHERE staked > 0
    )
    SELECT rule_set_id, payout_schedule_id, currency, count(*), count(DISTINCT round_id),
           sum(staked), sum(returned), sum(x), sum(y), sum(x * x), sum(y * y), sum(x * y)
    FROM unit
    GROUP BY rule_set_id, payout_schedule_id, currency
    ORDER BY rule_set_id, payout_schedule_id, currency
"""


def rtp_band(n: int, sx, sy, sxx, syy, sxy) -> tuple[float, float | None]:
    """The ratio estimate R = Σy / Σx and the half-width of its 95 % confidence band.

    Per-bet outcomes y_i against stakes x_i: the residuals e_i = y_i - R x_i have the sample
    variance s² = (Σy² - 2RΣxy + R²Σx²) / (n - 1), and the standard error of R is
    sqrt(n s²) / Σx (the delta method for a ratio of sums). None below two bets.
    """
    sx, sy, sxx, syy, sxy = (float(v) for v in (sx, sy, sxx, syy, sxy))
    ratio = sy / sx if sx else 0.0
    if n < 2 or not sx:
        return ratio, None
    s2 = max(syy - 2 * ratio * sxy + ratio * ratio * sxx, 0.0) / (n - 1)
    return ratio, Z95 * math.sqrt(n * s2) / sx


def game_performance_report(*, period: Period) -> Report:
    """Actual against theoretical RTP per game (rule set + payout schedule), with a 95 % band
    from the per-bet outcome variance; games whose theoretical RTP lies outside it flagged."""
    rows = []
    games = _fetch(_PER_GAME_SQL, {"start": period.start, "end": period.end})
    # Every pair in use gets its figure: stored now for the presets, queued for the others.
    figures = rtp_figures_ensure(pairs={(g[0], g[1]) for g in games})
    rule_sets = {r.pk: r for r in RuleSetVersion.objects.all()}
    schedules = {p.pk: p for p in PayoutScheduleVersion.objects.all()}
    for rs, ps, cur, n, rounds, staked, returned, sx, sy, sxx, syy, sxy in games:
        actual, half = rtp_band(n, sx, sy, sxx, syy, sxy)
        figure = figures.get((rs, ps))
        theo = figure.rtp if figure is not None else None
        low = high = None
        if half is not None:
            low, high = actual - half, actual + half
        if theo is None:
            flag = f"theoretical RTP not available: {figure.method if figure else 'no figure'}"
        elif half is None:
            flag = "too few bets"
        else:
            flag = "OUTSIDE 95% BAND" if not low <= float(theo) <= high else ""
        rows.append(
            {
                "game": f"{rule_sets[rs]} / {schedules[ps]}",
                "variant": eng.RuleSet.from_json(rule_sets[rs].document).name,
                "currency": cur,
                "rounds": rounds,
                "bets": n,
                "handle": int(staked),
                "returned": int(returned),
                "actual_rtp_pct": round(actual * 100, 3),
                "theoretical_rtp_pct": None if theo is None else round(float(theo) * 100, 3),
                "band_low_pct": None if low is None else round(low * 100, 3),
                "band_high_pct": None if high is None else round(high * 100, 3),
                "flag": flag,
            }
        )
    return Report(
        kind="game-performance",
        title="Game performance: actual vs theoretical RTP",
        period=period,
        columns=[
            ("game", "Game"),
            ("variant", "Rules"),
            ("currency", "Currency"),
            ("rounds", "Rounds"),
            ("bets", "Bets"),
            ("handle", "Handle"),
            ("returned", "Returned"),
            ("actual_rtp_pct", "Actual RTP %"),
            ("theoretical_rtp_pct", "Theoretical RTP %"),
            ("band_low_pct", "95% low"),
            ("band_high_pct", "95% high"),
            ("flag", "Flag"),
        ],
        rows=rows,
        totals=[
            {
                "currency": cur,
                "handle": sum(r["handle"] for r in rows if r["currency"] == cur),
                "returned": sum(r["returned"] for r in rows if r["currency"] == cur),
            }
            for cur in sorted({r["currency"] for r in rows})
        ],
        chart=[
            {
                k: r[k]
                for k in (
                    "game",
                    "currency",
                    "actual_rtp_pct",
                    "theoretical_rtp_pct",
                    "band_low_pct",
                    "band_high_pct",
                    "flag",
                )
            }
            for r in rows
        ],
        notes=[
            "Settled rounds finished in the period; voided rounds are left out. Handle and "
            "returned (payouts + bonuses) are the bets' wallet legs, corrections included.",
            "Actual RTP = (initial stakes + net result) / initial stakes, the unit of the game "
            "maths' theoretical RTP (1 + player EV per initial stake, tables.RtpFigure).",
            "95% band: actual ± 1.96 standard errors of the ratio, from the per-bet outcome "
            "variance; a game whose theoretical RTP lies outside its band is flagged for "
            "investigation.",
        ],
    )


# --- exceptions -------------------------------------------------------------------------------

EXCEPTION_EVENTS = {
    "tables.void_requested": "void requested",
    "tables.void_rejected": "void rejected",
    "tables.void_cancelled": "void cancelled",
    "tables.void_expired": "void expired",
    "tables.round_voided": "void",
    "ledger.correction_requested": "correction requested",
    "ledger.correction_approved": "correction approved",
    "ledger.correction_rejected": "correction rejected",
    "tables.round_suspended": "suspension",
    "tables.round_resumed": "resumed",
    "tables.late_bet_refused": "late bet refused",
    "audit.verification_failed": "audit verification failed",
    "dispute.opened": "dispute opened",
    "dispute.resolved_upheld": "dispute upheld",
    "dispute.resolved_rejected": "dispute rejected",
}


def _exception_category(event: AuditEvent) -> str:
    category = EXCEPTION_EVENTS[event.name]
    if event.name == "tables.round_suspended":
        reason = str(event.payload.get("reason", ""))
        if reason.startswith("impossible card"):
            return "impossible card"
        if reason.startswith("count mismatch"):
            return "card count mismatch"
    return category


def _exception_detail(event: AuditEvent) -> str:
    payload = event.payload
    for key in ("reason", "claim", "resolution"):
        if payload.get(key):
            return str(payload[key])[:300]
    if "problem" in payload:
        return str((payload.get("problem") or {}).get("detail", ""))[:300]
    return ""


_DECIDED = {
    "tables.round_voided": "approved",
    "tables.void_rejected": "rejected",
    "tables.void_cancelled": "cancelled",
}


def _exception_note(event: AuditEvent, deciders: dict[int, str]) -> str:
    """The decider's own words (a correction's or a void request's decision note, a
    resumption's note) and, for a void request, who decided it (the second pair of eyes)."""
    note = str(event.payload.get("note") or "")[:500]
    decider = event.payload.get("approved_by") or event.payload.get("decided_by")
    if decider is not None and event.name in _DECIDED:
        who = f"{_DECIDED[event.name]} by {deciders.get(decider, f'user {decider}')}"
        note = f"{who}: {note}" if note else who
    return note


def exceptions_report(*, period: Period, table_id: int | None = None) -> Report:
    """Voids, corrections, suspensions, impossible cards, late bets refused, failed
    verifications and disputes, from the audit log."""
    qs = AuditEvent.objects.filter(
        name__in=list(EXCEPTION_EVENTS), occurred_at__gte=period.start, occurred_at__lt=period.end
    )
    if table_id is not None:
        qs = qs.filter(table_id=table_id)
    events_ = list(qs.order_by("occurred_at", "id"))
    deciders = dict(
        get_user_model()
        .objects.filter(
            pk__in={e.payload.get("approved_by") or e.payload.get("decided_by") for e in events_}
            - {None}
        )
        .values_list("pk", "username")
    )
    rows = [
        {
            "occurred_at": e.occurred_at,
            "category": _exception_category(e),
            "event_id": e.pk,
            "name": e.name,
            "table_id": e.table_id,
            "round_id": e.round_id,
            "actor": e.actor_label,
            "detail": _exception_detail(e),
            "note": _exception_note(e, deciders),
        }
        for e in events_
    ]
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row["category"]] += 1
    return Report(
        kind="exceptions",
        title="Exceptions report",
        period=period,
        parameters={"table": table_id},
        columns=[
            ("occurred_at", "When (UTC)"),
            ("category", "Category"),
            ("event_id", "Event"),
            ("table_id", "Table"),
            ("round_id", "Round"),
            ("actor", "Who"),
            ("detail", "Detail"),
            ("note", "Decision note (approver's, rejecter's, resumer's)"),
        ],
        rows=rows,
        totals=[{"category": c, "count": counts[c]} for c in sorted(counts)],
        notes=["Every row is an audit event; its id opens it in the audit log."],
    )


# --- shoes and shuffles ----------------------------------------------------------------------


def _shuffle_status(shoe: Shoe, shuffle) -> tuple[str, bool]:
    """(status, flagged) of one shuffle's commitment."""
    if shoe.source == Shoe.Source.READER:
        if shuffle.commitment:
            return "device commitment recorded (order kept by the shuffler)", False
        return "reader shoe: no commitment", False
    if shuffle.revealed_at is None:
        return "sealed: revealed at retirement", False
    if eng.verify_commitment(shuffle.sealed_order, shuffle.salt, shuffle.commitment):
        return "verified", False
    return "COMMITMENT MISMATCH", True


def shoe_log_report(*, period: Period, table_id: int | None = None) -> Report:
    """Every shoe in use in the period and its shuffles, each commitment re-verified."""
    shoes = (
        Shoe.objects.filter(created_at__lt=period.end)
        .filter(Q(retired_at__isnull=True) | Q(retired_at__gte=period.start))
        .select_related("table")
        .prefetch_related("shuffles")
        .order_by("table__code", "id")
    )
    if table_id is not None:
        shoes = shoes.filter(table_id=table_id)
    rows = []
    for shoe in shoes:
        for shuffle in shoe.shuffles.all():
            status, flagged = _shuffle_status(shoe, shuffle)
            if shoe.verified is False and not flagged:
                status, flagged = f"{status}; recorded as NOT verified at retirement", True
            rows.append(
                {
                    "table": shoe.table.code,
                    "shoe_id": shoe.pk,
                    "source": shoe.source,
                    "decks": f"{shoe.decks} x {shoe.deck_kind}",
                    "shuffle": shuffle.number,
                    "method": shuffle.method,
                    "device_id": shuffle.device_id or shoe.device_id,
                    "commitment": shuffle.commitment,
                    "cards": shuffle.cards,
                    "created_at": shuffle.created_at,
                    "cards_dealt": shoe.cards_dealt,
                    "retired_at": shoe.retired_at,
                    "revealed_at": shuffle.revealed_at,
                    "verification": status,
                    "flagged": flagged,
                }
            )
    return Report(
        kind="shoe-log",
        title="Shoe and shuffle log",
        period=period,
        parameters={"table": table_id},
        columns=[
            ("table", "Table"),
            ("shoe_id", "Shoe"),
            ("source", "Source"),
            ("decks", "Decks"),
            ("shuffle", "Shuffle"),
            ("method", "Method"),
            ("device_id", "Device"),
            ("commitment", "Commitment (SHA-256)"),
            ("cards", "Cards"),
            ("created_at", "Shuffled (UTC)"),
            ("cards_dealt", "Dealt"),
            ("retired_at", "Retired"),
            ("verification", "Verification"),
        ],
        rows=rows,
        totals=[{"shuffles": len(rows), "flagged": sum(r["flagged"] for r in rows)}],
        notes=[
            "Server shoes: the order and salt revealed at retirement are hashed again "
            "here and compared with the commitment recorded before the first card."
        ],
    )


# --- the entry point -----------------------------------------------------------------------

REPORTS = {
    "table-shift": "Table and shift report",
    "dealer": "Dealer report",
    "player-statement": "Player statement",
    "game-performance": "Game performance (RTP)",
    "exceptions": "Exceptions report",
    "shoe-log": "Shoe and shuffle log",
}


def report_build(
    kind: str,
    *,
    period: Period,
    table_id: int | None = None,
    player_id: int | None = None,
    shift: str | None = None,
    grouping: str = "shift",
) -> Report:
    if kind == "table-shift":
        return table_shift_report(period=period, table_id=table_id, shift=shift, grouping=grouping)
    if kind == "dealer":
        return dealer_report(period=period, table_id=table_id, shift=shift)
    if kind == "player-statement":
        return player_statement(period=period, player_id=player_id)
    if kind == "game-performance":
        return game_performance_report(period=period)
    if kind == "exceptions":
        return exceptions_report(period=period, table_id=table_id)
    if kind == "shoe-log":
        return shoe_log_report(period=period, table_id=table_id)
    raise NotFound(f"No report {kind!r}; reports: {', '.join(REPORTS)}.")


def report_generate(
    *,
    actor: Actor,
    kind: str,
    period: Period,
    table_id: int | None = None,
    player_id: int | None = None,
    shift: str | None = None,
    grouping: str = "shift",
    rendering: str = "json",
) -> Report:
    """Build a report and record who read it, in which form (``audit.viewed``)."""
    with replica.reads():
        report = report_build(
            kind,
            period=period,
            table_id=table_id,
            player_id=player_id,
            shift=shift,
            grouping=grouping,
        )
    report.generated_by = actor.label
    report_seal(report)
    events.viewed(
        actor=actor,
        what=f"report.{kind}",
        detail={
            "format": rendering,
            "date_from": period.date_from.isoformat(),
            "date_to": period.date_to.isoformat(),
            "table": table_id,
            "player": player_id,
            "shift": shift,
            "grouping": grouping,
            "rows": len(report.rows),
            "generated_at": report.generated_at.isoformat(),
            "digest": report.digest,
        },
    )
    return report
