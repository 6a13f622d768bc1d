"""The round driver: applies engine events to a locked round and writes what each implies."""

from __future__ import annotations

import secrets
from collections import Counter
from datetime import timedelta
from typing import Any

from django.db.models import F
from django.utils import timezone
from django_fsm import can_proceed

from casino.actors import Actor
from casino.errors import Conflict
from casino.rows import model_remembered, model_update_changed
from ledger import services as ledger
from tables import engine as eng
from tables import events, lock_objects, selectors, visibility, writes
from tables.errors import engine_error
from tables.models import Bet, Decision, Hand, Round, Shoe, Shuffle, Table
from tables.services._common import Phase, columns_remember, enqueue, meta_event, stream_wake

# Bets behind and insurance / staking windows: answering keeps the shared window (and its
# deadline) open for the others still pending.
WINDOW_RESPONSES = (
    eng.MatchMade,
    eng.MatchDeclined,
    eng.InsuranceTaken,
    eng.EvenMoneyTaken,
    eng.InsuranceDeclined,
    eng.StakePlaced,
    eng.Withdrawn,
)
_ENGINE_TO_ROUND = {
    eng.Phase.BETTING: Phase.OPEN,
    eng.Phase.DEALING: Phase.DEALING,
    eng.Phase.STAKING: Phase.DEALING,
    eng.Phase.INSURANCE: Phase.DEALING,
    eng.Phase.PLAYING: Phase.PLAYING,
    eng.Phase.DEALER: Phase.DEALER,
    eng.Phase.COMPLETE: Phase.SETTLING,
}
_PHASE_ORDER = [
    Phase.OPEN,
    Phase.CLOSED,
    Phase.DEALING,
    Phase.PLAYING,
    Phase.DEALER,
    Phase.SETTLING,
]
_TRANSITION_TO = {
    Phase.CLOSED: "close_betting",
    Phase.DEALING: "deal",
    Phase.PLAYING: "play",
    Phase.DEALER: "dealer_turn",
    Phase.SETTLING: "complete",
}


def _bet_totals(state: eng.RoundState) -> Counter[str]:
    """Each bet's whole stake at risk: every hand's base + added stake, plus insurance."""
    totals: Counter[str] = Counter()
    for box in state.boxes.values():
        for hand in box.hands:
            for bet_id, stake in hand.stakes.items():
                totals[bet_id] += stake[0] + stake[1]
    for bet_id, bet in state.bets.items():
        totals[bet_id] += bet.insurance
    return totals


class RoundDriver:
    """Applies engine events to one locked round and writes everything each event implies.

    Preconditions: the caller is inside a transaction and already holds the round's row lock
    (``lock_objects.round_for_update``), and keeps both until it
    has called ``finish``. The driver trusts the row it was given (it never re-reads it), takes
    only the locks that come after the round's in ``tables/lock_objects.py`` (the shoe, then
    the ledger's), and writes the round row back in ``finish``, only the columns that changed
    since the lock was taken (``columns_remember``)."""

    def __init__(self, actor: Actor, rnd: Round):
        self.actor = actor
        self.rnd = rnd if model_remembered(rnd) else columns_remember(rnd)
        self.state = selectors.round_state(rnd)
        if rnd.phase == Round.Phase.OPEN:
            # The bets placed so far (folded just now) have no seq: the next event is numbered
            # after them, so that seq counts the engine events applied, as the cache does.
            rnd.seq = self.state.events
        self.turn_changed = False

    def check(self, event: eng.Event) -> eng.RoundState:
        """The state after ``event``, or the engine's refusal as a domain error."""
        try:
            return eng.apply(self.state, event)
        except eng.EngineError as exc:
            raise engine_error(exc) from None

    def apply(
        self,
        event: eng.Event,
        *,
        source: str = "",
        bet: Bet | None = None,
        after: eng.RoundState | None = None,
    ) -> eng.RoundState:
        """Apply ``event`` and write what it implies. Not bets: ``bet_place`` writes them
        without the round's state, and the state folds them in when betting closes."""
        before = self.state
        after = after or self.check(event)
        rnd = self.rnd
        rnd.seq += 1
        payload = event.to_json()
        # A card the rules deal without a decision (§6, §7) is marked in the stream and the
        # audit log; the engine payload (the fold input) stays as the engine wrote it.
        forced = isinstance(event, eng.CardDealt) and before.next_card_forced()
        row = writes.round_event_row(
            rnd,
            seq=rnd.seq,
            type_=event.type,
            payload=payload,
            public=self._public(before, event, forced=forced),
            actor=self.actor.describe(),
        )
        writes.round_event_insert(row)
        stream_wake(row)
        events.round_event(
            actor=self.actor,
            round=rnd,
            seq=rnd.seq,
            event=payload,
            bet_id=bet.pk if bet else None,
            forced=forced,
        )
        self._stakes_debit(before, after, event)
        if source:
            self._decision_record(event, source, bet)
        self.state = after
        if not (isinstance(event, WINDOW_RESPONSES) and after.window is not None):
            self.turn_changed = True
        self._reveal_dealer(before, after)
        self._reveal_boxes(before, after)
        self._phase_sync()
        return after

    def _public(
        self, before: eng.RoundState, event: eng.Event, *, forced: bool = False
    ) -> dict[str, Any]:
        public = event.to_json()
        public.pop("player_id", None)
        if isinstance(event, eng.CardDealt):
            target = before.next_card_target()
            public["target"] = visibility.target_json(target, forced=forced)
            public["forced"] = forced
            if target.kind == eng.TargetKind.DEALER:
                if (
                    before.rules.dealer_cards_face_down
                    and before.phase not in visibility.FACE_DOWN_UNTIL
                ):
                    public["card"] = None  # face down: revealed by a dealer_revealed entry
            elif target.kind == eng.TargetKind.BOX:
                hand = before.hand(target.box, target.hand)
                if visibility.box_face_down(before, hand, len(hand.cards)):
                    public["card"] = None  # face down: revealed by a hands_revealed entry
        return public

    def _reveal_boxes(self, before: eng.RoundState, after: eng.RoundState) -> None:
        if (
            before.rules.staking_after_first_card
            and before.phase != eng.Phase.COMPLETE
            and after.phase == eng.Phase.COMPLETE
        ):
            hands = {
                str(number): [[c.code for c in h.cards] for h in box.hands]
                for number, box in after.boxes.items()
            }
            meta_event(self.rnd, "hands_revealed", {"boxes": hands}, self.actor)

    def _reveal_dealer(self, before: eng.RoundState, after: eng.RoundState) -> None:
        if (
            before.rules.dealer_cards_face_down
            and visibility.dealer_hidden(before)
            and not visibility.dealer_hidden(after)
            and after.dealer
        ):
            meta_event(
                self.rnd, "dealer_revealed", {"cards": [c.code for c in after.dealer]}, self.actor
            )

    def _stakes_debit(self, before: eng.RoundState, after: eng.RoundState, event) -> None:
        """Debit every stake the event added (double, split, buy, match, insurance)."""
        old, new = _bet_totals(before), _bet_totals(after)
        added = {k: v - old.get(k, 0) for k, v in new.items() if v > old.get(k, 0)}
        if not added:
            return
        rnd = self.rnd
        bets = Bet.objects.filter(round=rnd, ref__in=list(added)).select_related("wallet")
        for bet in sorted(bets, key=lambda b: b.wallet_id):
            amount = added[bet.ref]
            ledger.stake_debit(
                actor=self.actor,
                wallet=bet.wallet,
                amount=amount,
                currency=rnd.currency,
                table_id=rnd.table_id,
                round_id=rnd.pk,
                bet_ref=bet.ref,
                operator_id=bet.operator_id,
                dealer_id=rnd.dealer_id,
                reference=f"stake:{bet.ref}:{rnd.seq}",
            )
            Bet.objects.filter(pk=bet.pk).update(staked_total=F("staked_total") + amount)

    def _decision_record(self, event: eng.Event, source: str, bet: Bet | None) -> None:
        data = event.to_json()
        action = data.get("action") or event.type
        Decision.objects.create(
            round=self.rnd,
            seq=self.rnd.seq,
            source=source,
            box=data.get("box"),
            hand_index=data.get("hand_index"),
            bet=bet,
            action=action,
            amount=data.get("amount"),
            actor=self.actor.describe(),
        )

    def _phase_sync(self) -> None:
        """Move the round's FSM phase to where the engine is (one step or a legal skip)."""
        rnd, state = self.rnd, self.state
        target = _ENGINE_TO_ROUND[state.phase]
        no_cards = not state.dealer and not any(
            h.cards for box in state.boxes.values() for h in box.hands
        )
        if target == Phase.DEALING and no_cards:
            target = Phase.CLOSED
        while rnd.phase != target:
            before = rnd.phase
            method = getattr(rnd, _TRANSITION_TO[target])
            if not can_proceed(method):
                step = _PHASE_ORDER[_PHASE_ORDER.index(before) + 1]
                method = getattr(rnd, _TRANSITION_TO[step])
            method()
            if rnd.phase == Phase.CLOSED:
                rnd.closed_at = timezone.now()
                rnd.betting_closes_at = None
            if rnd.phase == Phase.SETTLING:
                rnd.settling_since = timezone.now()
                enqueue("tables.round_settle", [rnd.pk])
            events.round_phase_changed(actor=self.actor, round=rnd, before=before, after=rnd.phase)
            meta_event(rnd, "phase", {"from": before, "to": rnd.phase}, self.actor)

    def close_betting(self) -> None:
        self.apply(eng.BettingClosed())
        self.deal_from_server_shoe()

    def deal_from_server_shoe(self) -> None:
        """On a server-shoe table the server deals every card the state asks for, at once."""
        rnd = self.rnd
        if rnd.card_source != Table.CardSource.SERVER_SHOE or self.state.next_card_target() is None:
            return
        shoe = lock_objects.shoe_for_update(rnd.shoe_id).get()
        # The shoe deals, for the dealer of record: not the key or timer whose action made
        # the cards due (recorded as ``via``), so "who dealt this card?" has the right answer.
        trigger, self.actor = self.actor, server_shoe_actor(rnd, shoe, via=self.actor)
        try:
            while self.state.next_card_target() is not None:
                card = self._server_draw(shoe)
                self.apply(eng.CardDealt(card))
        finally:
            self.actor = trigger
        shoe.save(update_fields=["order", "position", "cut_index", "cards_dealt"])

    def _server_draw(self, shoe: Shoe) -> str:
        if shoe.position >= len(shoe.order):
            self._reshuffle_discards(shoe)
        card = shoe.order[shoe.position]
        shoe.position += 1
        shoe.cards_dealt += 1
        return card

    def _reshuffle_discards(self, shoe: Shoe) -> None:
        """An exhausted server shoe mid-round: shuffle the discards, recorded like any shuffle."""
        if not self.state.rules.reshuffle_discards_when_exhausted:
            raise Conflict("The shoe is exhausted and this game does not reshuffle discards.")
        engine_shoe = eng.Shoe(
            shoe.deck_kind,
            shoe.decks,
            [eng.parse_card(c) for c in shoe.order],
            "",
            len(shoe.order),
            position=shoe.position,
        )
        salt = secrets.token_hex(16)
        record = engine_shoe.reshuffle_discards(self.state.live_cards(), salt=salt)
        pool = [c.code for c in engine_shoe.order]
        shoe.order, shoe.position, shoe.cut_index = pool, 0, len(pool)
        shuffle = Shuffle.objects.create(
            shoe=shoe,
            number=shoe.shuffles.count() + 1,
            method="server_csprng_discards",
            commitment=record.commitment,
            cards=len(pool),
            salt=salt,
            sealed_order=pool,
        )
        events.shoe_shuffled(actor=self.actor, shoe=shoe, shuffle=shuffle)
        meta_event(
            self.rnd,
            "shoe_reshuffled",
            {"shoe_id": shoe.pk, "commitment": record.commitment},
            self.actor,
        )

    def finish(self) -> Round:
        """Timers, projections and the cached state; saves the round."""
        rnd, state = self.rnd, self.state
        if (
            rnd.phase in Round.LIVE
            and state.turn() is not None
            and not rnd.suspended_reason
            and rnd.held_since is None
        ):
            if self.turn_changed or rnd.decision_token is None:
                _decision_window_open(rnd)
        else:
            rnd.decision_deadline = rnd.decision_token = None
        if state.phase != eng.Phase.BETTING:
            _hands_sync(rnd, state)
        rnd.state = state.to_json()
        model_update_changed(rnd, always=["state"])
        return rnd


def dealer_of_record(rnd: Round) -> Actor:
    """Who the round's cards are dealt for: its dealer of record, or the table when none."""
    if rnd.dealer_id is not None:
        return Actor(kind="user", id=str(rnd.dealer_id), label=rnd.dealer.get_username())
    return Actor(kind="table", id=str(rnd.table_id), label=rnd.table.code)


def server_shoe_actor(rnd: Round, shoe: Shoe, *, via: Actor) -> Actor:
    return Actor(
        kind="server_shoe",
        id=str(shoe.pk),
        label=f"server shoe {shoe.pk} of table {rnd.table.code}",
        request_id=via.request_id,
        on_behalf_of=dealer_of_record(rnd),
        via=via,
    )


def _decision_window_open(rnd: Round) -> None:
    rnd.decision_token = rnd.seq
    rnd.decision_deadline = timezone.now() + timedelta(seconds=rnd.decision_seconds)
    enqueue("tables.round_timeout_apply", [rnd.pk, rnd.seq], eta=rnd.decision_deadline)


def _hands_sync(rnd: Round, state: eng.RoundState) -> None:
    rows = [
        Hand(
            round=rnd,
            box=number,
            index=index,
            cards=[c.code for c in h.cards],
            status=h.status,
            total=state.value(h).total,
            doubles=h.doubles,
            split=h.split,
            stakes={k: s[0] + s[1] for k, s in h.stakes.items()},
        )
        for number, box in state.boxes.items()
        for index, h in enumerate(box.hands)
    ]
    Hand.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["round", "box", "index"],
        update_fields=["cards", "status", "total", "doubles", "split", "stakes"],
    )
