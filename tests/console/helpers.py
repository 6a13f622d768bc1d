"""Helpers for the pit console tests: staff clients and rounds in a known state."""

from __future__ import annotations

from django.test import Client

from casino.actors import Actor
from tables import services
from tests.factories import UserFactory, funded_player, live_table
from tests.helpers.staff import login_verified

ACTOR = Actor.system("tests")
DEVICE = Actor(kind="device", id="1", label="reader-1")


def staff(role: str | None, **fields) -> tuple[Client, object]:
    user = UserFactory(roles=[role] if role else [], **fields)
    client = Client()
    login_verified(client, user)
    return client, user


def round_with_bet(preset: str = "crown", *, close: bool = False, **table_fields):
    """An open reader-fed table with a round holding one bet (betting still open, or closed)."""
    table = live_table(preset, **table_fields)
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=1, stake=1000)
    if close:
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    rnd.refresh_from_db()
    return table, rnd, player


def traditional_round_by_hand(**table_fields):
    """A traditional round (§7) with one player's join on box 1, betting closed: the round, and
    ``card(code)`` and ``decide(action, amount=None)`` that post its cards and the player's
    decisions one at a time."""
    table = live_table("traditional", **table_fields)
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=1, stake=0)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)

    def card(code: str) -> None:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=code)

    def decide(action: str, amount: int | None = None) -> None:
        services.decision_make(
            actor=ACTOR, round_id=rnd.pk, player=player, action=action, amount=amount
        )

    return rnd, card, decide


def act(client, url: str, **data):
    """Post an action page (reason + confirm by default) and follow to the result page."""
    payload = {"_action_page": "1", "reason": "test reason", "confirm": "on", **data}
    return client.post(url, payload, follow=True)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def play_to_settlement(table, player, *, stake: int = 1000, box: int = 1, rnd=None):
    """Play one round at a server-shoe table through the services (the demo's simple player
    policy, the house policy for the banker) and settle it as the worker would; ``rnd``: a
    round already open with ``player``'s bet, carried on from there."""
    import random

    from casino.demo.players import choose
    from tables import selectors
    from tables.models import Round

    rng = random.Random(7)
    if rnd is None:
        rnd = services.round_open(actor=DEVICE, table_id=table.pk)
        services.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=box, stake=stake)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for _ in range(200):
        rnd = Round.objects.select_related("table", "rule_set", "payout_schedule").get(pk=rnd.pk)
        if rnd.phase not in Round.LIVE:
            break
        state = selectors.round_public_state(rnd, player_id=player.pk)
        turn = state["turn"]
        if turn and turn["kind"] == "dealer":
            total = state["dealer"]["total"] or 0
            action = "hit" if total < 17 else "stand"
            services.dealer_decision_make(actor=DEVICE, round_id=rnd.pk, action=action)
            continue
        assert state["your_actions"], state
        hand = None
        if turn["kind"] == "hand":
            hands = next(b for b in state["boxes"] if b["number"] == turn["box"])["hands"]
            hand = hands[turn["hand_index"]]
        choice = choose(state["your_actions"], hand, rng)
        services.decision_make(
            actor=ACTOR,
            round_id=rnd.pk,
            player=player,
            action=choice["action"],
            amount=choice.get("amount"),
            bet_ref=choice.get("bet_id"),
        )
    services.round_settle(round_id=rnd.pk)
    rnd.refresh_from_db()
    return rnd
