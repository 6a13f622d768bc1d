"""Bets on one round at the same moment (threads, own connections): a bet locks only its box
and its wallet and holds the round in a share lock, so the rules are checked from the box's
figures under those locks. Whatever the interleaving, the bets accepted are exactly what the
rules allow, the round's state folds them when betting closes (each bet once, in an order
the engine accepts), and closing the betting waits for the bets in flight."""

import pytest

from ledger.models import Transaction
from tables import selectors, services
from tables.errors import BettingClosed, RuleRefused
from tables.models import Bet, Box, Round
from tests.factories import funded_player, live_table

from .conftest import DEVICE, at_once, bet

pytestmark = pytest.mark.django_db(transaction=True)


def _placing(rnd, player, box, behind=False):
    return lambda: bet(rnd, player, box, 100, behind=behind)


def test_racing_bets_accepted_exactly_as_the_rules_allow_and_folded_at_close():
    # 7 boxes, 3 bets a box, one box per player; betting open long enough for a busy machine
    table = live_table("british_casino", betting_seconds=600)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    controllers = [funded_player() for _ in range(3)]
    won = at_once(*(_placing(rnd, p, 1) for p in controllers))  # one box, three controllers
    assert sum(isinstance(o, Bet) for o in won) == 1
    assert all(isinstance(o, Bet | RuleRefused) for o in won)

    behind = [funded_player() for _ in range(6)]  # room for two behind the controller
    outcomes = at_once(*(_placing(rnd, p, 1, behind=True) for p in behind))
    assert sum(isinstance(o, Bet) for o in outcomes) == 2
    refused = [o for o in outcomes if not isinstance(o, Bet)]
    assert all(isinstance(o, RuleRefused) and "already holds 3 bets" in str(o) for o in refused)

    multi = funded_player()  # one box per player: two boxes at once, one accepted
    outcomes = at_once(_placing(rnd, multi, 2), _placing(rnd, multi, 3))
    assert sum(isinstance(o, Bet) for o in outcomes) == 1
    taken = next(o.box for o in outcomes if isinstance(o, Bet))
    twice = funded_player()  # the same player twice behind one box at once: one accepted
    outcomes = at_once(*(_placing(rnd, twice, taken, behind=True) for _ in range(2)))
    assert sum(isinstance(o, Bet) for o in outcomes) == 1
    assert any("already has a bet on box" in str(o) for o in outcomes)

    late = [funded_player() for _ in range(4)]  # betting closes while they bet on box 4..7
    outcomes = at_once(
        lambda: services.round_close_betting(actor=DEVICE, round_id=rnd.pk),
        *(_placing(rnd, p, 4 + i) for i, p in enumerate(late)),
    )
    assert isinstance(outcomes[0], Round)
    assert all(isinstance(o, Bet | BettingClosed) for o in outcomes[1:])

    accepted = {b.ref: b for b in Bet.objects.filter(round=rnd)}
    rnd = Round.objects.get(pk=rnd.pk)
    state = selectors.round_state(rnd)
    assert set(state.bets) == set(accepted)  # every accepted bet folded, once; nothing else
    assert state.events == rnd.seq == len(accepted) + 1  # then the BettingClosed event
    assert selectors.round_state_replay(rnd).to_json() == rnd.state
    controller = next(o.player_id for o in won if isinstance(o, Bet))
    assert len(state.boxes[1].bet_ids) == 3 and state.boxes[1].controller == str(controller)
    for box in Box.objects.filter(table=table, round=rnd):
        mine = [b for b in accepted.values() if b.box == box.number]
        assert (box.bets, box.stake_total) == (len(mine), sum(b.stake for b in mine))
    stakes = Transaction.objects.filter(kind="stake", round_id=rnd.pk).count()
    assert stakes == len(accepted)
