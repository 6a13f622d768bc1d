"""Simulated players and dealer devices that keep the demo tables playing through the HTTP API.

Each table has a thread acting as its dealer device (opens rounds, closes betting, plays the
banker by the house policy) and as the operator's platform placing bets and decisions for the
demo players with the operator's API key. At a human-paced table the thread is the dealer
device only: it opens rounds and plays the banker, and leaves the bets and decisions to a
person and the closing of betting to the table's timer. Everything goes through the public
API with the typed client generated from its schema (clients/casino_client), so what the demo
shows is exactly what an integrator gets. Refusals (a timer that won the race, a window that
closed) are normal at a live table: the loop logs them and carries on.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid

import httpx

from clients.casino_client import AuthenticatedClient
from clients.casino_client.api.rounds import (
    rounds_bets_create,
    rounds_close_betting_create,
    rounds_dealer_decisions_create,
    rounds_decisions_create,
    rounds_retrieve,
)
from clients.casino_client.api.tables import tables_retrieve, tables_rounds_create
from clients.casino_client.models import (
    RoundBetsInputRequest,
    RoundDealerDecisionInputRequest,
    RoundDecisionsInputRequest,
)

logger = logging.getLogger("casino.demo.players")
FINAL_PHASES = {"settled", "voided"}


class Api:
    """The generated client (clients/casino_client) as the loop below uses it: each call
    answers (status, JSON body as a dict), refusals included (the problem's fields)."""

    def __init__(self, base: str, token: str):
        self.client = AuthenticatedClient(
            base_url=base.rstrip("/"),
            token=token,
            timeout=httpx.Timeout(10),
            # An idle connection is dropped before the server's keep-alive (gunicorn's 2 s)
            # ends it: a request sent on one the server was closing got "connection reset"
            # (a human-paced table polls every 2 s).
            httpx_args={"limits": httpx.Limits(keepalive_expiry=1.0)},
        )

    def call(self, operation, *args, **kwargs) -> tuple[int, dict | None]:
        response = operation.sync_detailed(*args, client=self.client, **kwargs)
        parsed = response.parsed
        return int(response.status_code), parsed.to_dict() if parsed is not None else None

    def idempotent(self, operation, *args, **kwargs) -> tuple[int, dict | None]:
        return self.call(operation, *args, idempotency_key=uuid.uuid4().hex, **kwargs)

    def close(self) -> None:
        self.client.get_httpx_client().close()


def choose(actions: list[dict], hand: dict | None, rng: random.Random) -> dict:
    """A simple, plausible player: never insures, rarely matches, doubles on 10-11."""
    by_name = {a["action"]: a for a in actions}
    for name in ("stake",):
        if name in by_name:
            action = by_name[name]
            return {**action, "amount": action["amount_min"]}
    if "decline" in by_name:
        if "match" in by_name and rng.random() < 0.3:
            return {**by_name["match"], "amount": by_name["match"]["amount_max"]}
        return by_name["decline"]
    total = hand["total"] if hand else 0
    cards = len(hand["cards"]) if hand else 0
    if "split" in by_name and hand and hand["cards"][0][0] in "A8":
        return {**by_name["split"], "amount": by_name["split"]["amount_max"]}
    if "double" in by_name and total in (10, 11) and cards == 2:
        return {**by_name["double"], "amount": by_name["double"]["amount_max"]}
    if "stand" in by_name and total >= 17:
        return by_name["stand"]
    for name in ("hit", "twist", "stand"):
        if name in by_name:
            return by_name[name]
    return actions[0]


class TablePlayer(threading.Thread):
    def __init__(
        self,
        *,
        base,
        table_id,
        device_token,
        api_key,
        player_ids,
        stop,
        join_only,
        human_paced=False,
        seed=None,
    ):
        super().__init__(name=f"demo-table-{table_id}", daemon=True)
        self.table_id = table_id
        self.device = Api(base, device_token)
        self.operator = Api(base, api_key)
        self.player_ids = player_ids
        self.join_only = join_only
        self.human_paced = human_paced
        self.stop = stop
        self.rng = random.Random(seed)  # demo play, not a game outcome

    def run(self):
        try:
            while not self.stop.is_set():
                try:
                    self.play_round()
                except Exception:  # the demo keeps going; the server side is what matters
                    # A call the stopping demo cut short (the server went first) is no failure.
                    if self.stop.wait(1):
                        return
                    logger.exception("demo table %s: round failed", self.table_id)
                    self.stop.wait(2)
        finally:
            self.device.close()
            self.operator.close()

    def play_round(self):
        status, table = self.device.call(tables_retrieve, self.table_id)
        if status != 200 or table["status"] != "open":
            self.stop.wait(2)
            return
        round_id = table["current_round_id"]
        if round_id is not None:
            status, state = self.device.call(rounds_retrieve, round_id)
            if status != 200 or state["phase"] in FINAL_PHASES:
                round_id = None
        if round_id is None:
            status, body = self.device.idempotent(tables_rounds_create, self.table_id)
            if status != 201:
                logger.info("table %s: open round refused: %s", self.table_id, body)
                self.stop.wait(2)
                return
            round_id = body["id"]
            if not self.human_paced:
                self.place_bets(round_id, table)
                self.stop.wait(2)
                self.device.idempotent(rounds_close_betting_create, round_id)
        deadline = time.monotonic() + 180
        while not self.stop.is_set() and time.monotonic() < deadline:
            status, state = self.device.call(rounds_retrieve, round_id)
            if status != 200 or state["phase"] in FINAL_PHASES:
                break
            self.act(round_id, state)
            # A person has the betting window: the device need not watch it closely.
            self.stop.wait(2 if self.human_paced and state["phase"] == "open" else 0.7)
        self.stop.wait(3)

    def place_bets(self, round_id: int, table: dict):
        # A player keeps the box they first sat at (boxes stay with their seated player).
        seated = list(enumerate(self.player_ids, start=1))
        for box, player_id in self.rng.sample(seated, k=self.rng.randint(1, len(seated))):
            stake = 0 if self.join_only else self.rng.choice([1, 2, 5]) * table["min_bet"] * 5
            self.operator.idempotent(
                rounds_bets_create,
                round_id,
                body=RoundBetsInputRequest(
                    player_id=player_id, box=box, stake=min(stake, table["max_bet"])
                ),
            )

    def act(self, round_id: int, state: dict):
        turn = state.get("turn")
        if not turn:
            return
        if turn["kind"] == "dealer":
            total = state["dealer"]["total"] or 0
            self.device.idempotent(
                rounds_dealer_decisions_create,
                round_id,
                body=RoundDealerDecisionInputRequest.from_dict(
                    {"action": "hit" if total < 17 else "stand"}
                ),
            )
            return
        if self.human_paced:
            return
        for player_id in self.player_ids:
            status, mine = self.operator.call(rounds_retrieve, round_id, player_id=player_id)
            if status != 200 or not mine["your_actions"]:
                continue
            hand = None
            if turn["kind"] == "hand":
                box = next(b for b in mine["boxes"] if b["number"] == turn["box"])
                hand = box["hands"][turn["hand_index"]]
            choice = choose(mine["your_actions"], hand, self.rng)
            body = {"player_id": player_id, "action": choice["action"]}
            if choice.get("bet_id"):
                body["bet_id"] = choice["bet_id"]
            if choice.get("amount") is not None:
                body["amount"] = choice["amount"]
            self.operator.idempotent(
                rounds_decisions_create,
                round_id,
                body=RoundDecisionsInputRequest.from_dict(body),
            )
            return


def players_start(*, base: str, credentials, stop: threading.Event) -> list[TablePlayer]:
    threads = [
        TablePlayer(
            base=base,
            table_id=table_id,
            device_token=token,
            api_key=credentials.api_key,
            player_ids=credentials.player_ids,
            stop=stop,
            join_only=table_id in credentials.stake_after_first_card,
            human_paced=table_id in credentials.human_paced,
            seed=table_id,
        )
        for table_id, token in credentials.device_tokens.items()
    ]
    for thread in threads:
        thread.start()
    return threads
