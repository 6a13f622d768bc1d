"""Simulated players and dealer devices that keep the demo tables playing through the HTTP API.

Each table has a thread acting as its dealer device (opens rounds, closes betting, plays the
banker by the house policy) and as the operator's platform placing bets and decisions for the
demo players with the operator's API key. At a human-paced table the thread is the dealer
device only: it opens rounds and plays the banker, and leaves the bets and decisions to a
person and the closing of betting to the table's timer. Everything goes through the public
API, so what the demo shows is exactly what an integrator gets. Refusals (a timer that won the
race, a window that closed) are normal at a live table: the loop logs them and carries on.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import urllib.error
import urllib.request
import uuid

logger = logging.getLogger("casino.demo.players")
FINAL_PHASES = {"settled", "voided"}


class Api:
    def __init__(self, base: str, token: str):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None, *, idempotent=False):
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if idempotent:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        request = urllib.request.Request(  # noqa: S310 -- our own server, http://127.0.0.1
            f"{self.base}/api/v1/{path}", data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")


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
        while not self.stop.is_set():
            try:
                self.play_round()
            except Exception:  # the demo keeps going; the server side is what matters
                logger.exception("demo table %s: round failed", self.table_id)
                self.stop.wait(3)

    def play_round(self):
        status, table = self.device.call("GET", f"tables/{self.table_id}/")
        if status != 200 or table["status"] != "open":
            self.stop.wait(2)
            return
        round_id = table["current_round_id"]
        if round_id is not None:
            status, state = self.device.call("GET", f"rounds/{round_id}/")
            if status != 200 or state["phase"] in FINAL_PHASES:
                round_id = None
        if round_id is None:
            status, body = self.device.call("POST", f"tables/{self.table_id}/rounds/")
            if status != 201:
                logger.info("table %s: open round refused: %s", self.table_id, body)
                self.stop.wait(2)
                return
            round_id = body["id"]
            if not self.human_paced:
                self.place_bets(round_id, table)
                self.stop.wait(2)
                self.device.call("POST", f"rounds/{round_id}/close-betting/")
        deadline = time.monotonic() + 180
        while not self.stop.is_set() and time.monotonic() < deadline:
            status, state = self.device.call("GET", f"rounds/{round_id}/")
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
            self.operator.call(
                "POST",
                f"rounds/{round_id}/bets/",
                {"player_id": player_id, "box": box, "stake": min(stake, table["max_bet"])},
                idempotent=True,
            )

    def act(self, round_id: int, state: dict):
        turn = state.get("turn")
        if not turn:
            return
        if turn["kind"] == "dealer":
            total = state["dealer"]["total"] or 0
            self.device.call(
                "POST",
                f"rounds/{round_id}/dealer-decisions/",
                {"action": "hit" if total < 17 else "stand"},
            )
            return
        if self.human_paced:
            return
        for player_id in self.player_ids:
            status, mine = self.operator.call("GET", f"rounds/{round_id}/?player_id={player_id}")
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
            self.operator.call("POST", f"rounds/{round_id}/decisions/", body, idempotent=True)
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
