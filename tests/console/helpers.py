"""Helpers for the pit console tests: staff clients and rounds in a known state."""

from __future__ import annotations

from django.test import Client

from casino.actors import Actor
from tables import services
from tests.factories import UserFactory, funded_player, live_table

ACTOR = Actor.system("tests")
DEVICE = Actor(kind="device", id="1", label="reader-1")


def staff(role: str | None, **fields) -> tuple[Client, object]:
    user = UserFactory(roles=[role] if role else [], **fields)
    client = Client()
    client.force_login(user)
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


def act(client, url: str, **data):
    """Post an action page (reason + confirm by default) and follow to the result page."""
    payload = {"_action_page": "1", "reason": "test reason", "confirm": "on", **data}
    return client.post(url, payload, follow=True)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
