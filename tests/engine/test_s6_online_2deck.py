"""§6 online_2deck: scenario tests."""

import pytest

from tables.engine import (
    BetPlaced,
    CardDealt,
    CardTarget,
    IllegalAction,
    TargetKind,
    Turn,
    TurnKind,
    apply,
    get_preset,
    new_round,
)

from .helpers import D, bets, dealt, paid, run

P = "online_2deck"


def test_s6_one_bet_per_box_no_bets_behind():
    r, p = get_preset(P)
    s = apply(new_round(r, p), BetPlaced("a", 1, 100, "me"))
    with pytest.raises(IllegalAction, match="no bets behind"):
        apply(s, BetPlaced("b", 1, 100, "you", True))


def test_s6_no_peek_dealer_pontoon_after_play_takes_doubles():
    s = dealt(P, bets((1, 1000)), ["5S", "AH", "6C", "KD"])
    assert s.phase == "playing"  # no peek
    _, st = run(P, bets((1, 1000)), ["5S", "AH", "6C", "KD", "9C"], [D(1, "double"), D(1, "stand")])
    line = st.lines[0]
    assert (line.result, line.stake, line.paid) == ("lose", 2000, 0)


def test_s6_player_pontoon_loses_to_dealer_pontoon_revealed_after_play():
    """§6 "no peek, the dealer's hand is revealed after the boxes have played"; "Ranking as in
    §5 for both sides; ties to the dealer": Pontoon against Pontoon loses."""
    s = dealt(P, bets((1, 1000)), ["AS", "AH", "KS", "QH"])
    assert not s.peeked_pontoon  # no peek
    s, st = run(P, bets((1, 1000)), ["AS", "AH", "KS", "QH"], [])
    assert s.is_pontoon(s.hand(1, 0)) and s.dealer_pontoon()
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s6_equal_totals_go_to_the_dealer():
    """§6 "ties to the dealer" (§5 "equal total → the dealer wins"): 19 against 19 loses."""
    _, st = run(P, bets((1, 1000)), ["KS", "TH", "9S", "9H"], [D(1, "stand")])
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s6_dealer_hits_soft_17():
    """§6 "Dealer hits soft 17": box 18 stands; the dealer's A-6 draws (a 2: soft 19, stands)."""
    s, st = run(P, bets((1, 1000)), ["KS", "AH", "8S", "6D", "2C"], [D(1, "stand")])
    assert [c.code for c in s.dealer] == ["AH", "6D", "2C"]
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s6_standing_uses_the_hard_total():
    s = dealt(P, bets((1, 1000)), ["AS", "9H", "6C", "9D"])  # soft 17, hard 7
    assert "stand" not in s.legal_actions()
    s = dealt(P, bets((1, 1000)), ["KS", "9H", "5C", "9D"])
    assert "stand" in s.legal_actions()


def test_s6_soft_21_stands_automatically():
    s = dealt(P, bets((1, 1000)), ["AS", "9H", "6C", "9D"])
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("4D"))  # A 6 4: soft 21 with three cards
    assert s.hand(1, 0).status == "stood"


def test_s6_double_once_then_auto_draw_until_hard_over_14():
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "8D", "2D", "3D", "4H"],
        [D(1, "double")],
    )
    # 2 3 + 2 (double) = 7 → 3 → 10 → 4 → 14 → draws on: five cards (stops)
    hand = s.hand(1, 0)
    assert [c.code for c in hand.cards] == ["2S", "3C", "2D", "3D", "4H"]
    assert hand.forced_cards == (3, 4)  # the double card came from the decision, not forced
    assert paid(st)[("b1", 1, 0, "five_card_trick")] == 6000


def test_s6_doubled_hand_auto_draw_is_a_forced_card():
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C", "8D"])
    s = apply(s, D(1, "double"))
    assert s.next_card_target() == CardTarget(TargetKind.BOX, 1, 0) and not s.next_card_forced()
    s = apply(s, CardDealt("2D"))  # hard 7: draws on without asking
    assert s.turn() is None and s.next_card_forced()
    s = apply(s, CardDealt("9D"))  # hard 16: the player decides again
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and not s.next_card_forced()
    assert s.hand(1, 0).forced_cards == (3,)


def test_s6_split_identical_rank_only():
    s = dealt(P, bets((1, 1000)), ["JS", "9H", "QC", "9D"])
    assert "split" not in s.legal_actions()
    s = dealt(P, bets((1, 1000)), ["QS", "9H", "QC", "9D"])
    assert "split" in s.legal_actions()


def test_s6_split_aces_draw_double_and_make_pontoon_split_tens_do_not():
    s = dealt(P, bets((1, 1000)), ["AS", "9H", "AC", "9D"])
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("5D"))
    assert "double" in s.legal_actions() and "hit" in s.legal_actions()
    _, st = run(P, bets((1, 1000)), ["AS", "9H", "AC", "9D", "KD", "QD"], [D(1, "split")])
    assert paid(st) == {("b1", 1, 0, "pontoon"): 3000, ("b1", 1, 1, "pontoon"): 3000}
    _, st = run(
        P, bets((1, 1000)), ["KS", "9H", "KC", "9D", "AD", "9C"], [D(1, "split"), D(1, "stand", 1)]
    )
    assert paid(st) == {("b1", 1, 0, "win"): 2000, ("b1", 1, 1, "win"): 2000}


def test_s6_player_pontoon_beats_dealer_five_cards_other_hands_lose_to_it():
    _, st = run(
        P,
        bets((1, 1000), (2, 1000)),
        ["AS", "KS", "2H", "KC", "9C", "2D", "2C", "3C", "4C"],
        [D(2, "stand")],
    )
    # dealer 2 2 2 3 4 = five cards: box1 Pontoon wins, box2 19 loses
    assert paid(st) == {("b1", 1, 0, "pontoon"): 3000, ("b2", 2, 0, "lose"): 0}


def test_s6_lone_five_card_trick_still_needs_the_dealers_hand():
    """§6 "Dealer hits soft 17 ..., drawing whenever any hand still stands (a player Five Card
    Trick still needs the dealer's hand)": against dealer 9-5 the dealer draws; the Five Card
    Trick then beats the dealer's 17 at 2:1."""
    # box 2S, dealer 9H, box 3S, dealer 5H; box hits 2H 3H 4S (2+3+2+3+4 = 14, five cards,
    # hard total under 15 so hitting is the only way on); the dealer 14 draws 3C: 17, stands
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3S", "5H", "2H", "3H", "4S", "3C"],
        [D(1, "hit"), D(1, "hit"), D(1, "hit")],
    )
    assert len(s.hand(1, 0).cards) == 5
    assert [c.code for c in s.dealer] == ["9H", "5H", "3C"]
    assert paid(st) == {("b1", 1, 0, "five_card_trick"): 3000}
