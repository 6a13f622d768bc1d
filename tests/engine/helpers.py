"""Scenario driver: a stacked list of cards plus a script of decisions → final state.

Cards are fed whenever the state asks for one (``next_card_target``); otherwise the next
scripted event is applied. Every step goes through the pure ``apply`` so replay is exercised.
"""

from __future__ import annotations

from tables.engine import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    Decision,
    RoundState,
    TableLimits,
    apply,
    fold,
    get_preset,
    new_round,
    settle,
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
    replay = fold(r, p, events, limits or TableLimits())
    assert replay == state
    assert RoundState.from_json(state.to_json()) == state
    return state, events


def run(preset, bet_events, cards, script=(), **kw):
    """Play and settle; returns (state, settlement)."""
    state, _ = play(preset, bet_events, cards, script, **kw)
    return state, settle(state)


def paid(settlement):
    """{(bet_id, box, hand_index, result): paid} summary."""
    return {(x.bet_id, *x.hand, x.result): x.paid for x in settlement.lines}
