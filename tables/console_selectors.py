"""Reads for the pit console's table, round and version pages (``tables/admin/``): the admin
classes call these and build no query of their own. The floor lives in
``casino.console.selectors``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from casino.money import money_text
from tables import selectors
from tables.models import (
    Casino,
    DealerAssignment,
    PayoutScheduleVersion,
    Pit,
    RosterEntry,
    Round,
    RoundEvent,
    RtpFigure,
    RuleSetVersion,
    ShiftPlan,
    Shoe,
    Table,
    VoidRequest,
)

# --- choices for the console's forms -----------------------------------------------------


def rule_set_choices() -> QuerySet[RuleSetVersion]:
    return RuleSetVersion.objects.order_by("name", "-version")


def payout_schedule_choices() -> QuerySet[PayoutScheduleVersion]:
    return PayoutScheduleVersion.objects.order_by("name", "-version")


def casino_choices() -> QuerySet[Casino]:
    return Casino.objects.order_by("code")


def pit_choices() -> QuerySet[Pit]:
    return Pit.objects.select_related("casino").order_by("casino__code", "code")


def version_pair(rule_set: Any, payout_schedule: Any):
    """A (rule set, payout schedule) pair from a form's values: objects, ids or ``None``."""
    if isinstance(rule_set, str | int):
        rule_set = RuleSetVersion.objects.filter(pk=rule_set).first()
    if isinstance(payout_schedule, str | int):
        payout_schedule = PayoutScheduleVersion.objects.filter(pk=payout_schedule).first()
    return rule_set, payout_schedule


# --- lists -------------------------------------------------------------------------------


def table_list_with_latest_round(queryset: QuerySet[Table]) -> QuerySet[Table]:
    """The table list's round column from one subquery, not a query per row."""
    latest = Round.objects.filter(table=OuterRef("pk")).order_by("-number")
    return queryset.annotate(
        latest_round_id=Subquery(latest.values("pk")[:1]),
        latest_round_number=Subquery(latest.values("number")[:1]),
        latest_round_phase=Subquery(latest.values("phase")[:1]),
    )


def shift_plan_list(queryset: QuerySet[ShiftPlan]) -> QuerySet[ShiftPlan]:
    return queryset.select_related("casino").prefetch_related("shifts")


def roster_list(queryset: QuerySet[RosterEntry]) -> QuerySet[RosterEntry]:
    return queryset.select_related("casino", "pit", "user")


# --- a table's page ----------------------------------------------------------------------


def table_panel(table: Table) -> dict[str, Any]:
    """The table page's "now" card: its current round, live shoe and latest assignments."""
    return {
        "current_round": selectors.round_current(table=table),
        "shoe": Shoe.objects.filter(table=table, retired_at__isnull=True)
        .defer("order", "seen")
        .first(),
        "assignments": list(
            DealerAssignment.objects.filter(table=table)
            .select_related("dealer")
            .order_by("-started_at", "-id")[:5]
        ),
    }


# --- a round's page ----------------------------------------------------------------------


def void_request_open(rnd: Round) -> VoidRequest | None:
    """The round's request waiting for a decision, with its requester."""
    return (
        rnd.void_requests.filter(status=VoidRequest.Status.REQUESTED)
        .select_related("requested_by")
        .first()
    )


@dataclass(frozen=True)
class EventLine:
    event: RoundEvent
    text: str


def _card(code: str | None) -> str:
    return code if code else "a face-down card"


def _target(target: dict | None) -> str:
    if not target:
        return ""
    if target.get("kind") == "dealer":
        return " to the dealer"
    hand = target.get("hand_index") or 0
    return f" to box {target.get('box')}" + (f" hand {hand + 1}" if hand else "")


def _hand(public: dict) -> str:
    hand = public.get("hand_index") or 0
    return f"box {public.get('box')}" + (f" hand {hand + 1}" if hand else "")


def event_text(public: dict, currency: str) -> str:
    """One line a pit boss reads for a round event (its public form, never a hidden card)."""

    def money(amount) -> str:
        return money_text(amount, currency) if isinstance(amount, int) else "the full amount"

    kind = public.get("type", "")
    bet = public.get("bet_id", "")
    texts = {
        "bet_placed": lambda: (
            f"Bet {bet} on box {public.get('box')}"
            + (" (behind)" if public.get("behind") else "")
            + f": {money(public.get('stake'))}"
        ),
        "betting_closed": lambda: "Betting closed",
        "card_dealt": lambda: (
            f"Card {_card(public.get('card'))} dealt{_target(public.get('target'))}"
            + (" (forced by the rules)" if public.get("forced") else "")
        ),
        "decision": lambda: (
            f"{_hand(public)}: {public.get('action')}"
            + (f" {money(public['amount'])}" if public.get("amount") else "")
        ),
        "timeout_default": lambda: (
            "Decision time ran out: the default applies"
            + (f" to {_hand(public)}" if public.get("box") else "")
        ),
        "dealer_decision": lambda: f"Dealer: {public.get('action')}",
        "insurance_taken": lambda: f"Bet {bet} took insurance: {money(public.get('amount'))}",
        "even_money_taken": lambda: f"Bet {bet} took even money",
        "insurance_declined": lambda: f"Bet {bet} declined insurance",
        "match_made": lambda: f"Bet {bet} matched: {money(public.get('amount'))}",
        "match_declined": lambda: f"Bet {bet} declined to match",
        "stake_placed": lambda: f"Bet {bet} staked {money(public.get('amount'))}",
        "withdrawn": lambda: f"Bet {bet} withdrew",
        "round_opened": lambda: f"Round #{public.get('number')} opened for bets",
        "phase": lambda: f"Phase {public.get('from')} → {public.get('to')}",
        "round_suspended": lambda: f"Round suspended: {public.get('reason')}",
        "round_resumed": lambda: (
            "Round resumed" + (f": {public['note']}" if public.get("note") else "")
        ),
        "round_settled": lambda: (
            f"Settled: stakes {money(public.get('stake'))}, paid {money(public.get('paid'))}"
        ),
        "dealer_revealed": lambda: (
            "Dealer's cards revealed: " + " ".join(public.get("cards") or [])
        ),
        "hands_revealed": lambda: "Boxes' cards revealed",
        "shoe_loaded": lambda: f"Shoe {public.get('shoe_id')} loaded",
        "shoe_reshuffled": lambda: f"Shoe {public.get('shoe_id')} shuffled",
        "void_requested": lambda: f"Void requested: “{public.get('reason')}”; the round is on hold",
        "void_rejected": lambda: "Void rejected: the round carries on",
        "void_cancelled": lambda: "Void request cancelled: the round carries on",
        "void_expired": lambda: "Void request expired: the round carries on",
        "round_voided": lambda: f"Round voided: “{public.get('reason')}”",
    }
    text = texts.get(kind)
    return text() if text else kind.replace("_", " ").capitalize()


def round_panel(rnd: Round) -> dict[str, Any]:
    """The round page's live panel: felt, bets with their payouts, decisions, event lines
    and the latest void request."""
    try:
        state = selectors.round_public_state(rnd)
    except Exception as exc:  # a broken round must still show its page
        state = {"error": str(exc)}
    bets = list(rnd.bets.select_related("player"))
    outcomes = selectors.bet_outcomes(rnd)
    for bet in bets:
        bet.paid, bet.result = outcomes.get(bet.ref, (None, ""))
    events = list(rnd.events.order_by("-id")[:30])
    return {
        "round": rnd,
        "state": state,
        "bets": bets,
        "decisions": list(rnd.decisions.order_by("-seq")[:30]),
        "events": [EventLine(e, event_text(e.public, rnd.currency)) for e in events],
        "void": selectors.void_request_latest(rnd),
    }


# --- versions and shoes ------------------------------------------------------------------


def version_in_use(*, field: str, version) -> bool:
    """Whether a rule set or payout schedule version is played by a round or a table."""
    return (
        Round.objects.filter(**{field: version}).exists()
        or Table.objects.filter(**{field: version}).exists()
    )


def version_rtp_figures(*, field: str, version) -> list[RtpFigure]:
    return list(
        RtpFigure.objects.filter(**{field: version}).select_related("rule_set", "payout_schedule")
    )


def shoe_commitments(shoe: Shoe) -> list[str]:
    return [s.commitment for s in shoe.shuffles.order_by("number")]
