"""Reads for the pit console's floor dashboard: one pass over tables, their rounds and shoes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from audit.selectors import audit_verification_latest
from tables.models import Round, Shoe, Table, VoidRequest
from tables.selectors import DealerOnTable, dealers_on_tables
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
    dealers = dealers_on_tables()
    rows = []
    for table in tables:
        rnd = latest.get(table.pk)
        shoe = shoes.get(table.pk)
        alerts = _dealer_alerts(table, dealers.get(table.pk), now)
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
    return Floor(rows=rows, alerts=floor_alerts, verification=verification, generated_at=now)
