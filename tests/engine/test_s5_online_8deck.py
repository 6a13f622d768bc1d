"""§5 online_8deck: scenario tests."""

import pytest

from tables.engine import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    CardTarget,
    IllegalAction,
    TargetKind,
    apply,
    get_preset,
    new_round,
)

from .helpers import D, bets, dealt, paid, run

P = "online_8deck"


def test_s5_deal_order_two_dealer_cards_last():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 100, "me"), (2, 100, "me")), BettingClosed()]:
        s = apply(s, e)
    order = []
    for c in ["2S", "3S", "4S", "5S", "6S", "7S"]:
        order.append(s.next_card_target())
        s = apply(s, CardDealt(c))
    box1, box2 = CardTarget(TargetKind.BOX, 1, 0), CardTarget(TargetKind.BOX, 2, 0)
    assert order == [box1, box2, CardTarget(TargetKind.DEALER)] * 2


def test_s5_multihand_up_to_five_boxes_per_player():
    r, p = get_preset(P)
    s = new_round(r, p)
    for box in range(1, 6):
        s = apply(s, BetPlaced(f"b{box}", box, 100 * box, "me"))
    assert len(s.boxes) == 5
    r6 = r.replace(boxes=6)
    s = new_round(r6, p)
    for box in range(1, 6):
        s = apply(s, BetPlaced(f"b{box}", box, 100, "me"))
    with pytest.raises(IllegalAction, match="limit is 5"):
        apply(s, BetPlaced("b6", 6, 100, "me"))


def test_s5_peek_dealer_pontoon_every_box_loses_player_pontoon_included():
    s, st = run(P, bets((1, 1000, "me"), (2, 1000, "me")), ["AS", "9S", "AH", "KS", "8S", "KH"])
    assert s.peeked_pontoon and s.phase == "complete"
    assert paid(st) == {("b1", 1, 0, "lose"): 0, ("b2", 2, 0, "lose"): 0}


def test_s5_pontoon_and_five_card_trick_pay_2_to_1():
    _, st = run(P, bets((1, 1000)), ["AS", "9H", "KC", "9D"], [])
    assert paid(st) == {("b1", 1, 0, "pontoon"): 3000}
    _, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "KD", "2D", "4D", "5D"],
        [D(1, "hit"), D(1, "hit"), D(1, "hit")],
    )
    # five cards (16) beat the dealer's 19
    assert paid(st) == {("b1", 1, 0, "five_card_trick"): 3000}


def test_s5_ranking_21_loses_to_five_card_trick_and_ties_to_dealer():
    # dealer 5 cards (2 3 2 4 5 = 16, hits to five cards) beats a three-card 21
    _, st = run(
        P,
        bets((1, 1000)),
        ["7S", "2H", "7C", "3D", "7D", "2C", "4C", "5C"],
        [D(1, "hit")],
    )
    assert paid(st) == {("b1", 1, 0, "lose"): 0}
    # both five-card tricks: equal rank, the dealer wins
    _, st = run(
        P,
        bets((1, 1000)),
        ["2S", "2H", "3S", "3H", "2D", "2C", "2D", "2C", "4C", "5C"],
        [D(1, "hit"), D(1, "hit"), D(1, "hit")],
    )
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s5_five_card_tricks_rank_equal_player_20_loses_to_dealer_five_cards_12():
    """§5 "All Five Card Tricks rank equal, whatever their totals. Equal rank ... → the dealer
    wins": a player Five Card Trick of 20 loses to a dealer five-card hand of 12."""
    # box 2S, dealer 2H, box 3S, dealer 2D; box hits 4S 5S 6S (2+3+4+5+6 = 20, five cards);
    # dealer 2 2 draws 2C 3C 3D: 2+2+2+3+3 = 12 with five cards (stops at five cards)
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "2H", "3S", "2D", "4S", "5S", "6S", "2C", "3C", "3D"],
        [D(1, "hit"), D(1, "hit"), D(1, "hit")],
    )
    assert s.value(s.hand(1, 0)).total == 20 and len(s.hand(1, 0).cards) == 5
    assert s.dealer_value().total == 12 and len(s.dealer) == 5
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s5_player_five_card_trick_beats_dealer_three_card_21_at_2_to_1():
    """§5 ranking "Five Card Trick (any five cards ≤ 21) > 21 with three or four cards";
    "Pontoon and Five Card Trick pay 2:1"."""
    # box 2S, dealer 9H, box 3S, dealer 5H; box hits to 2 3 4 5 6 = 20; dealer 9 5 + 7 = 21
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3S", "5H", "4S", "5S", "6S", "7C"],
        [D(1, "hit"), D(1, "hit"), D(1, "hit")],
    )
    assert s.dealer_value().total == 21 and len(s.dealer) == 3
    assert paid(st) == {("b1", 1, 0, "five_card_trick"): 3000}
    line = st.lines[0]
    assert (line.odds_kind, line.odds) == ("five_card_trick", (2, 1))


def test_s5_dealer_hits_soft_17_stops_at_five_cards():
    s, _ = run(P, bets((1, 1000)), ["KS", "AH", "9C", "6H", "KD"], [D(1, "stand")])
    assert [c.code for c in s.dealer] == ["AH", "6H", "KD"]


def test_s5_stand_only_on_15_or_more():
    s = dealt(P, bets((1, 1000)), ["KS", "9H", "4C", "9D"])
    assert "stand" not in s.legal_actions()
    with pytest.raises(IllegalAction, match="legal"):
        apply(s, D(1, "stand"))
    s = dealt(P, bets((1, 1000)), ["KS", "9H", "5C", "9D"])
    assert "stand" in s.legal_actions()


def test_s5_double_on_two_three_or_four_cards_once_then_keep_drawing():
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C", "9D"])
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("2D"))
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("2H"))
    assert "double" in s.legal_actions()  # four cards
    s = apply(s, D(1, "double"))
    s = apply(s, CardDealt("5D"))  # five cards: stops (five card trick); dealer 18 stands
    assert s.hand(1, 0).status == "stood" and s.phase == "complete"
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C", "9D"])
    s = apply(s, D(1, "double"))
    s = apply(s, CardDealt("2D"))
    assert s.legal_actions() == ["hit"]  # may keep drawing; one double only


def test_s5_split_q_k_up_to_three_hands_aces_included_split_pontoon():
    s, st = run(
        P,
        bets((1, 1000)),
        ["AS", "9H", "AC", "9D", "AD", "KD", "9S", "QS"],
        [D(1, "split"), D(1, "split"), D(1, "stand", 1)],
    )
    assert len(s.boxes[1].hands) == 3
    # split aces are played like any hand; A + picture on a split hand is a Pontoon
    assert paid(st) == {
        ("b1", 1, 0, "pontoon"): 3000,
        ("b1", 1, 1, "win"): 2000,
        ("b1", 1, 2, "pontoon"): 3000,
    }
    s = dealt(P, bets((1, 1000)), ["QS", "9H", "KC", "9D"])
    assert "split" in s.legal_actions()
