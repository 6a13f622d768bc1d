"""Shoes: server shuffles with their commitments, reader-fed loads, retirement and reveal."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Unprocessable
from tables import engine as eng
from tables import events, lock_objects
from tables.errors import WrongPhase
from tables.models import Round, Shoe, Shuffle, Table
from tables.services._common import meta_event, round_locked, table_locked
from tables.services.driver import RoundDriver


def shoe_retire(*, actor: Actor, shoe: Shoe) -> None:
    """Retire a shoe (row locked by the caller): reveal every shuffle and verify it."""
    if shoe.retired_at is not None:
        return
    now = timezone.now()
    reveal = []
    verified = True
    for shuffle in shoe.shuffles.order_by("number"):
        entry = {"shuffle": shuffle.number, "commitment": shuffle.commitment}
        if shoe.source == Shoe.Source.SERVER:
            ok = eng.verify_commitment(shuffle.sealed_order, shuffle.salt, shuffle.commitment)
            verified = verified and ok
            entry.update({"order": shuffle.sealed_order, "salt": shuffle.salt, "verified": ok})
            shuffle.revealed_at = now
            shuffle.save(update_fields=["revealed_at"])
        reveal.append(entry)
    shoe.retired_at = now
    shoe.verified = verified if shoe.source == Shoe.Source.SERVER else None
    shoe.save(update_fields=["retired_at", "verified"])
    events.shoe_retired(actor=actor, shoe=shoe, reveal=reveal)


def _live_shoe_retire(*, actor: Actor, table: Table) -> None:
    """Retire the table's shoe in use, if any (a new one replaces it)."""
    current = Shoe.objects.filter(table=table, retired_at__isnull=True).first()
    if current is not None:
        shoe_retire(actor=actor, shoe=lock_objects.shoe_for_update(current.pk).get())


def _server_shoe_new(*, actor: Actor, table: Table, rules: eng.RuleSet) -> Shoe:
    """A CSPRNG-shuffled shoe whose commitment is recorded before its first card."""
    shuffled = eng.shuffle_shoe(rule_set=rules)
    codes = [c.code for c in shuffled.order]
    shoe = Shoe.objects.create(
        table=table,
        source=Shoe.Source.SERVER,
        deck_kind=rules.deck_kind,
        decks=rules.decks,
        shuffle_method="server_csprng",
        cut_index=shuffled.cut_index,
        order=codes,
    )
    shuffle = Shuffle.objects.create(
        shoe=shoe,
        number=1,
        method="server_csprng",
        commitment=shuffled.commitment,
        cards=len(codes),
        salt=shuffled.salt,
        sealed_order=codes,
    )
    events.shoe_shuffled(actor=actor, shoe=shoe, shuffle=shuffle)
    return shoe


def server_shoe_for_round(*, actor: Actor, table: Table, rules: eng.RuleSet) -> Shoe:
    current = Shoe.objects.filter(table=table, retired_at__isnull=True).first()
    if current is not None:
        current = lock_objects.shoe_for_update(current.pk).get()
        stale = (
            current.source != Shoe.Source.SERVER
            or current.deck_kind != rules.deck_kind
            or current.decks != rules.decks
            or current.cut_card_out
            or (rules.whole_shoe_each_round and current.cards_dealt > 0)
        )
        if not stale:
            return current
        shoe_retire(actor=actor, shoe=current)
    return _server_shoe_new(actor=actor, table=table, rules=rules)


def reader_shoe_for_round(*, actor: Actor, table: Table, rules: eng.RuleSet) -> Shoe | None:
    """The reader shoe loaded on the table, or None: the dealer loads one before the first card.
    A shoe of other decks than the rules' (the table's rules changed) is retired, not dealt
    from: its cards would be refused as impossible, or allowed where the rules' shoe has none.
    In a game that deals every round from the whole shoe (shuffled before each round, or a
    continuous shuffler) the impossible-card check starts each round from the whole
    composition again: the last round's cards are back."""
    current = Shoe.objects.filter(table=table, retired_at__isnull=True).first()
    if current is None:
        return None
    if (
        current.source != Shoe.Source.READER
        or current.deck_kind != rules.deck_kind
        or current.decks != rules.decks
    ):
        shoe_retire(actor=actor, shoe=lock_objects.shoe_for_update(current.pk).get())
        return None
    if current.seen and rules.whole_shoe_each_round:
        current = lock_objects.shoe_for_update(current.pk).get()
        current.seen = {}
        current.save(update_fields=["seen"])
    return current


def shoe_load(
    *,
    actor: Actor,
    table_id: int,
    shuffle_method: str,
    device_id: str = "",
    commitment: str = "",
) -> Shoe:
    """A reader-fed table loads a new shoe with its shuffle record (also mid-round, §8).

    The previous shoe is retired; a live round continues from the new shoe."""
    with transaction.atomic():
        table = table_locked(table_id)
        if table.card_source != Table.CardSource.CARD_READER:
            raise WrongPhase(f"Table {table.code} deals from the server shoe; it loads no shoes.")
        if table.rule_set_id is None:
            raise Unprocessable(f"Table {table.code} has no rule set.")
        rules = eng.RuleSet.from_json(table.rule_set.document)
        live = Round.objects.filter(table=table, phase__in=Round.LIVE).first()
        rnd = round_locked(live.pk) if live is not None else None
        _live_shoe_retire(actor=actor, table=table)
        shoe = Shoe.objects.create(
            table=table,
            source=Shoe.Source.READER,
            deck_kind=rules.deck_kind,
            decks=rules.decks,
            shuffle_method=shuffle_method,
            device_id=device_id,
        )
        shuffle = Shuffle.objects.create(
            shoe=shoe,
            number=1,
            method=shuffle_method,
            device_id=device_id,
            commitment=commitment,
            cards=(48 if rules.deck_kind == "spanish" else 52) * rules.decks,
        )
        events.shoe_shuffled(actor=actor, shoe=shoe, shuffle=shuffle)
        if rnd is not None:
            rnd.shoe = shoe
            rnd.save(update_fields=["shoe"])
            meta_event(rnd, "shoe_loaded", {"shoe_id": shoe.pk, "commitment": commitment}, actor)
            play = RoundDriver(actor, rnd)
            if play.state.phase not in (eng.Phase.BETTING, eng.Phase.COMPLETE):
                # Cards are in play from the old shoe: the engine counts the new one's anew.
                play.apply(eng.ShoeReplaced())
                play.turn_changed = False  # a decision being waited for keeps its window
                play.finish()
    return shoe


def shoe_replace(*, actor: Actor, table_id: int) -> Shoe:
    """The pit changes a server-shoe table's shoe between rounds: the current shoe is retired
    (its order revealed and checked against its commitment) and a freshly shuffled one, with
    its commitment, waits for the next round."""
    with transaction.atomic():
        table = table_locked(table_id)
        if table.card_source != Table.CardSource.SERVER_SHOE:
            raise WrongPhase(f"Table {table.code} is reader-fed: load its new shoe instead.")
        if table.rule_set_id is None:
            raise Unprocessable(f"Table {table.code} has no rule set.")
        if Round.objects.filter(table=table, phase__in=Round.LIVE).exists():
            raise WrongPhase(f"Table {table.code} has a round in play; change the shoe after it.")
        _live_shoe_retire(actor=actor, table=table)
        return _server_shoe_new(
            actor=actor, table=table, rules=eng.RuleSet.from_json(table.rule_set.document)
        )
