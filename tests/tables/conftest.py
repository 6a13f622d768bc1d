"""Helpers for driving live rounds through the tables services."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from django.db import connection

from casino.actors import Actor
from casino.errors import DomainError
from ledger.models import Account
from tables import selectors, services
from tables.models import Round

ACTOR = Actor.system("tests")
DEVICE = Actor(kind="device", id="1", label="reader-1")


def balance(player) -> int:
    return Account.objects.get(kind="wallet", player=player).balance


def bet(rnd, player, box: int, stake: int, *, behind: bool = False):
    return services.bet_place(
        actor=ACTOR, round_id=rnd.pk, player=player, box=box, stake=stake, behind=behind
    )


def decide(player, action: str, amount: int | None = None, **kw) -> Callable[[int], object]:
    def step(round_id: int):
        return services.decision_make(
            actor=ACTOR, round_id=round_id, player=player, action=action, amount=amount, **kw
        )

    return step


def dealer(action: str) -> Callable[[int], object]:
    def step(round_id: int):
        return services.dealer_decision_make(actor=DEVICE, round_id=round_id, action=action)

    return step


def drive(rnd, cards: Iterable[str], script: Iterable[Callable[[int], object]] = ()) -> Round:
    """Feed cards through the reader whenever the round asks for one, else run the next
    scripted decision, until the round leaves play. Every card and decision must be used."""
    cards, script = list(cards), list(script)
    while True:
        rnd = Round.objects.get(pk=rnd.pk)
        if rnd.phase not in Round.LIVE:
            break
        state = selectors.round_state(rnd)
        if state.next_card_target() is not None:
            assert cards, f"out of cards; the round wants {state.next_card_target()}"
            services.card_post(actor=DEVICE, round_id=rnd.pk, card=cards.pop(0))
        else:
            assert script, f"out of decisions; turn {state.turn()}"
            script.pop(0)(rnd.pk)
    assert not cards and not script, (cards, script)
    return rnd


def play_round(table, bets, cards, script=(), *, close: bool = True) -> Round:
    """Open a round, place ``bets`` [(player, box, stake, behind?)], close betting, drive it."""
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    for player, box, stake, *behind in bets:
        bet(rnd, player, box, stake, behind=bool(behind and behind[0]))
    if close:
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    return drive(rnd, cards, script)


def at_once(*calls, catch: type[Exception] = DomainError, join: float = 60) -> list:
    """Run the calls at the same moment in threads (own connections); their results or the
    ``catch`` errors they raised."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except catch as exc:
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(join)
    return outcomes
