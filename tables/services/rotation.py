"""Dealer rotation: one table per dealer at a time, breaks, and the check that
``table_dealer_assign`` calls (kept apart so other checks on the dealer can sit beside it)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Conflict
from tables import events
from tables.models import DealerAssignment, DealerBreak, Table


class DealerElsewhere(Conflict):
    """The dealer is assigned to another table: release them there first."""

    code = "dealer-elsewhere"
    title = "The dealer is dealing at another table"


def dealer_one_table_check(*, table: Table, dealer) -> None:
    """Refuse a dealer who holds another table (rotate them off it first)."""
    elsewhere = (
        DealerAssignment.objects.filter(dealer=dealer, ended_at__isnull=True)
        .exclude(table=table)
        .select_related("table")
        .first()
    )
    if elsewhere is not None:
        raise DealerElsewhere(
            f"{dealer.get_username()} is dealing at table {elsewhere.table.code} since "
            f"{elsewhere.started_at:%H:%M}: relieve them there first (one table per dealer)."
        )


def dealer_assignment_create(*, actor: Actor, table: Table, dealer, now) -> DealerAssignment:
    """The new assignment row; a concurrent assignment of the same dealer elsewhere that got
    past ``dealer_one_table_check`` first is refused by the database's rule, as a 409."""
    try:
        with transaction.atomic():
            return DealerAssignment.objects.create(
                table=table, dealer=dealer, started_at=now, assigned_by=actor.label
            )
    except IntegrityError:
        raise DealerElsewhere(
            f"{dealer.get_username()} was just assigned to another table (one table per dealer)."
        ) from None


def dealer_break_start(*, actor: Actor, dealer) -> DealerBreak:
    """The dealer goes on break; a table they hold stays theirs (the floor shows it open with
    its dealer away until someone relieves them or the table closes)."""
    with transaction.atomic():
        if DealerBreak.objects.filter(dealer=dealer, ended_at__isnull=True).exists():
            raise Conflict(f"{dealer.get_username()} is already on break.")
        current = DealerAssignment.objects.filter(dealer=dealer, ended_at__isnull=True).first()
        try:
            with transaction.atomic():
                pause = DealerBreak.objects.create(
                    dealer=dealer,
                    table_id=current.table_id if current else None,
                    started_at=timezone.now(),
                    started_by=actor.label,
                )
        except IntegrityError:
            raise Conflict(f"{dealer.get_username()} is already on break.") from None
        events.dealer_break_changed(actor=actor, dealer_break=pause)
    return pause


def dealer_break_end(*, actor: Actor, dealer, now=None) -> DealerBreak | None:
    """The dealer is back (also when assigned to a table); None when they were not on break."""
    with transaction.atomic():
        pause = (
            DealerBreak.objects.select_for_update(of=("self",))
            .filter(dealer=dealer, ended_at__isnull=True)
            .select_related("table")
            .first()
        )
        if pause is None:
            return None
        pause.ended_at = now or timezone.now()
        pause.save(update_fields=["ended_at"])
        events.dealer_break_changed(actor=actor, dealer_break=pause)
    return pause
