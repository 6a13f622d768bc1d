"""Table administration: creation, status, limits, rules, dealer, seats; each change logged."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import (
    Conflict,
    NotFound,
    PermissionDenied,
    Unprocessable,
    ValidationFailed,
    unique_or,
)
from ledger import services as ledger
from ledger.models import Player
from tables import engine as eng
from tables import events, lock_objects, selectors
from tables.errors import WrongPhase
from tables.models import (
    Box,
    DealerAssignment,
    PayoutScheduleVersion,
    Pit,
    Round,
    RtpFigure,
    RuleSetVersion,
    Seat,
    Shoe,
    Table,
    TableChange,
)
from tables.services._common import boxes_ensure, table_locked, transition
from tables.services.rotation import (
    dealer_assignment_create,
    dealer_break_end,
    dealer_one_table_check,
)
from tables.services.shoes import shoe_retire
from tables.services.versions import rtp_figure


def _change_log(*, actor: Actor, table: Table, kind: str, before: dict, after: dict) -> None:
    TableChange.objects.create(
        table=table, kind=kind, before=before, after=after, changed_by=actor.label
    )
    events.table_changed(actor=actor, table=table, kind=kind, before=before, after=after)


def dealing_check(*, table: Table, user_id: int, pit: bool) -> None:
    """A dealer runs rounds (opens them, closes betting, posts cards, loads shoes, plays the
    banker) at the table whose dealer of record they are; pit staff (``pit``) at any table.
    A dealer device is bound to its table by its credential already."""
    if not pit and table.dealer_id != user_id:
        raise PermissionDenied(
            f"You are not the dealer of record at table {table.code}: a dealer runs rounds at "
            "their own table only (the pit sets a table's dealer)."
        )


def table_create(
    *,
    actor: Actor,
    casino,
    code: str,
    name: str,
    rule_set: RuleSetVersion,
    payout_schedule: PayoutScheduleVersion,
    currency: str = "EUR",
    card_source: str = Table.CardSource.SERVER_SHOE,
    play_money: bool = False,
    **settings: Any,
) -> Table:
    """A new closed table; the change log records its whole configuration. ``play_money``: a
    sandbox table, in XTS (``ledger.play_money_check``)."""
    pit = settings.get("pit")
    if pit is not None and pit.casino_id != casino.pk:
        raise ValidationFailed(f"{pit} is not a pit of {casino}.", errors={"pit": ["other casino"]})
    min_bet, max_bet = settings.get("min_bet", 100), settings.get("max_bet", 100_000)
    if min_bet < 1 or max_bet < min_bet:
        raise ValidationFailed(
            "Limits need 1 <= min_bet <= max_bet.", errors={"max_bet": ["must be at least min_bet"]}
        )
    ledger.currency_new_check(currency)
    ledger.play_money_check(currency, sandbox=play_money, holder="table plays in")
    exists = Conflict(f"A table {code!r} exists already.")
    if Table.objects.filter(code=code).exists():
        raise exists
    with transaction.atomic():
        with unique_or(exists):
            table = Table.objects.create(
                casino=casino,
                code=code,
                name=name,
                rule_set=rule_set,
                payout_schedule=payout_schedule,
                currency=currency,
                card_source=card_source,
                **settings,
            )
        _change_log(actor=actor, table=table, kind="created", before={}, after=_config(table))
    return table


def table_clone(*, actor: Actor, table_id: int, code: str, name: str) -> Table:
    """A new closed table configured as ``table_id`` (pit, rules, currency, card source,
    limits and timers); no dealer, shoe or history."""
    source = Table.objects.select_related("casino", "pit").filter(pk=table_id).first()
    if source is None:
        raise NotFound(f"Table {table_id} does not exist.")
    return table_create(
        actor=actor,
        casino=source.casino,
        code=code,
        name=name,
        rule_set=source.rule_set,
        payout_schedule=source.payout_schedule,
        currency=source.currency,
        card_source=source.card_source,
        pit=source.pit,
        **{k: v for k, v in _limits(source).items()},
    )


def table_retire(*, actor: Actor, table_id: int) -> Table:
    """A closed table leaves the floor for good; its rounds, money and audit trail stay."""
    with transaction.atomic():
        table = table_locked(table_id)
        if table.retired_at is not None:
            raise Conflict(f"Table {table.code} is retired already.")
        if table.status != Table.Status.CLOSED:
            raise WrongPhase(f"Table {table.code} is {table.status}: close it before retiring.")
        table.retired_at = timezone.now()
        if table.dealer_id is not None:
            DealerAssignment.objects.filter(table=table, ended_at__isnull=True).update(
                ended_at=table.retired_at
            )
            table.dealer = None
        table.save(update_fields=["retired_at", "dealer"])
        _change_log(
            actor=actor,
            table=table,
            kind="retired",
            before={"retired_at": None},
            after={"retired_at": table.retired_at.isoformat()},
        )
    return table


def table_setup_set(
    *, actor: Actor, table_id: int, name: str, pit: Pit | None, card_source: str
) -> Table:
    """The table's name, pit and card source, logged. The card source changes only while the
    table is closed: closing retired its shoe, so the next round starts from the new source."""
    if card_source not in Table.CardSource.values:
        raise ValidationFailed(
            f"Unknown card source {card_source!r}.", errors={"card_source": ["unknown"]}
        )
    with transaction.atomic():
        table = table_locked(table_id)
        if pit is not None and pit.casino_id != table.casino_id:
            raise ValidationFailed(
                f"{pit} is not a pit of the table's casino.", errors={"pit": ["other casino"]}
            )
        if card_source != table.card_source and table.status != Table.Status.CLOSED:
            raise WrongPhase(
                f"Table {table.code} is {table.status}: close it before changing its card source."
            )
        before = _setup(table)
        table.name, table.pit, table.card_source = name, pit, card_source
        table.save(update_fields=["name", "pit", "card_source"])
        after = _setup(table)
        if after != before:
            _change_log(actor=actor, table=table, kind="setup", before=before, after=after)
    return table


def _setup(table: Table) -> dict[str, Any]:
    return {"name": table.name, "pit_id": table.pit_id, "card_source": table.card_source}


def _config(table: Table) -> dict[str, Any]:
    return {
        "pit_id": table.pit_id,
        "rule_set_id": table.rule_set_id,
        "payout_schedule_id": table.payout_schedule_id,
        "currency": table.currency,
        "card_source": table.card_source,
        **_limits(table),
    }


def _limits(table: Table) -> dict[str, Any]:
    return {
        "min_bet": table.min_bet,
        "max_bet": table.max_bet,
        "box_max": table.box_max,
        "min_unit": table.min_unit,
        "decision_seconds": table.decision_seconds,
        "betting_seconds": table.betting_seconds,
    }


def _table_status_change(*, actor: Actor, table_id: int, name: str, what: str) -> Table:
    with transaction.atomic():
        table = table_locked(table_id)
        before = table.status
        if name == "open" and table.retired_at is not None:
            raise Conflict(f"Table {table.code} is retired.")
        if name == "open" and (table.rule_set_id is None or table.payout_schedule_id is None):
            raise Unprocessable(f"Table {table.code} needs a rule set and a payout schedule.")
        if name == "close" and Round.objects.filter(table=table, phase__in=Round.LIVE).exists():
            raise WrongPhase(
                f"Table {table.code} has a round in play: finish or void it before closing."
            )
        transition(table, name, f"{what} table {table.code}")
        table.save(update_fields=["status"])
        if name == "open":
            boxes_ensure(table, eng.RuleSet.from_json(table.rule_set.document).boxes)
        if name == "close":
            shoe = Shoe.objects.filter(table=table, retired_at__isnull=True).first()
            if shoe is not None:
                shoe_retire(actor=actor, shoe=lock_objects.shoe_for_update(shoe.pk).get())
            Box.objects.filter(table=table).update(seat=None)
            Seat.objects.filter(table=table, left_at__isnull=True).update(left_at=timezone.now())
        _change_log(
            actor=actor,
            table=table,
            kind="status",
            before={"status": before},
            after={"status": table.status},
        )
    return table


def table_open(*, actor: Actor, table_id: int) -> Table:
    """closed -> open."""
    return _table_status_change(actor=actor, table_id=table_id, name="open", what="open")


def table_pause(*, actor: Actor, table_id: int) -> Table:
    """open -> paused: the round in play finishes; no new round opens."""
    return _table_status_change(actor=actor, table_id=table_id, name="pause", what="pause")


def table_resume(*, actor: Actor, table_id: int) -> Table:
    """paused -> open."""
    return _table_status_change(actor=actor, table_id=table_id, name="resume", what="resume")


def table_close(*, actor: Actor, table_id: int) -> Table:
    """open | paused -> closed; refused while a round is in play. Retires (reveals) the shoe."""
    return _table_status_change(actor=actor, table_id=table_id, name="close", what="close")


def table_limits_set(
    *,
    actor: Actor,
    table_id: int,
    min_bet: int,
    max_bet: int,
    box_max: int | None = None,
    min_unit: int | None = None,
    decision_seconds: int | None = None,
    betting_seconds: int | None = None,
) -> Table:
    """New limits and timers, logged; rounds copy them when they open (next round on)."""
    if min_bet < 1 or max_bet < min_bet:
        raise ValidationFailed(
            "Limits need 1 <= min_bet <= max_bet.",
            errors={"max_bet": ["must be at least min_bet"]},
        )
    if box_max is not None and box_max < min_bet:
        raise ValidationFailed(
            "box_max must be at least min_bet.", errors={"box_max": ["at least min_bet"]}
        )
    with transaction.atomic():
        table = table_locked(table_id)
        if (table.min_unit if min_unit is None else min_unit) > max_bet:
            raise ValidationFailed(
                "min_unit must be at most max_bet.", errors={"min_unit": ["at most max_bet"]}
            )
        before = _limits(table)
        table.min_bet, table.max_bet, table.box_max = min_bet, max_bet, box_max
        if min_unit is not None:
            table.min_unit = min_unit
        if decision_seconds is not None:
            table.decision_seconds = decision_seconds
        if betting_seconds is not None:
            table.betting_seconds = betting_seconds
        table.save()
        _change_log(actor=actor, table=table, kind="limits", before=before, after=_limits(table))
    return table


def table_rules_set(
    *,
    actor: Actor,
    table_id: int,
    rule_set: RuleSetVersion,
    payout_schedule: PayoutScheduleVersion,
) -> tuple[Table, RtpFigure]:
    """Activate a (rule set, payout schedule) pair from the next round; returns its RTP."""
    figure = rtp_figure(rule_set=rule_set, payout_schedule=payout_schedule)
    with transaction.atomic():
        table = table_locked(table_id)
        before = {"rule_set_id": table.rule_set_id, "payout_schedule_id": table.payout_schedule_id}
        table.rule_set, table.payout_schedule = rule_set, payout_schedule
        table.save(update_fields=["rule_set", "payout_schedule"])
        after = {
            "rule_set_id": rule_set.pk,
            "payout_schedule_id": payout_schedule.pk,
            "theoretical_rtp": str(figure.rtp) if figure.rtp is not None else None,
        }
        _change_log(actor=actor, table=table, kind="rules", before=before, after=after)
    return table, figure


def table_dealer_assign(*, actor: Actor, table_id: int, dealer) -> DealerAssignment:
    """Rotate the dealer: ends the current assignment, starts a new one (next round on).
    Refused for a dealer holding another table; ends the dealer's break."""
    if not selectors.dealer_list().filter(pk=dealer.pk).exists():
        raise ValidationFailed(
            f"{dealer} is not an active member of the dealer role.",
            errors={"dealer_id": ["not an active dealer"]},
        )
    with transaction.atomic():
        table = table_locked(table_id)
        dealer_one_table_check(table=table, dealer=dealer)
        now = timezone.now()
        before = {"dealer_id": table.dealer_id}
        DealerAssignment.objects.filter(table=table, ended_at__isnull=True).update(ended_at=now)
        dealer_break_end(actor=actor, dealer=dealer, now=now)
        assignment = dealer_assignment_create(actor=actor, table=table, dealer=dealer, now=now)
        table.dealer = dealer
        table.save(update_fields=["dealer"])
        _change_log(
            actor=actor, table=table, kind="dealer", before=before, after={"dealer_id": dealer.pk}
        )
    return assignment


def table_dealer_release(*, actor: Actor, table_id: int) -> Table:
    """The dealer leaves the table with no relief (end of shift): the table has no dealer."""
    with transaction.atomic():
        table = table_locked(table_id)
        if table.dealer_id is None:
            raise Conflict(f"Table {table.code} has no dealer.")
        before = {"dealer_id": table.dealer_id}
        DealerAssignment.objects.filter(table=table, ended_at__isnull=True).update(
            ended_at=timezone.now()
        )
        table.dealer = None
        table.save(update_fields=["dealer"])
        _change_log(
            actor=actor, table=table, kind="dealer", before=before, after={"dealer_id": None}
        )
    return table


def seat_leave(*, actor: Actor, table_id: int, player: Player) -> None:
    """The player leaves the table: the boxes they controlled become free."""
    with transaction.atomic():
        table = table_locked(table_id)
        seat = Seat.objects.filter(table=table, player=player, left_at__isnull=True).first()
        if seat is None:
            raise NotFound(f"Player {player.pk} has no seat at table {table.code}.")
        Box.objects.filter(seat=seat).update(seat=None)
        seat.left_at = timezone.now()
        seat.save(update_fields=["left_at"])
        _change_log(
            actor=actor, table=table, kind="seat", before={"player_id": player.pk}, after={}
        )
