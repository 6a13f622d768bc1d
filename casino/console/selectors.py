"""Reads for the pit console's floor dashboard: one pass over tables, their rounds and shoes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from audit.models import AuditEvent
from audit.selectors import audit_verification_latest
from casino.money import money_text
from casino.sandbox.models import SandboxTable
from ledger.selectors import AccountingFilter, ShiftGrid, hold_pct, table_accounting
from tables.models import Bet, Round, RtpFigure, Shoe, Table, VoidRequest
from tables.selectors import DealerOnTable, dealers_on_tables, shift_calendars
from tables.services import SETTLEMENT_SWEEP_GRACE


@dataclass
class Alert:
    level: str  # "error" | "warning"
    text: str
    url: str = ""


@dataclass
class FloorRow:
    table: Table
    round: Round | None
    shoe: Shoe | None
    limits: str
    shoe_status: str
    alerts: list[Alert] = field(default_factory=list)
    figures: TableFigures | None = None

    @property
    def urgency(self) -> tuple:
        """Errors first, then warnings, then open tables; by code within each."""
        levels = [a.level for a in self.alerts]
        return (
            -levels.count("error"),
            -levels.count("warning"),
            self.table.status != Table.Status.OPEN,
            self.table.code,
        )


@dataclass
class TableFigures:
    """A table's money this shift (from the ledger's legs, as the reports), its live round's
    stakes and its dealer's time on the table."""

    currency: str
    handle: int = 0
    win: int = 0
    hold_pct: Decimal | None = None
    bets_in_play: int = 0
    bets_count: int = 0
    theoretical_rtp: Decimal | None = None
    dealer_since: datetime | None = None
    round_age: str = ""

    @property
    def theoretical_hold_pct(self) -> Decimal | None:
        if self.theoretical_rtp is None:
            return None
        return ((1 - self.theoretical_rtp) * 100).quantize(Decimal("0.01"))

    @property
    def handle_text(self) -> str:
        return money_text(self.handle, self.currency)

    @property
    def win_text(self) -> str:
        return money_text(self.win, self.currency)

    @property
    def bets_in_play_text(self) -> str:
        return money_text(self.bets_in_play, self.currency)


@dataclass
class PitGroup:
    name: str
    rows: list[FloorRow]
    totals: list[dict]  # per currency: handle, win, hold_pct, bets_in_play (minor units)


@dataclass
class Floor:
    rows: list[FloorRow]
    alerts: list[Alert]
    verification: dict | None
    generated_at: datetime
    pits: list[PitGroup] = field(default_factory=list)
    totals: list[dict] = field(default_factory=list)  # the casino's, per currency

    @property
    def alert_count(self) -> int:
        return len(self.alerts) + sum(len(r.alerts) for r in self.rows)

    def as_json(self) -> dict:
        return {
            "generated_at": self.generated_at.isoformat(),
            "verification": _verification_json(self.verification),
            "alerts": [a.__dict__ for a in self.alerts],
            "tables": [
                {
                    "id": r.table.pk,
                    "code": r.table.code,
                    "name": r.table.name,
                    "status": r.table.status,
                    "dealer": r.table.dealer.get_username() if r.table.dealer else None,
                    "round": (
                        {"id": r.round.pk, "number": r.round.number, "phase": r.round.phase}
                        if r.round
                        else None
                    ),
                    "limits": r.limits,
                    "shoe": r.shoe_status,
                    "alerts": [a.__dict__ for a in r.alerts],
                    "pit": r.table.pit.code if r.table.pit else None,
                    "figures": _figures_json(r.figures),
                }
                for r in self.rows
            ],
            "pits": [{"name": p.name, "totals": p.totals} for p in self.pits],
            "totals": self.totals,
        }


def _figures_json(f: TableFigures | None) -> dict | None:
    if f is None:
        return None
    return {
        "currency": f.currency,
        "handle": f.handle,
        "win": f.win,
        "hold_pct": str(f.hold_pct) if f.hold_pct is not None else None,
        "theoretical_hold_pct": (
            str(f.theoretical_hold_pct) if f.theoretical_hold_pct is not None else None
        ),
        "bets_in_play": f.bets_in_play,
        "dealer_since": f.dealer_since.isoformat() if f.dealer_since else None,
    }


def _verification_json(v: dict | None) -> dict | None:
    if v is None:
        return None
    return {
        "ok": v.get("ok"),
        "recorded_at": v["recorded_at"].isoformat(),
        "event_id": v["event_id"],
    }


def _admin_url(name: str, pk: int) -> str:
    return reverse(f"admin:{name}", args=[pk])


def _shoe_status(shoe: Shoe | None, table: Table) -> str:
    if shoe is None:
        if table.card_source == Table.CardSource.CARD_READER:
            return "no shoe loaded"
        return "new shoe at the next round"
    if shoe.source == Shoe.Source.SERVER:
        cut = f", cut card at {shoe.cut_index}" if shoe.cut_index is not None else ""
        text = f"server, {shoe.decks} {shoe.deck_kind} decks: {shoe.position} dealt{cut}"
        return text + (" (cut card out)" if shoe.cut_card_out else "")
    return f"reader, {shoe.decks} {shoe.deck_kind} decks: {shoe.cards_dealt} seen"


def _dealer_alerts(table: Table, on_table: DealerOnTable | None, now: datetime) -> list[Alert]:
    """Rotation due, and the dealer of record on break while the table is open."""
    if on_table is None or table.status != Table.Status.OPEN:
        return []
    url = _admin_url("tables_table_change", table.pk)
    name = on_table.dealer.get_username()
    alerts = []
    if on_table.break_since is not None:
        alerts.append(
            Alert(
                "error",
                f"Dealer {name} on break for {timesince(on_table.break_since, now)}, table open",
                url,
            )
        )
    elif on_table.rotation_due_at is not None and on_table.rotation_due_at <= now:
        alerts.append(
            Alert(
                "warning",
                f"Rotation due: {name} on the table for {timesince(on_table.since, now)}",
                url,
            )
        )
    return alerts


# --- the control room: attention, this shift's figures, pits ---------------------------------

IDLE_AFTER = timedelta(minutes=10)  # an open table with no round for this long is idle
ROUND_TOO_OLD = timedelta(minutes=5)  # a live round older than this needs a look


def _attention_alerts(table: Table, rnd: Round | None, now: datetime) -> list[Alert]:
    """Open without a dealer, open and idle, a live round older than ``ROUND_TOO_OLD``."""
    if table.status != Table.Status.OPEN:
        return []
    url = _admin_url("tables_table_change", table.pk)
    alerts = []
    # A sandbox table deals itself (casino/sandbox): it has no dealer, by design.
    if table.dealer_id is None and not table.self_dealing:
        alerts.append(Alert("warning", "Open without a dealer", url))
    live = rnd is not None and rnd.phase in Round.UNFINISHED
    if live and rnd.opened_at < now - ROUND_TOO_OLD and rnd.held_since is None:
        alerts.append(
            Alert(
                "warning",
                f"Round #{rnd.number} open for {timesince(rnd.opened_at, now)}",
                _admin_url("tables_round_change", rnd.pk),
            )
        )
    last = None if rnd is None else (rnd.finished_at or rnd.opened_at)
    if not live and (last is None or last < now - IDLE_AFTER):
        since = f" for {timesince(last, now)}" if last else ""
        alerts.append(Alert("warning", f"Open and idle{since}: no round", url))
    return alerts


def _figures(
    tables: list[Table], latest: dict[int, Round], dealers: dict, now: datetime
) -> dict[int, TableFigures]:
    """This shift's money per table from the ledger's legs, by the same selector as the
    reports (``table_accounting`` over the casino's current shift), the live round's stakes,
    the theoretical RTP of the table's rules and the dealer's time on it. Constant queries."""
    calendars = shift_calendars()
    spans = {pk: calendar.span_at(now) for pk, calendar in calendars.items()}
    grid = ShiftGrid(
        table_casino={t.pk: t.casino_id for t in tables},
        spans=[(pk, s.gaming_day, s.shift, s.start, s.end) for pk, s in spans.items()],
    )
    money = {
        (m["table"], m["currency"]): m
        for m in table_accounting(group_by=["table"], filters=AccountingFilter(), shifts=grid)
    }
    in_play = {
        b["round__table_id"]: b
        for b in Bet.objects.filter(round__phase__in=Round.UNFINISHED)
        .values("round__table_id")
        .annotate(total=Sum("staked_total"), count=Count("id"))
    }
    rtp = {
        (f.rule_set_id, f.payout_schedule_id): f.rtp
        for f in RtpFigure.objects.filter(rule_set_id__in={t.rule_set_id for t in tables})
    }
    out = {}
    for table in tables:
        m = money.get((table.pk, table.currency), {})
        bets = in_play.get(table.pk, {})
        rnd = latest.get(table.pk)
        on_table = dealers.get(table.pk)
        live = rnd is not None and rnd.phase in Round.UNFINISHED
        out[table.pk] = TableFigures(
            currency=table.currency,
            handle=m.get("handle", 0),
            win=m.get("win", 0),
            hold_pct=m.get("hold_pct"),
            bets_in_play=bets.get("total") or 0,
            bets_count=bets.get("count", 0),
            theoretical_rtp=rtp.get((table.rule_set_id, table.payout_schedule_id)),
            dealer_since=on_table.since if on_table else None,
            round_age=timesince(rnd.opened_at, now) if live else "",
        )
    return out


def _totals(rows: list[FloorRow]) -> list[dict]:
    totals: dict[str, dict] = {}
    for row in rows:
        f = row.figures
        t = totals.setdefault(
            f.currency, {"currency": f.currency, "handle": 0, "win": 0, "bets_in_play": 0}
        )
        t["handle"] += f.handle
        t["win"] += f.win
        t["bets_in_play"] += f.bets_in_play
    for t in totals.values():
        t["hold_pct"] = hold_pct(t["win"], t["handle"])
        for key in ("handle", "win", "bets_in_play"):
            t[f"{key}_text"] = money_text(t[key], t["currency"])
    return [totals[c] for c in sorted(totals)]


def _pit_groups(rows: list[FloorRow]) -> list[PitGroup]:
    """Rows by pit (tables outside a pit last), most urgent first in each; the pit with the
    most urgent table first."""
    by_pit: dict[str, list[FloorRow]] = {}
    for row in rows:
        by_pit.setdefault(row.table.pit.name if row.table.pit else "", []).append(row)
    groups = [
        PitGroup(name or "No pit", sorted(members, key=lambda r: r.urgency), _totals(members))
        for name, members in by_pit.items()
    ]
    return sorted(groups, key=lambda g: (g.rows[0].urgency[:2], g.name == "No pit", g.name))


LOGIN_FAILED = "auth.login_failed"
LOCKED_OUT = "auth.locked_out"
CREDENTIAL_REFUSED = "auth.credential_refused"
CREDENTIAL_REFUSALS = "auth.credential_refusals"


def _audit_log_url(name: str) -> str:
    return reverse("admin:audit_auditevent_changelist") + "?" + urlencode({"name__exact": name})


def security_alerts(*, now: datetime | None = None) -> list[Alert]:
    """Bursts of failed staff logins or refused API credentials, and recent lockouts, from
    the audit log: shown on the floor while they are recent (README "Configuration")."""
    now = now or timezone.now()
    window = timedelta(minutes=settings.CONSOLE_AUTH_BURST_MINUTES)
    recent = AuditEvent.objects.filter(occurred_at__gte=now - window)
    alerts = []
    lockouts = (
        AuditEvent.objects.filter(
            name=LOCKED_OUT,
            occurred_at__gte=now - timedelta(minutes=settings.STAFF_LOCKOUT_MINUTES),
        )
        .order_by("-occurred_at")
        .values_list("payload__username", "occurred_at")[:5]
    )
    for username, at in lockouts:
        alerts.append(
            Alert(
                "error",
                f"Login of {username} locked out after repeated failures at {at:%H:%M:%S}",
                _audit_log_url(LOCKED_OUT),
            )
        )
    failed = recent.filter(name=LOGIN_FAILED).aggregate(
        count=Count("id"), users=Count("payload__username", distinct=True)
    )
    if failed["count"] >= settings.CONSOLE_FAILED_LOGIN_BURST:
        alerts.append(
            Alert(
                "warning",
                f"{failed['count']} failed staff logins "
                f"({failed['users']} username{'' if failed['users'] == 1 else 's'}) "
                f"in the last {settings.CONSOLE_AUTH_BURST_MINUTES} minutes",
                _audit_log_url(LOGIN_FAILED),
            )
        )
    # The first refusal of an address's window is its own event; the window's others come
    # in one summary once it closed (casino/api/throttling.py): refused (the first included)
    # and throttled attempts.
    refusals = recent.filter(name__in=(CREDENTIAL_REFUSED, CREDENTIAL_REFUSALS)).aggregate(
        first=Count("id", filter=Q(name=CREDENTIAL_REFUSED)),
        more=Sum(
            Cast(KT("payload__refused"), IntegerField())
            - 1
            + Cast(KT("payload__throttled"), IntegerField()),
            filter=Q(name=CREDENTIAL_REFUSALS),
        ),
    )
    refused = refusals["first"] + (refusals["more"] or 0)
    if refused >= settings.CONSOLE_REFUSED_CREDENTIAL_BURST:
        alerts.append(
            Alert(
                "warning",
                f"{refused} refused API keys or device tokens "
                f"in the last {settings.CONSOLE_AUTH_BURST_MINUTES} minutes",
                _audit_log_url(CREDENTIAL_REFUSED),
            )
        )
    return alerts


def _floor_tables() -> list[Table]:
    """The tables on the floor, each marked ``self_dealing`` when it is a sandbox table."""
    return list(
        Table.objects.filter(retired_at__isnull=True)
        .select_related("dealer", "rule_set", "pit")
        .annotate(self_dealing=Exists(SandboxTable.objects.filter(table_id=OuterRef("pk"))))
        .order_by("code")
    )


def _latest_rounds() -> dict[int, Round]:
    """Each table's latest round, in one query."""
    return {
        r.table_id: r
        for r in Round.objects.order_by("table_id", "-number")
        .distinct("table_id")
        .only(
            "id",
            "table_id",
            "number",
            "phase",
            "suspended_reason",
            "settling_since",
            "held_since",
            "opened_at",
            "finished_at",
        )
    }


def _live_shoes() -> dict[int, Shoe]:
    # ``position`` is deferred-safe; ``cut_card_out`` reads cut_index and position only.
    return {
        s.table_id: s for s in Shoe.objects.filter(retired_at__isnull=True).defer("order", "seen")
    }


def _void_alerts(now: datetime) -> dict[int, list[Alert]]:
    """Every open void request by table, whatever its round: a request stays on the floor
    while it holds a round and leaves when it is decided or expires."""
    alerts: dict[int, list[Alert]] = {}
    requests = (
        VoidRequest.objects.filter(status=VoidRequest.Status.REQUESTED)
        .select_related("round", "requested_by")
        .defer("round__state", "round__settlement")
    )
    for request in requests:
        alerts.setdefault(request.round.table_id, []).append(
            Alert(
                "warning",
                f"Round #{request.round.number} on hold: void requested by "
                f"{request.requested_by} {timesince(request.requested_at, now)} ago waits for "
                f"approval (expires {request.expires_at:%H:%M:%S})",
                _admin_url("tables_round_change", request.round_id),
            )
        )
    return alerts


STUCK_LISTED = 20  # rounds stuck behind a table's latest one, listed on the floor by name


def _stuck_alerts(latest: dict[int, Round], now: datetime) -> tuple[dict[int, Alert], list[Alert]]:
    """Rounds stuck in settling (past the sweep's grace and not held: a held round's void
    alert says why it waits), read once: a table's latest round's alert goes on its row, the
    others (tables whose latest round moved on) on the floor."""
    stuck = Round.objects.filter(
        phase=Round.Phase.SETTLING,
        settling_since__lt=now - SETTLEMENT_SWEEP_GRACE,
        held_since__isnull=True,
    ).order_by("settling_since", "id")
    latest_ids = {r.pk for r in latest.values()}
    on_rows: dict[int, Alert] = {}
    behind: list[Alert] = []
    rows = stuck.values_list("id", "table_id", "table__code", "number", "settling_since")
    for pk, table_id, code, number, since in rows:
        url = _admin_url("tables_round_change", pk)
        if pk in latest_ids:
            text = f"Round #{number} stuck in settling since {since:%H:%M:%S}"
            on_rows[table_id] = Alert("error", text, url)
        elif len(behind) < STUCK_LISTED:
            text = f"{code} #{number} stuck in settling since {since:%H:%M:%S}"
            behind.append(Alert("error", text, url))
    return on_rows, behind


def _round_alerts(rnd: Round | None) -> list[Alert]:
    if rnd is None or not rnd.suspended_reason or rnd.phase not in Round.LIVE:
        return []
    url = _admin_url("tables_round_change", rnd.pk)
    return [Alert("error", f"Round #{rnd.number} suspended: {rnd.suspended_reason}", url)]


def _limits_text(table: Table) -> str:
    text = (
        f"{money_text(table.min_bet, table.currency)} - {money_text(table.max_bet, table.currency)}"
    )
    if table.box_max:
        text += f" (box {money_text(table.box_max, table.currency)})"
    return text


def _verification_alerts(verification: dict | None) -> list[Alert]:
    if verification is None or verification.get("ok"):
        return []
    return [
        Alert(
            "error",
            f"Audit chain verification FAILED at {verification['recorded_at']:%Y-%m-%d %H:%M}",
            _admin_url("audit_auditevent_change", verification["event_id"]),
        )
    ]


def floor_overview(*, now: datetime | None = None) -> Floor:
    """The floor, computed once per render in a bounded number of queries: each part read
    once for every table, then one row per table."""
    now = now or timezone.now()
    tables = _floor_tables()
    latest = _latest_rounds()
    shoes = _live_shoes()
    voids = _void_alerts(now)
    stuck, stuck_behind = _stuck_alerts(latest, now)
    dealers = dealers_on_tables()
    figures = _figures(tables, latest, dealers, now)
    rows = []
    for table in tables:
        rnd = latest.get(table.pk)
        alerts = [
            *_dealer_alerts(table, dealers.get(table.pk), now),
            *_attention_alerts(table, rnd, now),
            *_round_alerts(rnd),
            *([stuck[table.pk]] if table.pk in stuck else []),
            *voids.get(table.pk, []),
        ]
        rows.append(
            FloorRow(
                table=table,
                round=rnd,
                shoe=shoes.get(table.pk),
                limits=_limits_text(table),
                shoe_status=_shoe_status(shoes.get(table.pk), table),
                alerts=sorted(alerts, key=lambda a: a.level != "error"),  # errors first
                figures=figures[table.pk],
            )
        )
    verification = audit_verification_latest()
    pits = _pit_groups(rows)
    return Floor(
        rows=rows,
        alerts=[*_verification_alerts(verification), *stuck_behind, *security_alerts(now=now)],
        verification=verification,
        generated_at=now,
        pits=pits,
        totals=_totals([r for p in pits for r in p.rows]),
    )
