"""§4 british_casino: scenario tests."""

import pytest

from tables.engine import (
    BetPlaced,
    CardDealt,
    CardTarget,
    EvenMoneyTaken,
    IllegalAction,
    InsuranceDeclined,
    InsuranceTaken,
    MatchMade,
    OutOfTurn,
    TargetKind,
    Turn,
    TurnKind,
    apply,
    get_preset,
)

from .helpers import D, bets, dealt, paid, run

P = "british_casino"


def test_s4_deal_order_and_dealer_second_card_after_play():
    s = dealt(P, bets((1, 1000), (2, 1000)), ["2S", "3S", "4S", "5S", "6S"])
    assert len(s.dealer) == 1 and s.turn() == Turn(TurnKind.HAND, 1, 0)


def test_s4_equal_total_goes_to_dealer():
    _, st = run(P, bets((1, 1000)), ["KS", "9H", "9C", "KD"], [D(1, "stand")])
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s4_three_card_21_loses_to_dealer_21():
    _, st = run(P, bets((1, 1000)), ["7S", "9H", "7C", "7D", "5D", "7H"], [D(1, "hit")])
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s4_pontoon_2_to_1_decided_at_once_vs_small_card():
    s, st = run(P, bets((1, 1000)), ["AS", "9H", "KC"], [])
    assert len(s.dealer) == 1  # decided at once: the dealer need not draw
    assert paid(st) == {("b1", 1, 0, "pontoon"): 3000}


def test_s4_pontoon_waits_and_loses_to_dealer_pontoon():
    _, st = run(P, bets((1, 1000)), ["AS", "KH", "KC", "AD"], [])
    assert paid(st) == {("b1", 1, 0, "lose"): 0}
    _, st = run(P, bets((1, 1000)), ["AS", "KH", "KC", "QD"], [])
    assert paid(st) == {("b1", 1, 0, "pontoon"): 3000}


def test_s4_a_waiting_pontoon_needs_only_the_dealers_second_card():
    """§4 "draws only if a hand still needs the dealer's result (a standing hand, a Pontoon
    waiting, or insurance pending — then the second card only)": only a dealer Pontoon beats a
    waiting Pontoon, so the dealer stops at K-5 and the Pontoon is paid 2:1."""
    s, result = run(P, bets((1, 1000)), ["AS", "KH", "KC", "5D"])
    assert [str(c) for c in s.dealer] == ["KH", "5D"]
    assert paid(result) == {("b1", 1, 0, "pontoon"): 3000}
    # a rule-set version from before this reading: the dealer drew on, and it replays so
    before = get_preset(P)[0].replace(pontoon_waits_for_second_card_only=False)
    s, old = run(P, bets((1, 1000)), ["AS", "KH", "KC", "5D", "9C"], rules=before)
    assert [str(c) for c in s.dealer] == ["KH", "5D", "9C"] and old == result


def test_s4_a_standing_hand_beside_a_waiting_pontoon_makes_the_dealer_draw_to_17():
    s, result = run(
        P, bets((1, 1000), (2, 1000)),
        ["AS", "QC", "KH", "KC", "8D", "5D", "6C"], [D(2, "stand")],
    )  # fmt: skip
    assert [str(c) for c in s.dealer] == ["KH", "5D", "6C"]
    assert paid(result) == {("b1", 1, 0, "pontoon"): 3000, ("b2", 2, 0, "lose"): 0}


def test_s4_insurance_each_bet_own_choice_pays_2_to_1():
    evs = [BetPlaced("a", 1, 1000, "alice"), BetPlaced("b", 1, 1000, "bob", True)]
    _, st = run(
        P,
        evs,
        ["9S", "AH", "9C", "KD"],
        [InsuranceTaken("a", 500), InsuranceDeclined("b"), D(1, "stand")],
    )
    by = {(x.bet_id, x.result): x.paid for x in st.lines}
    assert by == {("a", "lose"): 0, ("b", "lose"): 0, ("a", "insurance_win"): 1500}


def test_s4_insurance_capped_at_half_own_stake_and_lost_without_pontoon():
    s = dealt(P, bets((1, 1001)), ["9S", "AH", "9C"])
    assert s.turn() == Turn(TurnKind.INSURANCE, bets=("b1",))
    assert s.legal_actions("b1") == ["decline", "insurance"]
    with pytest.raises(IllegalAction, match="between 1 and 500"):
        apply(s, InsuranceTaken("b1", 501))
    _, st = run(
        P, bets((1, 1000)), ["9S", "AH", "9C", "6D"], [InsuranceTaken("b1", 500), D(1, "stand")]
    )
    assert paid(st) == {("b1", 1, 0, "win"): 2000, ("b1", 1, 0, "insurance_lose"): 0}


def test_s4_even_money_decided_at_once():
    evs = [BetPlaced("a", 1, 1000, "alice"), BetPlaced("b", 1, 1000, "bob", True)]
    s = dealt(P, evs, ["AS", "AH", "KC"])
    assert s.legal_actions("a") == ["decline", "even_money", "insurance"]
    _, st = run(P, evs, ["AS", "AH", "KC", "QD"], [EvenMoneyTaken("a"), InsuranceDeclined("b")])
    by = {(x.bet_id, x.result): x.paid for x in st.lines}
    assert by == {("a", "even_money"): 2000, ("b", "lose"): 0}


def test_s4_insurance_only_needs_the_dealer_second_card():
    s, st = run(
        P, bets((1, 1000)), ["9S", "AH", "9C", "KD", "7C"], [InsuranceTaken("b1", 100), D(1, "hit")]
    )
    assert [c.code for c in s.dealer] == ["AH", "7C"]
    assert paid(st) == {("b1", 1, 0, "bust"): 0, ("b1", 1, 0, "insurance_lose"): 0}


def test_s4_five_card_trick_3_to_2_decided_at_once_beats_dealer_pontoon():
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "AH", "3C", "2D", "4D", "5D"],
        [InsuranceDeclined("b1"), D(1, "hit"), D(1, "hit"), D(1, "hit")],
    )
    assert len(s.dealer) == 1 and s.hand(1, 0).status == "stood"
    assert paid(st) == {("b1", 1, 0, "five_card_trick"): 2500}


def test_s4_doubled_five_card_trick_pays_3_to_2_on_whole_stake():
    _, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "2D", "4D", "5D"],
        [D(1, "double"), D(1, "double"), D(1, "hit")],
    )
    line = st.lines[0]
    assert (line.stake, line.odds, line.paid) == (3000, (3, 2), 7500)


def test_s4_double_twice_each_for_original_then_hit_or_stand():
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C"])
    assert s.amount_range("double") == (1000, 1000)
    with pytest.raises(IllegalAction):
        apply(s, D(1, "double", amount=500))
    s = apply(s, D(1, "double"))
    s = apply(s, CardDealt("2D"))
    assert s.legal_actions() == ["double", "hit", "stand"]
    s = apply(s, D(1, "double"))
    s = apply(s, CardDealt("2H"))
    assert s.legal_actions() == ["hit", "stand"]
    assert s.hand(1, 0).stakes["b1"][:2] == [1000, 2000]


@pytest.mark.parametrize("dealer_card", ["9H", "KH"])
def test_s4_pontoon_cannot_be_doubled(dealer_card):
    """§4 "A Pontoon cannot be doubled"; §8 "A hand stops when it ... is a Pontoon ... A player
    is never asked to act on a hand that cannot change": box 1's Pontoon (decided at once
    against a 9, waiting against a K) stands undoubled and play passes to box 2."""
    s = dealt(P, bets((1, 1000), (2, 1000)), ["AS", "5S", dealer_card, "KC", "6C"])
    assert s.hand(1, 0).status == "stood" and s.hand(1, 0).doubles == 0
    assert s.turn() == Turn(TurnKind.HAND, 2, 0) and "double" in s.legal_actions()
    with pytest.raises(OutOfTurn):
        apply(s, D(1, "double"))
    assert s.hand(1, 0).stakes["b1"] == [1000, 0, 0]


def test_s4_second_double_only_if_first_made():
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C"])
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("2D"))
    assert "double" not in s.legal_actions()


def test_s4_split_unlimited_and_double_on_split():
    s, st = run(
        P,
        bets((1, 1000)),
        ["8S", "9H", "8C", "8D", "8H", "3S", "KS", "2C", "QC", "JC", "9D"],
        [
            D(1, "split"),
            D(1, "split"),
            D(1, "split"),
            D(1, "double"),
            D(1, "stand", 1),
            D(1, "stand", 2),
            D(1, "stand", 3),
        ],
    )
    hands = s.boxes[1].hands
    assert len(hands) == 4 and hands[0].doubles == 1
    # dealer 9 9 = 18: 8 3 K (21) wins on 2000; 8 2 (10) loses; 8 Q / 8 J (18) lose on the tie
    assert paid(st) == {
        ("b1", 1, 0, "win"): 4000,
        ("b1", 1, 1, "lose"): 0,
        ("b1", 1, 2, "lose"): 0,
        ("b1", 1, 3, "lose"): 0,
    }


def test_s4_split_aces_once_one_card_and_ace_ten_is_plain_21():
    s, st = run(P, bets((1, 1000)), ["AS", "9H", "AC", "KD", "AD", "9D"], [D(1, "split")])
    assert [len(h.cards) for h in s.boxes[1].hands] == [2, 2]
    assert paid(st) == {("b1", 1, 0, "win"): 2000, ("b1", 1, 1, "lose"): 0}


def test_s4_soft_21_may_draw_hard_21_stops():
    s = dealt(P, bets((1, 1000)), ["AS", "9H", "5C"])
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("5D"))
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and "hit" in s.legal_actions()
    s = dealt(P, bets((1, 1000)), ["KS", "9H", "5C"])
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("6D"))
    assert s.phase == "dealer"


def test_s4_dealer_stands_on_soft_17():
    s, _ = run(
        P, bets((1, 1000)), ["KS", "AH", "9C", "6D"], [InsuranceDeclined("b1"), D(1, "stand")]
    )
    assert len(s.dealer) == 2


def test_s4_dealer_pontoon_takes_doubles_and_splits():
    _, st = run(
        P,
        bets((1, 1000)),
        ["5S", "KH", "5C", "5D", "AD"],
        [D(1, "double"), D(1, "stand")],
    )
    line = st.lines[0]
    assert (line.result, line.stake, line.paid) == ("lose", 2000, 0)


def test_s4_bets_behind_match_exactly_own_stake():
    evs = [BetPlaced("a", 1, 1000, "alice"), BetPlaced("b", 1, 400, "bob", True)]
    s = dealt(P, evs, ["5S", "9H", "6C"])
    s = apply(s, D(1, "double"))
    assert s.turn() == Turn(TurnKind.MATCH, 1, 0, ("b",)) and s.next_card_target() is None
    assert s.amount_range("match", "b") == (400, 400)
    with pytest.raises(IllegalAction):
        apply(s, MatchMade("b", 200))
    with pytest.raises(OutOfTurn):
        apply(s, CardDealt("KD"))
    s = apply(s, MatchMade("b"))
    assert s.next_card_target() == CardTarget(TargetKind.BOX, 1, 0)


def test_s4_dealer_pontoon_takes_split_hands():
    _, st = run(
        P,
        bets((1, 1000)),
        ["8S", "KH", "8C", "KD", "9D", "AH"],
        [D(1, "split"), D(1, "stand", 0), D(1, "stand", 1)],
    )
    assert [(x.hand, x.result, x.paid) for x in st.lines] == [
        ((1, 0), "lose", 0),
        ((1, 1), "lose", 0),
    ]


def test_s4_dealer_five_cards_are_just_a_total():
    s, st = run(P, bets((1, 1000)), ["KS", "2H", "9C", "2D", "3D", "4D", "7D"], [D(1, "stand")])
    assert len(s.dealer) == 5  # 18 in five cards: no dealer Five Card Trick
    assert paid(st) == {("b1", 1, 0, "win"): 2000}
