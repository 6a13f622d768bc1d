"""A round's play: opening, closing betting, cards, decisions, suspension and resumption."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import NotFound, ValidationFailed
from ledger.models import Player
from tables import engine as eng
from tables import events, lock_objects, visibility
from tables.errors import NotYourTurn, RoundSuspended, WrongPhase, engine_error
from tables.models import Bet, Decision, Round, Table
from tables.services._common import (
    Phase,
    boxes_ensure,
    enqueue,
    live_check,
    meta_event,
    round_locked,
    table_locked,
)
from tables.services.driver import RoundDriver, dealer_of_record
from tables.services.shoes import reader_shoe_for_round, server_shoe_for_round


def round_open(*, actor: Actor, table_id: int) -> Round:
    """Open a round for bets on an open table, pinning the table's rule versions, limits,
    dealer and shoe; betting closes at the dealer's action or after the betting time."""
    with transaction.atomic():
        table = table_locked(table_id)
        if table.status != Table.Status.OPEN:
            raise WrongPhase(f"Table {table.code} is {table.status}; rounds open on open tables.")
        live = Round.objects.filter(table=table, phase__in=Round.LIVE).first()
        if live is not None:
            raise WrongPhase(f"Round {live.number} of table {table.code} is still {live.phase}.")
        rules = eng.RuleSet.from_json(table.rule_set.document)
        payouts = eng.PayoutSchedule.from_json(table.payout_schedule.document)
        limits = eng.TableLimits(
            min_bet=table.min_bet,
            max_bet=table.max_bet,
            min_unit=table.min_unit,
            box_max=table.box_max,
        )
        boxes_ensure(table, rules.boxes)
        if table.card_source == Table.CardSource.SERVER_SHOE:
            shoe = server_shoe_for_round(actor=actor, table=table, rules=rules)
        else:
            shoe = reader_shoe_for_round(actor=actor, table=table, rules=rules)
        table.rounds_played += 1
        table.save(update_fields=["rounds_played"])
        state = eng.new_round(rules, payouts, limits)
        rnd = Round.objects.create(
            table=table,
            number=table.rounds_played,
            rule_set_id=table.rule_set_id,
            payout_schedule_id=table.payout_schedule_id,
            currency=table.currency,
            limits=limits.to_json(),
            card_source=table.card_source,
            decision_seconds=table.decision_seconds,
            dealer_id=table.dealer_id,
            shoe=shoe,
            state=state.to_json(),
            betting_closes_at=timezone.now() + timedelta(seconds=table.betting_seconds),
        )
        meta_event(
            rnd,
            "round_opened",
            {
                "round_id": rnd.pk,
                "number": rnd.number,
                "betting_closes_at": rnd.betting_closes_at.isoformat(),
                "shoe_commitment": shoe.shuffles.order_by("-number").first().commitment
                if shoe is not None
                else "",
            },
            actor,
        )
        events.round_opened(actor=actor, round=rnd)
        enqueue("tables.round_betting_close_due", [rnd.pk], eta=rnd.betting_closes_at)
    return rnd


def round_close_betting(*, actor: Actor, round_id: int, table_id: int | None = None) -> Round:
    """The dealer closes betting (open -> closed); a server shoe then deals the first cards.
    A second, racing close gets 409."""
    with transaction.atomic():
        rnd = round_locked(round_id, table_id=table_id)
        if rnd.phase != Phase.OPEN:
            raise WrongPhase(f"Betting on round {rnd.pk} is not open (round {rnd.phase}).")
        live_check(rnd)
        play = RoundDriver(actor, rnd)
        play.close_betting()
        return play.finish()


@dataclass(frozen=True)
class CardPosted:
    round: Round
    card: str
    target: dict[str, Any]


def card_post(
    *,
    actor: Actor,
    round_id: int,
    card: str,
    shoe_position: int | None = None,
    table_id: int | None = None,
) -> CardPosted:
    """The card reader posts the next card; the server says which hand it went to.

    Refused with 409 when no card is expected. A card the shoe can't contain, or a reader
    count (``shoe_position``: the reader's number of this card in the shoe) that disagrees with
    the server's, suspends the round for the pit (RoundSuspended, 409) and is not dealt."""
    refusal = ""
    with transaction.atomic():
        rnd = round_locked(round_id, table_id=table_id)
        live_check(rnd)
        if rnd.card_source != Table.CardSource.CARD_READER:
            raise WrongPhase("This round deals from the server shoe; the reader posts no cards.")
        # The table's device (or the pit) posts the card for the dealer of record.
        actor = actor if actor.on_behalf_of else actor.acting_for(dealer_of_record(rnd))
        play = RoundDriver(actor, rnd)
        target = play.state.next_card_target()
        if target is None:
            raise WrongPhase(f"No card is expected now (turn: {play.state.turn()}).")
        forced = play.state.next_card_forced()
        try:
            code = eng.parse_card(card).code
        except eng.EngineError as exc:
            raise ValidationFailed(str(exc), errors={"card": [str(exc)]}) from None
        shoe = lock_objects.shoe_for_update(rnd.shoe_id).first() if rnd.shoe_id else None
        if shoe is None or shoe.retired_at is not None:
            raise WrongPhase("Load a shoe (with its shuffle record) before the first card.")
        expected = shoe.cards_dealt + 1
        if shoe_position is not None and shoe_position != expected:
            refusal = (
                f"count mismatch: the reader counts card {shoe_position}, the server {expected}"
            )
        else:
            composition = eng.ShoeComposition(shoe.deck_kind, shoe.decks)
            composition.seen.update({eng.parse_card(k): n for k, n in shoe.seen.items()})
            try:
                composition.check(code)
                after = eng.apply(play.state, eng.CardDealt(code))
            except eng.ImpossibleCard as exc:
                refusal = f"impossible card {code}: {exc}"
            except eng.EngineError as exc:
                raise engine_error(exc) from None
        if refusal:
            _suspend(actor, rnd, refusal, card=code)
        else:
            play.apply(eng.CardDealt(code), after=after)
            shoe.seen[code] = shoe.seen.get(code, 0) + 1
            shoe.cards_dealt += 1
            shoe.save(update_fields=["seen", "cards_dealt"])
            play.finish()
    if refusal:
        raise RoundSuspended(f"Card {code} refused and round {round_id} suspended: {refusal}.")
    return CardPosted(round=rnd, card=code, target=visibility.target_json(target, forced=forced))


def _suspend(actor: Actor, rnd: Round, reason: str, *, card: str = "") -> None:
    rnd.suspended_reason = reason[:500]
    rnd.decision_deadline = rnd.decision_token = None
    rnd.save(update_fields=["suspended_reason", "decision_deadline", "decision_token"])
    meta_event(rnd, "round_suspended", {"reason": reason, "card": card}, actor)
    events.round_suspended(actor=actor, round=rnd, reason=reason, card=card)


def round_resume(*, actor: Actor, round_id: int, note: str = "") -> Round:
    """The pit resumes a suspended round (after having the correct card scanned next)."""
    with transaction.atomic():
        rnd = round_locked(round_id)
        if not rnd.suspended_reason:
            raise WrongPhase(f"Round {rnd.pk} is not suspended.")
        reason, rnd.suspended_reason = rnd.suspended_reason, ""
        meta_event(rnd, "round_resumed", {"note": note}, actor)
        events.round_resumed(actor=actor, round=rnd, reason=reason, note=note)
        play = RoundDriver(actor, rnd)
        play.turn_changed = True  # a fresh decision window after the pause
        return play.finish()


@dataclass(frozen=True)
class Played:
    round: Round
    seq: int
    event: dict[str, Any]


def decision_make(
    *,
    actor: Actor,
    round_id: int,
    player: Player,
    action: str,
    amount: int | None = None,
    bet_ref: str | None = None,
    box: int | None = None,
    hand_index: int | None = None,
    operator_id: int | None = None,
) -> Played:
    """A player's decision: a hand decision by the box's controller, or a bettor's answer in
    an insurance / even-money, match or staking window. Stakes it adds are debited."""
    if operator_id is not None and player.operator_id != operator_id:
        raise NotFound(f"Player {player.pk} does not exist.")
    actor = actor.acting_for(Actor.for_player(player))
    with transaction.atomic():
        rnd = round_locked(round_id)
        live_check(rnd)
        play = RoundDriver(actor, rnd)
        state = play.state
        turn = state.turn()
        me = str(player.pk)
        if bet_ref is not None and getattr(state.bets.get(bet_ref), "player_id", None) != me:
            raise ValidationFailed(
                f"bet_id {bet_ref!r} is not a bet of player {me} in round {rnd.pk}.",
                errors={"bet_id": ["not this player's bet in this round"]},
            )
        if turn is None or turn.kind == eng.TurnKind.DEALER:
            raise WrongPhase(f"No player decision is expected now (round {rnd.phase}).")
        if turn.kind == eng.TurnKind.HAND:
            turn_box, turn_hand = turn.box, turn.hand
            if state.boxes[turn_box].controller != me:
                raise NotYourTurn(f"It is box {turn_box}'s turn; player {me} does not control it.")
            if (box, hand_index) != (None, None) and (box, hand_index) != (turn_box, turn_hand):
                raise NotYourTurn(
                    f"It is box {turn_box} hand {turn_hand}'s turn, not box {box} hand "
                    f"{hand_index}."
                )
            bet_id = state.boxes[turn_box].bet_ids[0]
            if bet_ref not in (None, bet_id):
                raise NotYourTurn(f"It is bet {bet_id}'s turn (box {turn_box}), not {bet_ref}'s.")
            event = eng.Decision(turn_box, turn_hand, action, amount)
        else:
            mine = [
                b
                for b in turn.bets
                if state.bets[b].player_id == me and (bet_ref is None or b == bet_ref)
            ]
            if not mine:
                raise NotYourTurn(f"Player {me} has no bet waiting for a {turn.kind} decision.")
            if len(mine) > 1:
                raise ValidationFailed(
                    "Several of the player's bets are waiting; name one with bet_ref.",
                    errors={"bet_ref": ["required: one of " + ", ".join(mine)]},
                )
            bet_id = mine[0]
            try:
                event = eng.event_for_action(state, action, amount, bet_id)
            except eng.EngineError as exc:
                raise engine_error(exc) from None
        bet = Bet.objects.get(round=rnd, ref=bet_id)
        play.apply(event, source=Decision.Source.PLAYER, bet=bet)
        seq = rnd.seq
        play.deal_from_server_shoe()
        play.finish()
    return Played(round=rnd, seq=seq, event=event.to_json())


def dealer_decision_make(
    *, actor: Actor, round_id: int, action: str, table_id: int | None = None
) -> Played:
    """The banker's hit / stand in a banker's-choice game (dealer device)."""
    with transaction.atomic():
        rnd = round_locked(round_id, table_id=table_id)
        live_check(rnd)
        play = RoundDriver(actor, rnd)
        event = eng.DealerDecision(action)
        play.apply(event, source=Decision.Source.DEALER)
        seq = rnd.seq
        play.deal_from_server_shoe()
        play.finish()
    return Played(round=rnd, seq=seq, event=event.to_json())
