"""Bets: the hot path (one round lock, one engine check, one stake debit) and late refusals."""

from __future__ import annotations

import uuid
from contextlib import nullcontext

from django.db import transaction
from django.utils import timezone

from audit.services import audit_events_batched
from casino.actors import Actor
from casino.errors import Conflict, NotFound, Unprocessable
from casino.rows import model_first, model_insert, model_select_sql, model_update
from ledger import services as ledger
from ledger.models import Player
from tables import engine as eng
from tables import events, lock_objects
from tables.errors import BettingClosed
from tables.models import Bet, Box, Seat
from tables.services._common import Phase, live_check
from tables.services.driver import RoundDriver


def bet_place(
    *,
    actor: Actor,
    round_id: int,
    player: Player,
    box: int,
    stake: int,
    behind: bool = False,
    operator_id: int | None = None,
) -> Bet:
    """Place a bet (the box controller's, or a bet behind): the engine checks limits and
    seats, the ledger debits the stake, all in one transaction with its audit events.

    Raises ``BettingClosed`` (409) once betting has closed or its time is up; a caller outside
    a transaction gets the refusal audited here, a caller inside one (the API's idempotency
    block, which rolls back) records it with ``late_bet_record`` after the rollback."""
    try:
        return _bet_place(
            actor=actor,
            round_id=round_id,
            player=player,
            box=box,
            stake=stake,
            behind=behind,
            operator_id=operator_id,
        )
    except BettingClosed as refusal:
        if not transaction.get_connection().in_atomic_block:
            late_bet_record(actor=actor, refusal=refusal)
        raise


def _joined_atomic():
    """Join the caller's transaction as is (the API's idempotency block: no savepoint round
    trips on the bet path), or open one. Used where every refusal is raised before the first
    write, so a caller that catches a refusal and carries on finds nothing half-written."""
    if transaction.get_connection().in_atomic_block:
        return nullcontext()
    return transaction.atomic()


def _bet_place(*, actor, round_id, player, box, stake, behind, operator_id) -> Bet:
    """Every refusal (late, suspended, no wallet, the engine's, the box's seat, the ledger's)
    is raised before the first write; then the bet row, its engine event, its stake debit and
    the audit events are written, and the round's cached state saved."""
    if operator_id is not None and player.operator_id != operator_id:
        raise NotFound(f"Player {player.pk} does not exist.")
    with _joined_atomic(), audit_events_batched():
        rnd = lock_objects.round_row_for_update(round_id)
        if rnd is None:
            raise NotFound(f"Round {round_id} does not exist.")
        now = timezone.now()
        late = rnd.phase != Phase.OPEN or (
            rnd.betting_closes_at is not None and now >= rnd.betting_closes_at
        )
        if late:
            raise BettingClosed(
                f"Betting on round {rnd.pk} is closed (round {rnd.phase}"
                + (
                    f", betting time ended {rnd.betting_closes_at.isoformat()})."
                    if rnd.phase == Phase.OPEN
                    else ")."
                ),
                round_id=rnd.pk,
                table_id=rnd.table_id,
                bet={"player_id": player.pk, "box": box, "stake": stake, "behind": behind},
            )
        if rnd.suspended_reason:
            live_check(rnd)
        # The player's wallet, found and locked at once (round, then wallet: lock order).
        wallet = ledger.stake_wallet_lock(player_id=player.pk, currency=rnd.currency)
        if wallet is None:
            raise Unprocessable(f"Player {player.pk} has no {rnd.currency} wallet.")
        play = RoundDriver(actor, rnd)
        ref = f"r{rnd.pk}-{uuid.uuid4().hex[:16]}"
        event = eng.BetPlaced(ref, box, stake, str(player.pk), behind)
        after = play.check(event)
        seat_box = None if behind else _box_seat_check(rnd.table_id, player, box)
        # The stake the bet puts at risk: what _stakes_debit would find between the two states
        # (a bet's base stake; 0 in games that stake after the first card).
        if stake:
            ledger.stake_debit_check(
                wallet=wallet, amount=stake, currency=rnd.currency, operator_id=player.operator_id
            )
        if seat_box is not None:
            _box_seat_take(rnd.table_id, player, seat_box)
        bet = Bet(
            round=rnd,
            ref=ref,
            box=box,
            behind=behind,
            player=player,
            wallet=wallet,
            operator_id=player.operator_id,
            stake=stake,
            staked_total=stake,  # debited below, in this transaction
        )
        model_insert(bet)
        play.apply(event, bet=bet, after=after, debit=False)
        if stake:
            ledger.stake_debit(
                actor=actor,
                wallet=wallet,
                wallet_locked=True,
                amount=stake,
                currency=rnd.currency,
                table_id=rnd.table_id,
                round_id=rnd.pk,
                bet_ref=ref,
                operator_id=player.operator_id,
                dealer_id=rnd.dealer_id,
            )
        play.finish()
    return bet


def _box_seat_check(table_id: int, player: Player, number: int) -> Box:
    """The box the controller sits at; Conflict when another seated player holds it."""
    box = Box.objects.select_related("seat").get(table_id=table_id, number=number)
    if box.seat is not None and box.seat.left_at is None and box.seat.player_id != player.pk:
        raise Conflict(f"Box {number} is held by another seated player.")
    return box


def _box_seat_take(table_id: int, player: Player, box: Box) -> None:
    """The controller sits at the box (a box stays with its seated player until they leave)."""
    if box.seat is not None and box.seat.left_at is None and box.seat.player_id == player.pk:
        return  # already theirs
    # Under the round lock (one live round per table), nobody else seats this player here now:
    # a plain get-then-create, without get_or_create's savepoint round trips.
    # (At most one such seat: seat_one_per_player_per_table.)
    sql = model_select_sql(Seat, "table_id = %s AND player_id = %s AND left_at IS NULL")
    seat = model_first(Seat, sql, [table_id, player.pk])
    if seat is None:
        seat = Seat(table_id=table_id, player=player, left_at=None)
        model_insert(seat)
    if box.seat_id != seat.pk:
        box.seat = seat
        model_update(box, ["seat_id"])


def late_bet_record(*, actor: Actor, refusal: BettingClosed) -> None:
    """Audit a refused late bet in a transaction of its own (the bet's own rolled back)."""
    with transaction.atomic():
        events.late_bet_refused(
            actor=actor,
            table_id=refusal.table_id,
            round_id=refusal.round_id,
            reason=refusal.detail,
            bet=refusal.bet,
        )
