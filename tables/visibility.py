"""What the table shows of a round's engine state: which cards lie face down, and the turn and
the next card's target as JSON. Pure functions of the state, shared by the public round view
(``tables/selectors.py``) and the live stream the services write (``tables/services/driver.py``).
"""

from __future__ import annotations

from typing import Any

from tables import engine as eng

FACE_DOWN_UNTIL = (eng.Phase.DEALER, eng.Phase.COMPLETE)


def dealer_hidden(state: eng.RoundState) -> bool:
    return (
        state.rules.dealer_cards_face_down
        and state.phase not in FACE_DOWN_UNTIL
        and not state.peeked_pontoon
    )


def turn_json(state: eng.RoundState) -> dict[str, Any] | None:
    turn = state.turn()
    if turn is None:
        return None
    return {
        "kind": turn.kind.value,
        "box": turn.box,
        "hand_index": turn.hand,
        "bets": list(turn.bets),
    }


def target_json(target: eng.CardTarget | None, *, forced: bool = False) -> dict[str, Any] | None:
    """Where a card goes; ``forced``: the rules deal it without a decision (§6, §7)."""
    if target is None:
        return None
    return {
        "kind": target.kind.value,
        "box": target.box,
        "hand_index": target.hand,
        "forced": forced and target.kind == eng.TargetKind.BOX,
    }


def box_face_down(state: eng.RoundState, hand: eng.round.Hand, position: int) -> bool:
    """Whether a box's card lies face down (seed 002, the banker's game): the first two cards
    and every bought card, until the round ends; twisted cards are dealt face up. A split
    ace was shown to split, so a split hand's first card is face up. Only the box's own player
    sees them (``round_public_state(player_id=...)``)."""
    if not state.rules.staking_after_first_card or state.phase == eng.Phase.COMPLETE:
        return False
    first_hidden = 1 if hand.split else 0
    return first_hidden <= position < 2 + hand.buys
