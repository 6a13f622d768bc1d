"""Run inside the Python 3.12 venv .data/bench-cardsharp: cardsharp 0.5.0's own simulator loop
(``play_game_batch``: one player, basic strategy, dummy IO, 6 decks) on one core; prints JSON."""

import json
import os
import sys
import time

os.environ.setdefault("MPLBACKEND", "Agg")

from cardsharp.blackjack.blackjack import play_game_batch
from cardsharp.blackjack.rules import Rules
from cardsharp.blackjack.strategy import BasicStrategy
from cardsharp.common.io_interface import DummyIOInterface

games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
rules = Rules(
    blackjack_payout=1.5,
    dealer_hit_soft_17=False,
    dealer_peek=True,
    allow_split=True,
    allow_double_down=True,
    allow_double_after_split=True,
    allow_insurance=False,
    allow_surrender=False,
    num_decks=6,
    min_bet=10,
    max_bet=1000,
)
play_game_batch(rules, DummyIOInterface(), ["Player1"], 200, BasicStrategy())  # warm-up
t0 = time.perf_counter()
play_game_batch(rules, DummyIOInterface(), ["Player1"], games, BasicStrategy())
dt = time.perf_counter() - t0
print(json.dumps({"games": games, "seconds": dt, "games_per_second": games / dt}))
