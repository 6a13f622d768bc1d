"""What every report is: its period, the ``Report`` value, readable labels, money keys, and the
digest and signature that let a printed or exported report be checked against its data."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from audit import signing
from audit.canonical import canonical_json, sha256_hex
from casino import replica
from casino.errors import ValidationFailed
from casino.version import software_version
from ledger.selectors import hold_pct

DEFAULT_DAYS = 30


@dataclass(frozen=True)
class Period:
    date_from: date
    date_to: date

    @classmethod
    def of(cls, date_from: date | None = None, date_to: date | None = None) -> Period:
        today = timezone.now().astimezone(UTC).date()
        # A refusal names the default it compared with: the caller may not have sent date_to.
        end = date_to.isoformat() if date_to else f"(today, {today.isoformat()})"
        date_to = date_to or today
        date_from = date_from or date_to - timedelta(days=DEFAULT_DAYS - 1)
        if date_from > date_to:
            raise ValidationFailed(
                f"date_from {date_from.isoformat()} is after date_to {end}.",
                errors={"date_from": [f"after date_to {end}"]},
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
    the audit signing key, so a printed or exported report can be checked against its data by
    anyone: the signature carries the public key (also at ``GET /api/v1/audit/keys/``)."""
    report.digest = sha256_hex(canonical_json(report_data(report)))
    active = next(key for key in signing.public_keys() if key["active"])
    report.signature = {
        "algorithm": signing.ALGORITHM,
        "key_id": signing.key_id(),
        "public_key": str(active["public_key"]),
        "value": signing.sign(report.digest.encode("ascii")),
    }
    return report


def fetch_rows(sql: str, params: list | dict) -> list[tuple]:
    with replica.connection().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


MONEY = ("handle", "payouts", "bonuses", "win")


def currency_totals(rows: list[dict[str, Any]], counts: tuple[str, ...] = ()) -> list[dict]:
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
