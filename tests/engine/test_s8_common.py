"""§8 rules common to all presets: stops, bets behind, timeouts, card source, shoes, limits,
rounding, void; plus event serialisation."""

import random

import pytest

from tables.engine import (
    BetPlaced,
    CardDealt,
    DealerDecision,
    Decision,
    IllegalAction,
    ImpossibleCard,
    InvalidEvent,
    MatchDeclined,
    MatchMade,
    NotExpectedNow,
    NotTheirTurn,
    RoundNotComplete,
    ShoeComposition,
    StakePlaced,
    TableLimits,
    TimeoutDefault,
    Turn,
    TurnKind,
    apply,
    event_from_json,
    fold,
    get_preset,
    new_round,
    settle,
    settle_void,
    shuffle_shoe,
    stacked_shoe,
    verify_commitment,
)
from tables.engine.errors import ShoeExhausted

from .helpers import D, Partial, bets, dealt, paid, run

# --- stops -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset,stops", [("crown", True), ("online_2deck", True), ("british_casino", False)]
)
def test_s8_stops_soft_21_only_in_crown_and_online_2deck(preset, stops):
    s = dealt(
        preset, bets((1, 1000)), ["AS", "9H", "5C", *(["9D"] if preset == "online_2deck" else [])]
    )
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("5D"))
    assert (s.hand(1, 0).status == "stood") is stops


@pytest.mark.parametrize("preset", ["crown", "british_casino", "online_8deck", "online_2deck"])
def test_s8_stops_pontoon_is_never_asked(preset):
    extra = ["9D"] if get_preset(preset).rules.dealer_cards_before_play == 2 else []
    s = dealt(preset, bets((1, 1000), (2, 1000)), ["AS", "9S", "9H", "KC", "9C", *extra])
    assert s.turn() == Turn(TurnKind.HAND, 2, 0)


# --- bets behind --------------------------------------------------------------------------


def _behind():
    return [BetPlaced("a", 1, 1000, "alice"), BetPlaced("b", 1, 600, "bob", True)]


def test_s8_bets_behind_follow_and_non_matcher_keeps_first_hand():
    _, st = run(
        "british_casino",
        _behind(),
        ["8S", "9H", "8C", "3D", "KD", "9C", "9D"],
        [D(1, "split"), MatchDeclined("b"), D(1, "hit"), D(1, "stand", 1)],
    )
    # hand0 8 3 K = 21, hand1 8 9 = 17; dealer 18. bob only on hand0
    assert paid(st) == {
        ("a", 1, 0, "win"): 2000,
        ("b", 1, 0, "win"): 1200,
        ("a", 1, 1, "lose"): 0,
    }


def test_s8_split_matched_again_at_each_resplit():
    s = dealt("crown", _behind(), ["8S", "9H", "8C"])
    s = apply(s, D(1, "split"))
    assert s.turn() == Turn(TurnKind.MATCH, 1, 0, ("b",))
    s = apply(s, MatchMade("b"))
    s = apply(s, CardDealt("8D"))
    s = apply(s, D(1, "split"))
    s = apply(s, MatchMade("b"))
    assert [h.stakes for h in s.boxes[1].hands] == [
        {"a": [1000, 0, 0], "b": [600, 0, 0]},
        {"a": [1000, 0, 0], "b": [600, 0, 0]},
        {"a": [1000, 0, 0], "b": [600, 0, 0]},
    ]


def test_s8_second_double_matched_only_by_bettor_who_matched_first():
    ev = [*_behind(), BetPlaced("c", 1, 500, "cat", True)]
    s = dealt("british_casino", ev, ["2S", "9H", "3C"])
    s = apply(s, D(1, "double"))
    s = apply(s, MatchMade("b"))
    s = apply(s, MatchDeclined("c"))
    s = apply(s, CardDealt("2D"))
    s = apply(s, D(1, "double"))
    assert s.turn() == Turn(TurnKind.MATCH, 1, 0, ("b",))


def test_s8_rescue_settles_every_bet_each_gets_back_its_double():
    _, st = run(
        "crown",
        _behind(),
        ["QS", "9H", "2C", "4D"],
        [D(1, "double", amount=1000), MatchMade("b", 300), D(1, "rescue")],
    )
    assert paid(st) == {("a", 1, 0, "rescue"): 1000, ("b", 1, 0, "rescue"): 300}


def test_s8_surrender_applies_to_every_bet_on_the_box():
    _, st = run("crown", _behind(), ["QS", "KH", "6C", "9D"], [D(1, "surrender")])
    assert paid(st) == {("a", 1, 0, "surrender"): 500, ("b", 1, 0, "surrender"): 300}


def test_s8_doubled_status_belongs_to_the_hand_bonus_odds_lost_for_all():
    _, st = run(
        "crown",
        _behind(),
        ["6S", "9H", "7S", "8S"],
        [D(1, "double"), MatchDeclined("b")],
    )
    assert {x.bet_id: (x.odds, x.paid) for x in st.lines} == {
        "a": ((1, 1), 4000),
        "b": ((1, 1), 1200),
    }


# --- decision windows / timeouts -----------------------------------------------------------


def test_s8_timeout_stands_where_allowed():
    s = dealt("crown", bets((1, 1000)), ["QS", "9H", "2C"])
    s = apply(s, TimeoutDefault(1, 0))
    assert s.hand(1, 0).status == "stood"


def test_s8_timeout_never_rescues():
    s = dealt("crown", bets((1, 1000)), ["2S", "9H", "3C", D(1, "double"), "4D"])
    assert s.legal_actions() == ["rescue", "stand"]
    s = apply(s, TimeoutDefault())
    assert s.hand(1, 0).status == "stood"


def test_s8_timeout_never_splits_or_surrenders_crown():
    """§8 "When it runs out the server acts: stand where standing is allowed ... it never
    doubles, splits, buys, surrenders ...": crown 8-8 against a dealer K (standing allowed on any
    total, §2) may split, double or surrender; the timeout stands, and 16 loses to K 7."""
    s = dealt("crown", bets((1, 1000)), ["8S", "KH", "8C"])
    assert s.legal_actions() == ["double", "hit", "split", "stand", "surrender"]
    s = apply(s, TimeoutDefault())
    assert len(s.boxes[1].hands) == 1 and s.hand(1, 0).status == "stood"
    assert s.hand(1, 0).stakes["b1"] == [1000, 0, 0]
    s = apply(s, CardDealt("7D"))  # the dealer: K 7 = 17, stands
    assert s.phase == "complete"
    assert paid(settle(s)) == {("b1", 1, 0, "lose"): 0}


def test_s8_limits_apply_to_stakes_placed_after_the_first_card():
    lim = TableLimits(min_bet=100, max_bet=1000)
    s = dealt("traditional", [BetPlaced("b1", 1, 0, "p")], ["9S", "7H"], lim)
    for refused in (5000, 50):
        with pytest.raises(IllegalAction, match="between 100 and 1000"):
            apply(s, StakePlaced("b1", refused))
    s = apply(s, StakePlaced("b1", 1000))
    assert s.hand(1, 0).stakes["b1"][0] == 1000


def test_s8_timeout_hits_where_standing_not_allowed_never_doubles():
    s = dealt("online_8deck", bets((1, 1000)), ["QS", "9H", "2C", "9D"])
    s = apply(s, TimeoutDefault())
    assert s.hand(1, 0).awaiting and s.hand(1, 0).doubles == 0


def test_s8_timeout_twists_in_traditional():
    s = dealt(
        "traditional",
        [BetPlaced("b1", 1, 0, "p")],
        ["9S", "7H", StakePlaced("b1", 500), "5C", "9D"],
    )
    s = apply(s, TimeoutDefault())
    assert s.hand(1, 0).twisted and s.hand(1, 0).stakes["b1"][1] == 0


@pytest.mark.parametrize(
    "second,legal,status",
    [
        ("5C", ["buy", "twist"], "open"),  # 9 5 = 14: may not stand, the server twists
        ("7C", ["buy", "stand", "twist"], "stood"),  # 9 7 = 16: the server stands
    ],
)
def test_s8_timeout_never_buys_in_traditional(second, legal, status):
    """§8 "stand where standing is allowed, otherwise hit (in traditional, twist); it never ...
    buys": a traditional box that may buy twists on 14 and stands on 16, its stake unchanged."""
    s = dealt(
        "traditional",
        [BetPlaced("b1", 1, 0, "p")],
        ["9S", "7H", StakePlaced("b1", 500), second, "9D"],
    )
    assert s.legal_actions() == legal
    s = apply(s, TimeoutDefault())
    h = s.hand(1, 0)
    assert h.status == status and h.buys == 0 and h.stakes["b1"] == [500, 0, 0]
    assert h.twisted is (status == "open")


def test_s8_timeout_declines_matches_and_insurance():
    s = dealt("british_casino", _behind(), ["2S", "AH", "3C"])
    assert s.turn().kind == TurnKind.INSURANCE
    s = apply(s, TimeoutDefault())
    assert all(b.insurance == 0 and not b.even_money for b in s.bets.values())
    s = apply(s, D(1, "double"))
    s = apply(s, TimeoutDefault())
    assert s.hand(1, 0).stakes["b"] == [600, 0, 0]


def test_s8_timeout_for_the_wrong_hand_refused():
    s = dealt("crown", bets((1, 1000), (2, 1000)), ["QS", "QH", "9H", "2C", "3C"])
    with pytest.raises(NotTheirTurn):
        apply(s, TimeoutDefault(2, 0))


# --- card source ---------------------------------------------------------------------------


def test_s8_card_not_asked_for_is_refused():
    s = dealt("crown", bets((1, 1000)), ["QS", "9H", "2C"])
    with pytest.raises(NotExpectedNow, match="no card is expected"):
        apply(s, CardDealt("5S"))


def test_s8_decision_out_of_turn_refused():
    s = dealt("crown", bets((1, 1000), (2, 1000)), ["QS", "QH", "9H", "2C", "3C"])
    with pytest.raises(NotTheirTurn, match="box 1 hand 0's turn"):
        apply(s, Decision(2, 0, "stand"))


def test_s8_impossible_card_too_many_copies():
    s = dealt("traditional", [BetPlaced("b1", 1, 0, "p")], ["AS"])
    with pytest.raises(ImpossibleCard, match="1-deck"):
        apply(s, CardDealt("AS"))
    comp = ShoeComposition("standard", 1)
    comp.take("AS")
    with pytest.raises(ImpossibleCard, match="copies"):
        comp.take("as")
    with pytest.raises(ImpossibleCard, match="no tens"):
        ShoeComposition("spanish", 8).take("TC")
    assert ShoeComposition("spanish", 8).total_remaining == 384


# --- shoes ---------------------------------------------------------------------------------


def test_s8_shuffle_commitment_recorded_before_first_card_and_verifiable():
    r, _ = get_preset("british_casino")
    shoe = shuffle_shoe(rule_set=r, rng=random.Random(7), salt="ab12")
    commitment = shoe.commitment
    assert len(shoe.order) == 312 and shoe.position == 0
    [(order, salt, c)] = shoe.reveal()
    assert c == commitment and verify_commitment(order, salt, commitment)
    order[0], order[1] = order[1], order[0]
    assert not verify_commitment(order, salt, commitment) or order[0] == order[1]
    assert not verify_commitment(["XX"], salt, commitment)


def test_s8_cut_card_and_penetration():
    r, _ = get_preset("british_casino")
    shoe = shuffle_shoe(rule_set=r.replace(penetration_percent=50), rng=random.Random(1))
    assert shoe.cut_index == 156
    for _ in range(155):
        shoe.deal()
    assert not shoe.cut_card_out
    shoe.deal()
    assert shoe.cut_card_out


def test_s8_fresh_shuffle_shoe_has_no_cut_card_and_exhausts():
    r, _ = get_preset("traditional")
    shoe = stacked_shoe(["AS", "KS"], rule_set=r)
    assert shoe.cut_index == 2
    shoe.deal(), shoe.deal()
    with pytest.raises(ShoeExhausted):
        shoe.deal()


def test_s8_system_random_by_default():
    r, _ = get_preset("online_2deck")
    a, b = shuffle_shoe(rule_set=r), shuffle_shoe(rule_set=r)
    assert a.order != b.order and a.commitment != b.commitment


# --- limits, rounding ----------------------------------------------------------------------


def test_s8_limits_apply_to_initial_bets_only():
    lim = TableLimits(min_bet=100, max_bet=1000, box_max=1500)
    r, p = get_preset("crown")
    s = new_round(r, p, lim)
    with pytest.raises(IllegalAction, match="table limits"):
        apply(s, BetPlaced("x", 1, 1001, "p"))
    s = apply(s, BetPlaced("a", 1, 1000, "p"))
    with pytest.raises(IllegalAction, match="box limit"):
        apply(s, BetPlaced("b", 1, 600, "q", True))
    s = dealt("british_casino", bets((1, 1000)), ["8S", "9H", "8C"], lim)
    s = apply(s, D(1, "split"))  # the split takes the box beyond the maximum
    assert sum(h.stakes["b1"][0] for h in s.boxes[1].hands) == 2000


def test_s8_double_above_table_maximum_accepted_british_casino():
    """§8 "Limits. Table minimum and maximum apply to each initial bet ... Doubles, splits, buys
    and insurance are limited by the rules above, not by the table maximum": two doubles on a
    maximum bet take the hand to three times the maximum (british_casino, §4)."""
    limits = TableLimits(min_bet=100, max_bet=1000)
    r, p = get_preset("british_casino")
    with pytest.raises(IllegalAction, match="outside the table limits"):
        apply(new_round(r, p, limits), BetPlaced("b1", 1, 1001, "p1"))
    s = dealt("british_casino", bets((1, 1000)), ["5S", "9H", "6C"], limits)
    assert s.amount_range("double") == (1000, 1000)
    s = apply(s, D(1, "double"))
    s = apply(s, CardDealt("2D"))  # 5 6 2 = 13
    assert s.amount_range("double") == (1000, 1000)
    s = apply(s, D(1, "double"))  # 3000 on the hand: three times the table maximum
    s = apply(s, CardDealt("8D"))  # 21 (hard): stops
    s = apply(s, CardDealt("8C"))  # the dealer: 9 8 = 17, stands
    assert s.phase == "complete"
    line = settle(s).lines[0]
    assert (line.result, line.stake, line.paid) == ("win", 3000, 6000)


def test_s8_buy_above_table_maximum_accepted_traditional():
    """§8 "Doubles, splits, buys and insurance are limited by the rules above, not by the table
    maximum"; §7 buy "raising the stake by any amount from the table minimum up to the box's
    original stake — for each card bought": a maximum stake buys twice, 3000 on the hand."""
    limits = TableLimits(min_bet=100, max_bet=1000)
    s = dealt(
        "traditional", [BetPlaced("b1", 1, 0, "p")], ["5S", "7H"], limits
    )  # box 5S, banker 7H
    with pytest.raises(IllegalAction, match="between 100 and 1000"):
        apply(s, StakePlaced("b1", 1001))  # the initial stake is within the table limits
    s = apply(s, StakePlaced("b1", 1000))
    s = apply(s, CardDealt("4C"))
    s = apply(s, CardDealt("9D"))  # banker 7 9 = 16
    assert s.amount_range("buy") == (100, 1000)
    s = apply(s, D(1, "buy", amount=1000))
    s = apply(s, CardDealt("2C"))  # 5 4 2 = 11
    assert "buy" in s.legal_actions() and s.amount_range("buy") == (100, 1000)
    s = apply(s, D(1, "buy", amount=1000))
    s = apply(s, CardDealt("6C"))  # 17 with four cards (hard 17: not forced)
    assert s.hand(1, 0).stakes["b1"][:2] == [1000, 2000]
    s = apply(s, D(1, "stand"))
    s = apply(s, DealerDecision("stand"))  # banker stands on 16
    line = settle(s).lines[0]
    assert (line.result, line.stake, line.paid) == ("win", 3000, 6000)


def test_s8_rounding_once_per_bet_per_hand_on_total_stake():
    _, st = run(
        "british_casino",
        bets((1, 333)),
        ["2S", "9H", "3C", "2D", "2H", "4D"],
        [D(1, "double"), D(1, "double"), D(1, "hit")],
    )
    line = st.lines[0]
    # 999 * 3/2 = 1498.5 → 1498, remainder 1/2 (not 3 times 333 * 3/2 rounded separately)
    assert (line.stake, line.winnings, str(line.remainder)) == (999, 1498, "1/2")


# --- void ----------------------------------------------------------------------------------


def test_s8_void_decided_outcomes_stand_undecided_returned():
    g = Partial(
        "british_casino",
        bets((1, 1000), (2, 1000), (3, 1000)),
        *["AS", "KS", "5S", "9H", "KC", "QS", "5C", D(2, "hit"), "KH"],
    )
    # box1 Pontoon decided at once (dealer 9), box2 bust, box3 pending
    assert g.state.turn() == Turn(TurnKind.HAND, 3, 0)
    with pytest.raises(RoundNotComplete):
        settle(g.state)
    v = g.void()
    assert v.void and paid(v) == {
        ("b1", 1, 0, "pontoon"): 3000,
        ("b2", 2, 0, "bust"): 0,
        ("b3", 3, 0, "void_returned"): 1000,
    }


def test_s8_void_keeps_surrender_and_rescue_returns_pending_doubles():
    g = Partial(
        "crown",
        bets((1, 1000), (2, 1000), (3, 1000)),
        *["QS", "QH", "5S", "KH", "6C", "6H", "4S", D(1, "surrender")],
        *[D(2, "double"), "2C", D(2, "stand")],
    )
    assert paid(g.void()) == {
        ("b1", 1, 0, "surrender"): 500,
        ("b2", 2, 0, "void_returned"): 2000,
        ("b3", 3, 0, "void_returned"): 1000,
    }


def test_s8_void_pays_a_standing_crown_21_and_pontoon_at_their_odds():
    # §8 (clarified 2026-12-01): no further card can change a crown 21 or Pontoon. Box 1:
    # 6-7-8 mixed (3:2) with a bet behind, box 2 Pontoon (3:2), box 3 on 17 still to act
    evs = [*bets((1, 1000), (2, 1000), (3, 1000)), BetPlaced("x", 1, 600, "xena", True)]
    g = Partial("crown", evs, "6S", "AS", "9C", "9H", "7H", "KC", "8C", D(1, "hit"), "8D")
    assert g.state.turn() == Turn(TurnKind.HAND, 3, 0)
    v = g.void()
    assert v.void and paid(v) == {
        ("b1", 1, 0, "win"): 2500,
        ("x", 1, 0, "win"): 1500,
        ("b2", 2, 0, "pontoon"): 2500,
        ("b3", 3, 0, "void_returned"): 1000,
    }
    assert {x.odds_kind for x in v.lines if x.result != "void_returned"} == {
        "678_mixed",
        "pontoon",
    }


def test_s8_void_pays_a_crown_super_bonus_hand_its_odds_but_no_prize_and_no_envy():
    # §3.3 and §8: box 1's 7-7-7 hearts against a dealer 7 is a decided crown 21, so a void
    # pays it at 7-7-7 suited (2:1) to the controller and the bet behind; the Super Bonus and
    # the envy bonus are prizes ("nothing else is paid"); box 2 (17, still to act) is returned
    evs = [
        BetPlaced("a", 1, 3000, "alice"),
        BetPlaced("b", 1, 600, "bob", True),
        BetPlaced("d", 2, 1000, "dan"),
    ]
    g = Partial("crown", evs, "7H", "KC", "7D", "7H", "7C", D(1, "hit"), "7H")
    s = g.state
    assert s.hand(1, 0).status == "stood" and s.decided_at_once(s.hand(1, 0))
    assert s.turn() == Turn(TurnKind.HAND, 2, 0)
    v = g.void()
    assert [(x.bet_id, x.result, x.odds_kind, x.paid, x.bonus) for x in v.lines] == [
        ("a", "win", "777_suited", 9000, 0),
        ("b", "win", "777_suited", 1800, 0),
        ("d", "void_returned", "", 1000, 0),
    ]
    # played to the end instead, the same hand wins both prizes and dan envies it
    s = g.feed(D(2, "stand"), "KS")
    assert [c.code for c in s.dealer] == ["7D", "KS"]
    lines = {(x.bet_id, x.result): x.bonus for x in settle(s).lines if x.bonus}
    assert lines == {("a", "win"): 500_000, ("b", "win"): 100_000, ("d", "envy_bonus"): 5000}


def test_s8_void_pays_a_crown_pontoon_dealt_before_play_began():
    g = Partial("crown", bets((1, 1000), (2, 1000)), "AS", "9C", "9H", "KC")
    assert g.state.phase == "dealing"  # box 2's second card is still to come
    assert paid(g.void()) == {
        ("b1", 1, 0, "pontoon"): 2500,
        ("b2", 2, 0, "void_returned"): 1000,
    }


def test_s8_void_returns_a_21_that_still_waits_for_the_dealer():
    # british_casino: a three-card 21 loses to a dealer 21, so it is undecided
    g = Partial("british_casino", bets((1, 1000), (2, 1000)), "5S", "9C", "9H", "6C", "8C")
    s = g.feed(D(1, "hit"), "KD")
    assert s.hand(1, 0).status == "stood" and s.turn() == Turn(TurnKind.HAND, 2, 0)
    assert paid(g.void()) == {
        ("b1", 1, 0, "void_returned"): 1000,
        ("b2", 2, 0, "void_returned"): 1000,
    }


def test_s8_void_in_the_dealers_phase_pays_a_pontoon_the_dealers_two_cards_decided():
    """§8 "any hand whose outcome no further card can change": british_casino, box 1's Pontoon
    waited for the dealer's second card (K, then 5: no dealer Pontoon); the dealer draws on for
    box 2's 18 and the round is voided: the Pontoon has won (2:1), the 18 is returned."""
    evs = bets((1, 1000), (2, 1000))
    g = Partial("british_casino", evs, "AS", "QC", "KH", "KC", "8D", D(2, "stand"), "5D")
    assert g.state.phase == "dealer" and [c.code for c in g.state.dealer] == ["KH", "5D"]
    assert paid(g.void()) == {
        ("b1", 1, 0, "pontoon"): 3000,
        ("b2", 2, 0, "void_returned"): 1000,
    }
    # a rule-set version from before this reading returned the Pontoon, and replays so
    rules, payouts = get_preset("british_casino")
    before = rules.replace(void_pays_pontoon_after_dealer_two_cards=False)
    replayed = fold(before, payouts, g.events, TableLimits())
    assert paid(settle_void(replayed)) == {
        ("b1", 1, 0, "void_returned"): 1000,
        ("b2", 2, 0, "void_returned"): 1000,
    }


def test_s8_a_void_once_the_dealer_has_finished_lets_every_outcome_stand():
    """§8 "every outcome already decided when the void is approved stands": the dealer has
    finished (the round waits for its settlement), so no card can change any outcome: the 19
    has beaten the dealer's 17 and the 17 has lost to it (ties to the dealer), as settled."""
    g = Partial(
        "british_casino",
        bets((1, 1000), (2, 1000)),
        "9S", "8S", "KH", "TS", "9D", D(1, "stand"), D(2, "stand"), "7C",
    )  # fmt: skip
    assert g.state.phase == "complete"
    assert paid(g.void()) == paid(settle(g.state))
    assert paid(g.void()) == {("b1", 1, 0, "win"): 2000, ("b2", 2, 0, "lose"): 0}
    # a rule-set version from before this reading returned both stakes, and replays so
    rules, payouts = get_preset("british_casino")
    before = rules.replace(void_stands_once_the_dealer_has_finished=False)
    replayed = fold(before, payouts, g.events, TableLimits())
    assert paid(settle_void(replayed)) == {
        ("b1", 1, 0, "void_returned"): 1000,
        ("b2", 2, 0, "void_returned"): 1000,
    }


def test_s8_void_during_play_returns_a_pontoon_whatever_the_dealers_hidden_cards():
    """online_2deck deals the dealer's two cards face down before play: a void during play
    returns box 1's Pontoon (the reading of §8 applies in the dealer's phase, cards face up)."""
    g = Partial("online_2deck", bets((1, 1000), (2, 1000)), "AS", "9C", "5H", "KS", "7C", "6D")
    assert g.state.phase == "playing" and len(g.state.dealer) == 2
    assert paid(g.void()) == {
        ("b1", 1, 0, "void_returned"): 1000,
        ("b2", 2, 0, "void_returned"): 1000,
    }


# --- events --------------------------------------------------------------------------------


def test_s8_events_serialise_with_type_field():
    e = CardDealt("10h")
    assert e.to_json() == {"type": "card_dealt", "card": "TH"}
    assert event_from_json(e.to_json()) == e
    d = Decision(1, 0, "double", 500)
    assert event_from_json(d.to_json()) == d
    with pytest.raises(InvalidEvent):
        event_from_json({"type": "nope"})
    with pytest.raises(InvalidEvent):
        event_from_json({"type": "decision", "box": 1})
