"""The round as an integrator reads it (``GET rounds/{id}/``, the table's current round, the
live stream's snapshot, and the answer to ``POST rounds/{id}/cards/``).

On top of what the table shows (``selectors.round_public_state``) it tells the caller, for its
own players: which bet and player every turn and window waits for, what the round wants next,
every legal action of each of them (not one player at a time), their face-down cards, and once
the round is settled or voided each bet's outcome as the ledger posted it. Other operators'
players stay anonymous: their bets are named by bet id, with ``player_id`` null.

"Own" players: an operator's key or staff member sees its operator's players; casino staff
(no operator) see every player; a dealer device sees none. ``?player_id=`` narrows the actions
(and the face-down cards) to one player, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables import engine as eng
from tables import selectors, visibility
from tables.models import Bet, Round

# What the round waits for (``next.kind``).
WANTS_BETS = "bets"  # betting is open (until ``betting_closes_at``)
WANTS_CARD = "card"  # the next card (``next.card`` says for which hand; ``forced``)
WANTS_DECISION = "decision"  # a player's decision (``next.turn.waiting_for``)
WANTS_DEALER = "dealer_decision"  # the banker's hit or stand (dealer device)
WANTS_VOID_DECISION = "void_decision"  # a void request holds the round
WANTS_PIT = "pit"  # suspended: the pit resumes (correct card next) or voids
WANTS_SETTLEMENT = "settlement"  # the worker is settling it
WANTS_NOTHING = "nothing"  # settled or voided


@dataclass(frozen=True)
class _BetRow:
    player_id: int
    operator_id: int
    box: int


class _Caller:
    """Whose bets the caller may see as its own."""

    def __init__(self, bets: dict[str, _BetRow], *, operator_id: int | None, player_id: int | None):
        self.bets = bets
        self.operator_id = operator_id
        self.player_id = player_id

    def sees_player(self, ref: str) -> bool:
        row = self.bets.get(ref)
        if row is None:
            return False
        return self.operator_id is None or row.operator_id == self.operator_id

    def player(self, ref: str) -> int | None:
        """The bet's player id as the caller may see it (None: anonymous)."""
        return self.bets[ref].player_id if self.sees_player(ref) else None

    def acts_for(self, ref: str) -> bool:
        """Whether the caller's ``your_actions`` list this bet's actions."""
        if not self.sees_player(ref):
            return False
        return self.player_id is None or self.bets[ref].player_id == self.player_id

    def sees_face_down(self, ref: str) -> bool:
        """A box's face-down cards (§7) are shown to its own player's operator (or to whoever
        asks with ``player_id`` for that player); casino staff see them only that way."""
        if self.player_id is not None:
            row = self.bets.get(ref)
            return row is not None and row.player_id == self.player_id and self.sees_player(ref)
        return self.operator_id is not None and self.sees_player(ref)


def _bet_rows(rnd: Round) -> dict[str, _BetRow]:
    return {
        ref: _BetRow(player, operator, box)
        for ref, player, operator, box in Bet.objects.filter(round=rnd).values_list(
            "ref", "player_id", "operator_id", "box"
        )
    }


def round_view(
    rnd: Round, *, operator_id: int | None, player_id: int | None = None
) -> dict[str, Any]:
    """The round for the caller (see the module docstring)."""
    state = selectors.round_state(rnd)
    data = selectors.round_public_state(
        rnd, player_id=player_id, operator_id=operator_id, state=state
    )
    caller = _Caller(_bet_rows(rnd), operator_id=operator_id, player_id=player_id)
    _own_face_down_cards(data, state, caller)
    data["turn"] = turn_view(state, caller, deadline=rnd.decision_deadline)
    held = rnd.held_since is not None
    data["your_actions"] = [] if held or rnd.suspended_reason else actions(state, caller)
    data["next"] = next_view(rnd, data["turn"], data["next_card"])
    data["outcomes"] = outcomes(rnd, caller)
    return data


def round_next(rnd: Round, *, operator_id: int | None) -> dict[str, Any]:
    """What the round wants next (the answer to a posted card), for the caller."""
    state = selectors.round_state(rnd)
    caller = _Caller(_bet_rows(rnd), operator_id=operator_id, player_id=None)
    card = visibility.target_json(state.next_card_target(), forced=state.next_card_forced())
    return next_view(rnd, turn_view(state, caller, deadline=rnd.decision_deadline), card)


def turn_parts(state: eng.RoundState) -> tuple[str, int | None, int | None, list[str]] | None:
    """The engine's turn as (kind, box, hand_index, the bet ids it waits for): the one place
    this module decodes ``RoundState.turn()``. A hand's turn waits for its box's controller
    (the box's first bet; bets behind follow its decisions)."""
    turn = state.turn()
    if turn is None:
        return None
    kind = str(turn.kind.value)
    if turn.kind == eng.TurnKind.HAND:
        return kind, turn.box, turn.hand, [state.boxes[turn.box].bet_ids[0]]
    if turn.kind == eng.TurnKind.DEALER:
        return kind, None, None, []
    # windows (insurance, match, staking): every bet still to answer; a match names its hand
    return kind, turn.box, turn.hand, list(turn.bets)


def turn_view(state: eng.RoundState, caller: _Caller, *, deadline=None) -> dict[str, Any] | None:
    """Whose turn: the kind (hand | match | insurance | staking | dealer), the hand, and the
    bets it waits for with their players (``waiting_for``; a hand's turn waits for its box's
    controller, whose bets behind follow; a window for each bet still to answer)."""
    parts = turn_parts(state)
    if parts is None:
        return None
    kind, box, hand_index, refs = parts
    waiting = [
        {
            "bet_id": ref,
            "player_id": caller.player(ref),
            "box": state.bets[ref].box,
            "hand_index": hand_index if hand_index is not None else 0,
        }
        for ref in refs
    ]
    return {
        "kind": kind,
        "box": box,
        "hand_index": hand_index,
        "bets": refs,
        "waiting_for": waiting,
        "deadline": deadline,
    }


def actions(state: eng.RoundState, caller: _Caller) -> list[dict[str, Any]]:
    """The legal actions now of every bet the caller acts for: [{player_id, bet_id, action,
    amount_min, amount_max}] (a hand's turn: its controller's bet)."""
    parts = turn_parts(state)
    if parts is None or parts[0] == eng.TurnKind.DEALER.value:
        return []
    kind, _, _, refs = parts
    out = []
    for ref in refs:
        if not caller.acts_for(ref):
            continue
        # A hand's turn asks its controller (the engine's hand actions take no bet id).
        bet = None if kind == eng.TurnKind.HAND.value else ref
        for action in state.legal_actions(bet):
            out.append(_action(caller, ref, action, state.amount_range(action, bet)))
    return out


def _action(caller: _Caller, ref: str, action: str, rng) -> dict[str, Any]:
    return {
        "player_id": caller.player(ref),
        "bet_id": ref,
        "action": action,
        "amount_min": rng[0] if rng else None,
        "amount_max": rng[1] if rng else None,
    }


def next_view(rnd: Round, turn: dict | None, card: dict | None) -> dict[str, Any]:
    """What the round waits for now, and until when: see the ``WANTS_*`` kinds."""
    deadline = None
    if rnd.phase in (Round.Phase.SETTLED, Round.Phase.VOIDED):
        kind = WANTS_NOTHING
    elif rnd.phase == Round.Phase.SETTLING:
        kind = WANTS_VOID_DECISION if rnd.held_since is not None else WANTS_SETTLEMENT
    elif rnd.held_since is not None:
        kind = WANTS_VOID_DECISION
    elif rnd.suspended_reason:
        kind = WANTS_PIT
    elif rnd.phase == Round.Phase.OPEN:
        kind, deadline = WANTS_BETS, rnd.betting_closes_at
    elif card is not None:
        kind = WANTS_CARD
    elif turn is not None:
        kind = WANTS_DEALER if turn["kind"] == "dealer" else WANTS_DECISION
        deadline = rnd.decision_deadline
    else:  # betting closed, the first card not asked for yet (a closed round with no bets)
        kind = WANTS_SETTLEMENT
    return {"kind": kind, "card": card, "turn": turn, "deadline": deadline}


def outcomes(rnd: Round, caller: _Caller) -> list[dict[str, Any]] | None:
    """Per bet, once the round is settled or voided: what its settlement (the lines the
    ledger posted, ``Round.settlement``) decided and paid, in the round's currency. ``stake``:
    everything the bet had at risk (doubles, splits, buys, matches, insurance); ``paid``:
    everything its wallet received (``returned`` stakes, ``winnings``, ``bonus``); ``net``:
    paid - stake. None until then."""
    if rnd.phase not in (Round.Phase.SETTLED, Round.Phase.VOIDED) or not rnd.settlement:
        return None
    by_bet: dict[str, dict[str, Any]] = {}
    for line in rnd.settlement.get("lines", []):
        ref = line["bet_id"]
        row = by_bet.get(ref)
        if row is None:
            row = by_bet[ref] = {
                "bet_id": ref,
                "player_id": caller.player(ref),
                "box": line["hand"][0],
                "results": [],
                "stake": 0,
                "returned": 0,
                "winnings": 0,
                "bonus": 0,
                "paid": 0,
                "currency": rnd.currency,
                "lines": [],
            }
        row["results"].append(line["result"])
        for field, key in (
            ("stake", "stake"),
            ("returned", "stake_returned"),
            ("winnings", "winnings"),
            ("bonus", "bonus"),
            ("paid", "paid"),
        ):
            row[field] += line[key]
        row["lines"].append(
            {
                "box": line["hand"][0],
                "hand_index": line["hand"][1],
                "result": line["result"],
                "odds": line["odds_kind"],
                "stake": line["stake"],
                "returned": line["stake_returned"],
                "winnings": line["winnings"],
                "bonus": line["bonus"],
                "bonus_kind": line["bonus_kind"],
                "paid": line["paid"],
                "currency": rnd.currency,
            }
        )
    out = []
    for row in by_bet.values():
        results = row.pop("results")
        # One word for the bet when its lines agree (a split hand won and lost: "mixed").
        row["result"] = results[0] if len(set(results)) == 1 else "mixed"
        row["net"] = row["paid"] - row["stake"]
        out.append(row)
    return out


def _own_face_down_cards(data: dict[str, Any], state: eng.RoundState, caller: _Caller) -> None:
    """Show the caller's own boxes' face-down cards (the table view hides every one unless
    asked with that box's ``player_id``)."""
    for box in data["boxes"]:
        engine_box = state.boxes[box["number"]]
        if not engine_box.bet_ids or not caller.sees_face_down(engine_box.bet_ids[0]):
            continue
        for shown, hand in zip(box["hands"], engine_box.hands, strict=True):
            if None not in shown["cards"]:
                continue
            value = state.value(hand)
            shown["cards"] = [c.code for c in hand.cards]
            shown["total"] = value.total
            shown["soft"] = value.soft
