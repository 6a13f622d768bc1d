"""Scenario driver: a stacked list of cards plus a script of decisions → final state.

Cards are fed whenever the state asks for one (``next_card_target``); otherwise the next
scripted event is applied. Every step goes through the pure ``apply`` so replay is exercised.

``Partial`` stops wherever the test says (a void mid-round, a state to inspect): the same replay
and JSON round-trip checks as ``play``, and a void settled the same from the replay and the JSON.
"""

from __future__ import annotations

import json

from tables.engine import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    Decision,
    RoundSettlement,
    RoundState,
    TableLimits,
    apply,
    event_from_json,
    fold,
    get_preset,
    new_round,
    settle,
    settle_void,
)


def D(box, action, hand=0, amount=None):
    return Decision(box, hand, action, amount)


def bets(*specs, behind_of=None):
    """``bets((box, stake), ...)`` → BetPlaced events (bet ids b1.., players p1..)."""
    out = []
    for n, spec in enumerate(specs, 1):
        box, stake, *rest = spec
        player = rest[0] if rest else f"p{n}"
        behind = rest[1] if len(rest) > 1 else False
        out.append(BetPlaced(f"b{n}", box, stake, player, behind))
    return out


def dealt(preset, bet_events, cards, limits=None) -> RoundState:
    """A round of ``preset`` after ``bet_events``, the betting's close and ``cards`` (card codes,
    or events such as decisions), each through ``apply``."""
    r, p = get_preset(preset)
    s = new_round(r, p, limits)
    for e in [*bet_events, BettingClosed(), *cards]:
        s = apply(s, CardDealt(e) if isinstance(e, str) else e)
    return s


def play(preset, bet_events, cards, script=(), limits=None, rules=None, payouts=None):
    """Run a round to the end. Returns (state, events)."""
    r, p = get_preset(preset)
    r = rules or r
    p = payouts or p
    state = new_round(r, p, limits or TableLimits())
    events = [*bet_events, BettingClosed()]
    for e in events:
        state = apply(state, e)
    cards = list(cards)
    script = list(script)
    while state.phase != "complete":
        if state.next_card_target() is not None:
            assert cards, f"scenario ran out of cards; state wants {state.next_card_target()}"
            e = CardDealt(cards.pop(0))
        else:
            assert script, f"scenario ran out of decisions; turn {state.turn()}"
            e = script.pop(0)
        state = apply(state, e)
        events.append(e)
    assert not cards, f"unused cards: {cards}"
    assert not script, f"unused decisions: {script}"
    replayed(preset, events, state, limits, r, p)
    return state, events


def replayed(preset, events, state, limits=None, rules=None, payouts=None) -> RoundState:
    """``state`` is what the events make: folded again (also from the events' JSON) and read back
    from its own JSON, it is the same state. Returns the state read back from JSON."""
    r, p = get_preset(preset)
    r, p = rules or r, payouts or p
    limits = limits or TableLimits()
    assert fold(r, p, events, limits) == state
    wire = [event_from_json(json.loads(json.dumps(e.to_json()))) for e in events]
    assert fold(r, p, wire, limits) == state
    restored = RoundState.from_json(json.loads(json.dumps(state.to_json())))
    assert restored == state
    return restored


class Partial:
    """A round driven step by step: ``feed`` takes card codes and events (each through the pure
    ``apply``); ``state`` checks replay and JSON each time it is read; ``void`` settles a void
    and checks the replay and the JSON-restored state settle it the same."""

    def __init__(self, preset, bet_events, *feed, limits=None):
        self.preset = preset
        self.limits = limits
        r, p = get_preset(preset)
        self._state = new_round(r, p, limits or TableLimits())
        self.events = []
        self.feed(*bet_events, BettingClosed(), *feed)

    def feed(self, *items) -> RoundState:
        for item in items:
            e = CardDealt(item) if isinstance(item, str) else item
            self._state = apply(self._state, e)
            self.events.append(e)
        return self.state

    @property
    def state(self) -> RoundState:
        replayed(self.preset, self.events, self._state, self.limits)
        return self._state

    def void(self) -> RoundSettlement:
        restored = replayed(self.preset, self.events, self._state, self.limits)
        v = settle_void(self._state)
        assert settle_void(restored) == v
        r, p = get_preset(self.preset)
        assert settle_void(fold(r, p, self.events, self.limits or TableLimits())) == v
        return v


def run(preset, bet_events, cards, script=(), **kw):
    """Play and settle; returns (state, settlement)."""
    state, events = play(preset, bet_events, cards, script, **kw)
    result = settle(state)
    restored = replayed(preset, events, state, kw.get("limits"), kw.get("rules"), kw.get("payouts"))
    assert settle(restored) == result  # the state read back from JSON settles the same
    return state, result


def paid(settlement):
    """{(bet_id, box, hand_index, result): paid} summary."""
    return {(x.bet_id, *x.hand, x.result): x.paid for x in settlement.lines}
