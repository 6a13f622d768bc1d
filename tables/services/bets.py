"""Bets: the hot path (the round in a share lock, the box's lock, one engine check, one stake
debit) and late refusals."""

from __future__ import annotations

import uuid
from contextlib import nullcontext

from django.db import transaction
from django.utils import timezone

from audit.services import audit_events_batched
from casino.actors import Actor
from casino.errors import Conflict, NotFound, Unprocessable
from ledger import services as ledger
from ledger.models import Player
from tables import engine as eng
from tables import events, lock_objects, writes
from tables.errors import BettingClosed, engine_error
from tables.models import Bet, RuleSetVersion
from tables.services._common import Phase, live_check, stream_wake


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
    actor = actor.acting_for(Actor.for_player(player))
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
    is raised before the first write; then the bet row, its engine event, its stake debit, the
    audit events and the box's figures are written.

    Locks (``tables/lock_objects.py``): the round in SHARE mode (bets on one round don't queue
    on it; closing the betting waits for those in flight), the player's wallet, the box. The
    round's cached engine state is neither read nor written: the engine checks the bet against
    the box's figures (``engine.bet_check``), and the bets are folded into the state when the
    betting closes (``RoundDriver``)."""
    if operator_id is not None and player.operator_id != operator_id:
        raise NotFound(f"Player {player.pk} does not exist.")
    with _joined_atomic(), audit_events_batched():
        rnd = lock_objects.round_row_for_bet(round_id)
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
        # The player's wallet, found and locked at once, then the box (lock order), in one
        # round trip: a bet without a wallet has locked its box too, and writes nothing.
        box_lock = (
            lock_objects.box_for_bet_statement(
                rnd.table_id, box, round_id=rnd.pk, player_id=player.pk
            )
            if type(box) is int and 0 < box < 2**15  # else the engine refuses it (no such box)
            else None
        )
        wallet = ledger.stake_wallet_lock(
            player_id=player.pk, currency=rnd.currency, along=box_lock
        )
        if wallet is None:
            raise Unprocessable(f"Player {player.pk} has no {rnd.currency} wallet.")
        ref = f"r{rnd.pk}-{uuid.uuid4().hex[:16]}"
        event = eng.BetPlaced(ref, box, stake, str(player.pk), behind)
        found = lock_objects.box_for_bet_row(box_lock.rows if box_lock else None)
        _bet_check(rnd, event, found)
        if found is None:  # the engine knows the box, the table has no row for it
            raise Conflict(f"Box {box} is not set up at this table.")
        if not behind and found.seat_player_id not in (None, player.pk):
            raise Conflict(f"Box {box} is held by another seated player.")
        if stake:
            ledger.stake_debit_check(
                wallet=wallet, amount=stake, currency=rnd.currency, operator_id=player.operator_id
            )
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
        payload = event.to_json()
        public = dict(payload)
        public.pop("player_id")
        # No seq: bets are numbered by their place in the fold (RoundEvent id order) when the
        # betting closes; taking the next seq would serialise the round's bets again.
        round_event = writes.round_event_row(
            rnd, type_=event.type, payload=payload, public=public, actor=actor.label
        )
        # One statement writes the bet, its engine event and the box's new figures, sent in
        # one round trip with the stake's posting: the box's lock is held one round trip less.
        written = writes.bet_insert(
            bet, event=round_event, box_update=_box_figures(rnd, player, found, stake, behind)
        )
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
                along=written,
            )
        if written.rows is None:  # no posting sent it (no stake)
            written.run()
        writes.bet_inserted(bet, written)
        events.round_event(actor=actor, round=rnd, seq=None, event=payload, bet_id=bet.pk)
        stream_wake(None, table_id=rnd.table_id)
    return bet


_RULES: dict[int, eng.RuleSet] = {}


def _bet_check(rnd, event: eng.BetPlaced, found: lock_objects.BoxForBet | None) -> None:
    """The engine's verdict on the bet, from the box's figures (the same check the fold makes
    from the round's bets: ``engine.bet_check``)."""
    rules = _RULES.get(rnd.rule_set_id)
    if rules is None:  # a rule set version is immutable once a round uses it
        document = RuleSetVersion.objects.values_list("document", flat=True).get(pk=rnd.rule_set_id)
        rules = _RULES[rnd.rule_set_id] = eng.RuleSet.from_json(document)
    box = None
    if found is not None and found.round_id == rnd.pk and found.bets:
        box = eng.BoxBets(
            str(found.controller_id), found.bets, found.stake_total, found.player_has_bet
        )
    try:
        eng.bet_check(
            rules,
            eng.TableLimits(**rnd.limits),
            event,
            box,
            player_boxes=found.player_boxes if found is not None else 0,
        )
    except eng.EngineError as exc:
        raise engine_error(exc) from None


def _box_figures(rnd, player: Player, found, stake: int, behind: bool) -> tuple[str, list]:
    """The UPDATE of the box's figures with the bet; a controlling bet starts them, and sits
    its player at the box (a box stays with its seated player until they leave)."""
    if behind:
        return writes.box_update_sql(
            found.id, bets=found.bets + 1, stake_total=found.stake_total + stake
        )
    seat_id = found.seat_id
    if found.seat_player_id != player.pk:
        seat_id = writes.seat_for_bet(table_id=rnd.table_id, player=player)
    return writes.box_update_sql(
        found.id,
        bets=1,
        stake_total=stake,
        round_id=rnd.pk,
        controller_id=player.pk,
        seat_id=seat_id,
    )


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
