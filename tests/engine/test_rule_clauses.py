"""Rule-book clauses that the per-section scenario files did not yet pin down, one test each:
§4/§8 void with even money taken and insurance pending, §3.2/§8 a rescue under void, §7 a soft
21 that may still buy or twist and a hard 21 that stops, §7 five-card hands against the banker,
§5 the double's amount, §6 the three-hand split cap, §3.3 6-7-8 in any order."""

import pytest

from tables.engine import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    DealerDecision,
    EvenMoneyTaken,
    IllegalAction,
    InsuranceTaken,
    StakePlaced,
    Turn,
    TurnKind,
    apply,
    get_preset,
    new_round,
    settle,
)

from .helpers import D, Partial, bets, paid, run


def _state(preset, events, cards):
    r, p = get_preset(preset)
    s = new_round(r, p)
    for e in [*events, BettingClosed(), *cards]:
        s = apply(s, CardDealt(e) if isinstance(e, str) else e)
    return s


def _lines(settlement):
    return sorted((x.bet_id, x.result, x.stake, x.paid) for x in settlement.lines)


def test_s8_void_even_money_stands_pending_insurance_and_stakes_returned():
    # british_casino, dealer ace: alice (box 1, Pontoon) takes even money, bob behind her takes
    # insurance instead, carol (box 2, 17) insures too; the round is voided on carol's turn.
    evs = [
        BetPlaced("a", 1, 1000, "alice"),
        BetPlaced("b", 1, 1000, "bob", True),
        BetPlaced("c", 2, 1000, "carol"),
    ]
    g = Partial("british_casino", evs, "AS", "9C", "AH", "KC", "8D")
    assert g.state.turn() == Turn(TurnKind.INSURANCE, bets=("a", "b", "c"))
    s = g.feed(EvenMoneyTaken("a"), InsuranceTaken("b", 500), InsuranceTaken("c", 300))
    assert s.turn() == Turn(TurnKind.HAND, 2, 0)
    v = g.void()
    assert v.void
    # even money was decided at once and stands; bob's Pontoon still waited for the dealer, so
    # it and both insurance stakes (settled only by the dealer's second card) are returned
    assert _lines(v) == [
        ("a", "even_money", 1000, 2000),
        ("b", "void_returned", 500, 500),
        ("b", "void_returned", 1000, 1000),
        ("c", "void_returned", 300, 300),
        ("c", "void_returned", 1000, 1000),
    ]


def test_s8_void_keeps_a_rescue_made_before_it():
    # crown: box 1 doubles 11 for the full stake, draws to 13 and rescues (original stake lost,
    # double returned, settled at once); the round is voided on box 2's turn.
    g = Partial("crown", bets((1, 1000), (2, 1000)), "6S", "9C", "5H", "5C", "8D")
    s = g.feed(D(1, "double", 0, 1000), "2C")
    assert s.legal_actions() == ["rescue", "stand"]
    s = g.feed(D(1, "rescue"))
    assert s.turn() == Turn(TurnKind.HAND, 2, 0)
    assert paid(g.void()) == {
        ("b1", 1, 0, "rescue"): 1000,
        ("b2", 2, 0, "void_returned"): 1000,
    }


def _traditional(cards):
    return _state("traditional", [BetPlaced("b1", 1, 0, "p1")], cards)


def test_s7_soft_21_of_fewer_than_five_cards_may_still_buy_or_twist():
    # A 5 bought: soft 21 with three cards, still open to buy, twist or stand
    s = _traditional(["AS", "2H", StakePlaced("b1", 500), "5C", "2D", D(1, "buy", 0, 500), "5D"])
    assert s.hand(1, 0).status == "open"
    assert s.legal_actions() == ["buy", "stand", "twist"]


def test_s7_a_twisted_soft_21_may_twist_but_not_buy_and_a_hard_21_stops():
    s = _traditional(["AS", "2H", StakePlaced("b1", 500), "5C", "2D", D(1, "twist"), "5D"])
    assert s.legal_actions() == ["stand", "twist"]
    with pytest.raises(IllegalAction):
        apply(s, D(1, "buy", 0, 500))
    s = _traditional(["7S", "2H", StakePlaced("b1", 500), "7C", "2D", D(1, "twist"), "7D"])
    assert s.hand(1, 0).status == "stood" and s.turn() == Turn(TurnKind.DEALER)


def test_s7_five_card_hand_beats_a_standing_banker_21_and_loses_to_a_banker_five_card_hand():
    # box 2 3 2 3 then the forced fifth card 4: five cards, 14
    box = ["2S", "3S", D(1, "twist"), "2C", D(1, "twist"), "3C", "4C"]
    s = _traditional([box[0], "KD", StakePlaced("b1", 500), box[1], "5D", *box[2:]])
    assert [c.code for c in s.hand(1, 0).cards] == ["2S", "3S", "2C", "3C", "4C"]
    s = apply(s, DealerDecision("hit"))
    s = apply(s, CardDealt("6D"))  # banker K 5 6 = 21, three cards: stands
    assert paid(settle(s)) == {("b1", 1, 0, "five_card_trick"): 1000}

    s = _traditional([box[0], "2D", StakePlaced("b1", 500), box[1], "3D", *box[2:]])
    for card in ["2H", "3H", "4H"]:  # banker 2 3 2 3 4: five cards
        s = apply(s, DealerDecision("hit"))
        s = apply(s, CardDealt(card))
    assert paid(settle(s)) == {("b1", 1, 0, "lose"): 0}


@pytest.mark.parametrize("amount", [500, 1500])
def test_s5_double_is_for_exactly_the_original_stake(amount):
    s = _state("online_8deck", bets((1, 1000)), ["5S", "9H", "6C", "7D"])
    with pytest.raises(IllegalAction, match="between 1000 and 1000"):
        apply(s, D(1, "double", 0, amount))
    doubled = apply(s, D(1, "double", 0, 1000))
    assert doubled.boxes[1].hands[0].stakes["b1"][:2] == [1000, 1000]


def test_s6_split_up_to_three_hands_then_no_more():
    s = _state("online_2deck", bets((1, 1000)), ["8S", "9H", "8C", "7D"])
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("8D"))
    assert "split" in s.legal_actions()
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("8H"))
    assert len(s.boxes[1].hands) == 3
    assert "split" not in s.legal_actions()
    with pytest.raises(IllegalAction):
        apply(s, D(1, "split"))


@pytest.mark.parametrize("cards", [["8S", "7H", "6C"], ["7S", "8H", "6C"], ["6S", "8H", "7C"]])
def test_s3_3_six_seven_eight_pays_in_any_order(cards):
    first, second, third = cards
    _, st = run("crown", bets((1, 1000)), [first, "9H", second, third], [D(1, "hit")])
    assert (st.lines[0].odds_kind, st.lines[0].paid) == ("678_mixed", 2500)
