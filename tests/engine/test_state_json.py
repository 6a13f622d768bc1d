"""The engine's typed words keep the persisted words: a round state written before the enums and
named tuples existed (``data/round_states_before_enums.json``, written by the engine of commit
8aa49d4 for the events below) reads back into the typed values and is written out unchanged,
so cached round states and audit replays of older rounds keep working."""

import json
from pathlib import Path

import pytest

from tables.engine import (
    Action,
    BetPlaced,
    BettingClosed,
    CardDealt,
    CardTarget,
    Decision,
    HandStatus,
    Phase,
    RoundState,
    TargetKind,
    Turn,
    TurnKind,
    apply,
    get_preset,
    new_round,
)

BEFORE = json.loads((Path(__file__).parent / "data" / "round_states_before_enums.json").read_text())


def _states() -> dict[str, RoundState]:
    rules, payouts = get_preset("british_casino")
    s = new_round(rules, payouts)
    for e in [
        BetPlaced("a", 1, 1000, "p1"),
        BetPlaced("b", 1, 400, "p2", behind=True),
        BetPlaced("c", 2, 500, "p3"),
        BettingClosed(),
        CardDealt("5S"),
    ]:
        s = apply(s, e)
    dealing = s
    for code in ["6S", "KD", "5H", "9C"]:
        s = apply(s, CardDealt(code))
    return {"dealing": dealing, "match_window": apply(s, Decision(1, 0, "double"))}


def _without_rules(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("rules", "payouts")}


@pytest.mark.parametrize("name", ["dealing", "match_window"])
def test_the_state_is_written_as_before_the_enums(name):
    written = json.dumps(_without_rules(_states()[name].to_json()))
    assert written == json.dumps(BEFORE[name])


@pytest.mark.parametrize("name", ["dealing", "match_window"])
def test_a_state_written_before_the_enums_reads_back_typed_and_unchanged(name):
    state = _states()[name]
    old = {**BEFORE[name], "rules": state.rules.to_json(), "payouts": state.payouts.to_json()}
    read = RoundState.from_json(old)
    assert read == state
    assert json.dumps(read.to_json(), sort_keys=True) == json.dumps(old, sort_keys=True)
    assert type(read.phase) is Phase
    assert all(type(h.status) is HandStatus for b in read.boxes.values() for h in b.hands)
    assert all(type(t) is CardTarget and type(t.kind) is TargetKind for t in read.deal_queue)
    if read.window is not None:
        assert type(read.window.kind) is TurnKind and type(read.window.action) is Action


def test_turns_and_card_targets_are_named():
    states = _states()
    dealing = states["dealing"]
    assert dealing.turn() is None
    assert dealing.next_card_target() == CardTarget(TargetKind.BOX, box=2, hand=0)
    assert dealing.deal_queue[1] == CardTarget(TargetKind.DEALER)
    assert dealing.deal_queue[1].box is None and str(dealing.deal_queue[1]) == "the dealer"

    match = states["match_window"]
    turn = match.turn()
    assert turn == Turn(TurnKind.MATCH, box=1, hand=0, bets=("b",))
    assert str(turn) == "the match window of box 1 hand 0 (bets b)"
    assert match.legal_actions("b") == [Action.DECLINE, Action.MATCH]
    assert match.legal_actions("b") == ["decline", "match"]  # still the plain words
    assert match.next_card_target() is None


def test_the_words_serialise_as_plain_strings():
    match = _states()["match_window"]
    text = json.dumps(match.to_json())
    assert '"phase": "playing"' in text and '"kind": "match"' in text
    assert '"action": "double"' in text and '"status": "open"' in text
    assert str(Phase.DEALER) == "dealer" and f"{HandStatus.STOOD}" == "stood"
