"""Reads for the pit console's floor dashboard: one pass over tables, their rounds and shoes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import Count, IntegerField, Q, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from audit.models import AuditEvent
from audit.selectors import audit_verification_latest
from tables.models import Round, Shoe, Table, VoidRequest
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


@dataclass
class Floor:
    rows: list[FloorRow]
    alerts: list[Alert]
    verification: dict | None
    generated_at: datetime

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
                }
                for r in self.rows
            ],
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


def _money(amount: int | None, currency: str) -> str:
    if amount is None:
        return "—"
    return f"{amount / 100:,.2f}".replace(".00", "") + f" {currency}"


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


def floor_overview(*, now: datetime | None = None) -> Floor:
    now = now or timezone.now()
    tables = list(Table.objects.select_related("dealer", "rule_set", "pit").order_by("code"))
    latest = {
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
        )
    }
    shoes = {
        s.table_id: s for s in Shoe.objects.filter(retired_at__isnull=True).defer("order", "seen")
    }
    # ``position`` is deferred-safe; ``cut_card_out`` reads cut_index and position only.
    # Every open void request, whatever its round (a request is never dropped from the floor
    # while it holds a round; it leaves when it is decided or expires).
    pending_voids: dict[int, list[VoidRequest]] = {}
    open_requests = (
        VoidRequest.objects.filter(status=VoidRequest.Status.REQUESTED)
        .select_related("round", "requested_by")
        .defer("round__state", "round__settlement")
    )
    for request in open_requests:
        pending_voids.setdefault(request.round.table_id, []).append(request)
    stuck_before = now - SETTLEMENT_SWEEP_GRACE
    rows = []
    for table in tables:
        rnd = latest.get(table.pk)
        shoe = shoes.get(table.pk)
        alerts = []
        if rnd is not None:
            url = _admin_url("tables_round_change", rnd.pk)
            if rnd.suspended_reason and rnd.phase in Round.LIVE:
                alerts.append(
                    Alert("error", f"Round #{rnd.number} suspended: {rnd.suspended_reason}", url)
                )
            if (
                rnd.phase == Round.Phase.SETTLING
                and rnd.settling_since
                and rnd.settling_since < stuck_before
                and rnd.held_since is None  # held, not stuck: its void alert says so
            ):
                alerts.append(
                    Alert(
                        "error",
                        f"Round #{rnd.number} stuck in settling "
                        f"since {rnd.settling_since:%H:%M:%S}",
                        url,
                    )
                )
        for request in pending_voids.get(table.pk, []):
            age = timesince(request.requested_at, now)
            alerts.append(
                Alert(
                    "warning",
                    f"Round #{request.round.number} on hold: void requested by "
                    f"{request.requested_by} {age} ago waits for approval "
                    f"(expires {request.expires_at:%H:%M:%S})",
                    _admin_url("tables_round_change", request.round_id),
                )
            )
        limits = (
            f"{_money(table.min_bet, table.currency)} - {_money(table.max_bet, table.currency)}"
        )
        if table.box_max:
            limits += f" (box {_money(table.box_max, table.currency)})"
        rows.append(
            FloorRow(
                table=table,
                round=rnd,
                shoe=shoe,
                limits=limits,
                shoe_status=_shoe_status(shoe, table),
                alerts=alerts,
            )
        )
    verification = audit_verification_latest()
    floor_alerts = []
    if verification is not None and not verification.get("ok"):
        floor_alerts.append(
            Alert(
                "error",
                f"Audit chain verification FAILED at {verification['recorded_at']:%Y-%m-%d %H:%M}",
                _admin_url("audit_auditevent_change", verification["event_id"]),
            )
        )
    # Rounds stuck in settling on tables whose latest round moved on are still shown.
    older_stuck = Round.objects.filter(
        Q(phase=Round.Phase.SETTLING, settling_since__lt=stuck_before, held_since__isnull=True)
        & ~Q(pk__in=[r.pk for r in latest.values()])
    ).select_related("table")[:20]
    for rnd in older_stuck:
        floor_alerts.append(
            Alert(
                "error",
                f"{rnd} stuck in settling since {rnd.settling_since:%H:%M:%S}",
                _admin_url("tables_round_change", rnd.pk),
            )
        )
    floor_alerts += security_alerts(now=now)
    return Floor(rows=rows, alerts=floor_alerts, verification=verification, generated_at=now)
