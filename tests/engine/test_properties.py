"""Hypothesis properties of the engine over random play of every preset.

Random play: at every step each action from ``legal_actions()`` may be chosen and must be
accepted, and every action *not* in ``legal_actions()`` must raise an ``EngineError``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import (
    PRESETS,
    BetPlaced,
    BettingClosed,
    CardDealt,
    EngineError,
    RoundState,
    TimeoutDefault,
    TurnKind,
    apply,
    event_for_action,
    event_from_json,
    fold,
    new_round,
    settle,
    settle_void,
    shuffle_shoe,
)
from tables.engine.errors import ShoeExhausted

HAND_ACTIONS = ["hit", "stand", "double", "split", "surrender", "rescue", "buy", "twist"]
WINDOW_ACTIONS = ["match", "decline", "insurance", "even_money", "stake", "withdraw"]


def _bets(rules, draw):
    n_boxes = draw(st.integers(1, min(rules.boxes, 5)))
    boxes = sorted(draw(st.sets(st.integers(1, rules.boxes), min_size=n_boxes, max_size=n_boxes)))
    events = []
    stake0 = rules.staking_after_first_card
    for k, box in enumerate(boxes):
        player = f"p{k}" if rules.max_boxes_per_player == 1 else "solo"
        stake = 0 if stake0 else draw(st.integers(1, 5000))
        events.append(BetPlaced(f"b{box}", box, stake, player))
        for j in range(draw(st.integers(0, rules.bets_per_box - 1))):
            events.append(
                BetPlaced(f"b{box}x{j}", box, draw(st.integers(1, 5000)), f"q{box}{j}", True)
            )
    return events


def _amount(state, action, bet_id, draw):
    rng = state.amount_range(action, bet_id)
    if rng is None:
        return None
    return draw(st.integers(rng[0], min(rng[1], rng[0] + 5000)))


def _illegal_refused(state, legal, names, bet_id=None):
    for action in names:
        if action in legal:
            continue
        try:
            e = event_for_action(state, action, 1, bet_id)
        except EngineError:
            continue
        before = state.to_json()
        try:
            apply(state, e)
        except EngineError:
            pass
        else:
            raise AssertionError(f"{action} accepted though not in legal_actions {legal}")
        assert state.to_json() == before  # apply is pure even when it raises


def random_round(preset, draw):
    rules, payouts = PRESETS[preset]
    state = new_round(rules, payouts)
    shoe = shuffle_shoe(rule_set=rules, rng=random.Random(draw(st.integers(0, 2**32))))
    events = [*_bets(rules, draw), BettingClosed()]
    for e in events:
        state = apply(state, e)
    dealt = []
    steps = 0
    while state.phase != "complete":
        steps += 1
        assert steps < 500, "round does not terminate"
        target = state.next_card_target()
        turn = state.turn()
        assert (target is None) != (turn is None), (target, turn)
        if target is not None:
            # a forced draw follows a card (the hand's fourth, or a doubled hand's last), never
            # a decision: nobody chose it
            assert not state.next_card_forced() or isinstance(events[-1], CardDealt)
            try:
                card = shoe.deal()
            except ShoeExhausted:
                shoe.reshuffle_discards(state.live_cards(), random.Random(steps))
                card = shoe.deal()
            dealt.append(card)
            e = CardDealt(card.code)
        elif draw(st.integers(0, 9)) == 0:
            e = TimeoutDefault()
        elif turn.kind in (TurnKind.HAND, TurnKind.DEALER):
            legal = state.legal_actions()
            assert legal, turn
            kind_actions = HAND_ACTIONS if turn.kind == TurnKind.HAND else ["hit", "stand"]
            _illegal_refused(state, legal, kind_actions)
            action = draw(st.sampled_from(legal))
            e = event_for_action(state, action, _amount(state, action, None, draw))
        else:
            bet_id = draw(st.sampled_from(turn.bets))
            legal = state.legal_actions(bet_id)
            _illegal_refused(state, legal, WINDOW_ACTIONS, bet_id)
            action = draw(st.sampled_from(legal))
            e = event_for_action(state, action, _amount(state, action, bet_id, draw), bet_id)
        before = state.to_json()
        new = apply(state, e)
        assert state.to_json() == before  # apply does not mutate its input
        state = new
        events.append(e)
        if draw(st.integers(0, 20)) == 0:
            settle_void(state)  # a void is possible at any point
    return state, events, dealt


def _check(preset, state, events, dealt):
    rules, payouts = PRESETS[preset]
    # replay and serialisation
    wire = [event_from_json(json.loads(json.dumps(e.to_json()))) for e in events]
    assert fold(rules, payouts, wire) == state
    assert RoundState.from_json(json.loads(json.dumps(state.to_json()))) == state
    # cards conserved, none dealt twice beyond the shoe's copies
    held = list(state.dealer)
    for box in state.boxes.values():
        for h in box.hands:
            held.extend(h.cards)
    assert Counter(held) == Counter(dealt)
    assert all(n <= rules.decks for n in Counter(state.live_cards()).values())
    # the dealer draws only when a hand still needs the dealer's result
    needed = any(b.insurance for b in state.bets.values()) or any(
        h.status == "surrendered"
        or (h.status == "stood" and not all(state.decided_at_once(h, k) for k in h.stakes))
        for box in state.boxes.values()
        for h in box.hands
    )
    if not needed:
        assert len(state.dealer) <= rules.dealer_cards_before_play
    # forced draws are dealt cards of the hand
    for box in state.boxes.values():
        for h in box.hands:
            assert all(0 <= k < len(h.cards) for k in h.forced_cards)
    # settlement lines
    result = settle(state)
    prized = {x.hand for x in result.lines if x.bonus_kind == "super_bonus"}
    for x in result.lines:
        if x.result == "envy_bonus":
            on_hand = state.boxes[x.hand[0]].hands[x.hand[1]].stakes
            assert x.hand in prized
            assert x.player_id not in {state.bets[k].player_id for k in on_hand}
    odds_in_schedule = {payouts.win, payouts.pontoon, payouts.five_card_trick, payouts.insurance}
    odds_in_schedule |= {o for _, o in payouts.twenty_one_by_cards}
    odds_in_schedule |= {o for *_, o in payouts.three_card_bonuses}
    staked = Counter()
    for box in state.boxes.values():
        for h in box.hands:
            if h.status != "withdrawn":
                for bet_id, (base, added, _) in h.stakes.items():
                    staked[bet_id] += base + added
    for bet in state.bets.values():
        staked[bet.bet_id] += bet.insurance
    lines_staked = Counter()
    for x in result.lines:
        lines_staked[x.bet_id] += x.stake
        assert x.paid == x.stake_returned + x.winnings + x.bonus
        assert 0 <= x.stake_returned <= x.stake or x.result == "envy_bonus"
        if not x.result.startswith(("insurance", "envy")):
            h = state.boxes[x.hand[0]].hands[x.hand[1]]
            if h.status == "bust":
                assert x.paid == 0 and x.result == "bust"
        if x.result in ("win", "pontoon", "five_card_trick", "insurance_win", "even_money"):
            a, b = x.odds
            assert x.odds in odds_in_schedule | {payouts.even_money}
            assert x.winnings == x.stake * a // b
            assert x.remainder * b == (x.stake * a) % b
            assert x.stake_returned == x.stake
        else:
            assert x.winnings == 0
    assert +staked == +lines_staked


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_random_play_legal_actions_invariants(preset, data):
    state, events, dealt = random_round(preset, data.draw)
    _check(preset, state, events, dealt)


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_same_events_same_state(preset, data):
    state, events, _ = random_round(preset, data.draw)
    rules, payouts = PRESETS[preset]
    assert fold(rules, payouts, events) == fold(rules, payouts, events) == state
    assert settle(fold(rules, payouts, events)) == settle(state)
