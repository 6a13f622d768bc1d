"""The per-box running totals behind ``RoundState._on_bet`` (stake total, players per box)
give the same refusals as scanning the box, also across ``copy`` and a JSON round trip (the
API's cached state), and keep a 1,000-bet box linear to fold."""

import pytest

from tables.engine import (
    BetPlaced,
    IllegalAction,
    RoundState,
    TableLimits,
    apply,
    fold,
    get_preset,
    new_round,
)


def _rules(**changes):
    rules, payouts = get_preset("crown")
    doc = {**rules.to_json(), **changes}
    return type(rules).from_json(doc), payouts


def _state(limits=None):
    rules, payouts = _rules(bets_per_box=5, max_boxes_per_player=2)
    return new_round(rules, payouts, limits or TableLimits(min_bet=100, box_max=1000))


@pytest.mark.parametrize("through", ["copy", "json"])
def test_refusals_survive_copy_and_json(through):
    s = _state()
    for e in [BetPlaced("a", 1, 400, "p1"), BetPlaced("b", 1, 300, "p2", True)]:
        s = apply(s, e)
    s = RoundState.from_json(s.to_json()) if through == "json" else s.copy()
    with pytest.raises(IllegalAction, match="already has a bet on box 1"):
        apply(s, BetPlaced("c", 1, 100, "p2", True))
    with pytest.raises(IllegalAction, match="box 1 total 1100"):
        apply(s, BetPlaced("c", 1, 400, "p3", True))
    s = apply(s, BetPlaced("c", 1, 300, "p3", True))  # exactly the box limit
    with pytest.raises(IllegalAction, match="box 1 total 1100"):
        apply(s, BetPlaced("d", 1, 100, "p4", True))
    # A refused bet leaves the state (and its totals) unchanged.
    s2 = apply(s, BetPlaced("e", 2, 1000, "p4"))
    assert s2.boxes[2].bet_ids == ["e"] and "e" not in s.bets


def test_copy_does_not_share_the_totals():
    s = apply(_state(), BetPlaced("a", 1, 400, "p1"))
    t = apply(s, BetPlaced("b", 1, 600, "p2", True))
    # s did not see b's stake nor player p2.
    s = apply(s, BetPlaced("c", 1, 600, "p2", True))
    assert s.boxes[1].bet_ids == ["a", "c"] and t.boxes[1].bet_ids == ["a", "b"]


def test_fold_of_a_big_box_is_linear(monkeypatch):
    """The box index is built once per state and then kept by each bet: the fold never
    rebuilds it (the rebuild scans every bet of the box, which made a fold quadratic)."""
    rules, payouts = _rules(boxes=2, bets_per_box=4000, max_boxes_per_player=2)
    events = [BetPlaced(f"b{n}", 1, 100, f"p{n}", n > 0) for n in range(4000)]
    rebuilds = []
    original = RoundState._box_index_get

    def counted(self):
        if self._box_index is None:
            rebuilds.append(len(self.bets))
        return original(self)

    monkeypatch.setattr(RoundState, "_box_index_get", counted)
    state = fold(rules, payouts, events)
    assert len(state.boxes[1].bet_ids) == 4000
    assert rebuilds == []
    assert state._box_index_get()[1] == (400_000, {f"p{n}" for n in range(4000)})
