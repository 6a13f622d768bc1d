"""§6 online_2deck: scenario tests."""

import pytest

from tables.engine import (
    BetPlaced,
    BettingClosed,
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

from .helpers import D, bets, paid, run

P = "online_2deck"


def _state(bet_events, cards):
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bet_events, BettingClosed(), *map(CardDealt, cards)]:
        s = apply(s, e)
    return s


def test_s6_one_bet_per_box_no_bets_behind():
    r, p = get_preset(P)
    s = apply(new_round(r, p), BetPlaced("a", 1, 100, "me"))
    with pytest.raises(IllegalAction, match="no bets behind"):
        apply(s, BetPlaced("b", 1, 100, "you", True))


def test_s6_no_peek_dealer_pontoon_after_play_takes_doubles():
    s = _state(bets((1, 1000)), ["5S", "AH", "6C", "KD"])
    assert s.phase == "playing"  # no peek
    _, st = run(P, bets((1, 1000)), ["5S", "AH", "6C", "KD", "9C"], [D(1, "double"), D(1, "stand")])
    line = st.lines[0]
    assert (line.result, line.stake, line.paid) == ("lose", 2000, 0)


def test_s6_standing_uses_the_hard_total():
    s = _state(bets((1, 1000)), ["AS", "9H", "6C", "9D"])  # soft 17, hard 7
    assert "stand" not in s.legal_actions()
    s = _state(bets((1, 1000)), ["KS", "9H", "5C", "9D"])
    assert "stand" in s.legal_actions()


def test_s6_soft_21_stands_automatically():
    s = _state(bets((1, 1000)), ["AS", "9H", "6C", "9D"])
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
    s = _state(bets((1, 1000)), ["2S", "9H", "3C", "8D"])
    s = apply(s, D(1, "double"))
    assert s.next_card_target() == CardTarget(TargetKind.BOX, 1, 0) and not s.next_card_forced()
    s = apply(s, CardDealt("2D"))  # hard 7: draws on without asking
    assert s.turn() is None and s.next_card_forced()
    s = apply(s, CardDealt("9D"))  # hard 16: the player decides again
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and not s.next_card_forced()
    assert s.hand(1, 0).forced_cards == (3,)


def test_s6_split_identical_rank_only():
    s = _state(bets((1, 1000)), ["JS", "9H", "QC", "9D"])
    assert "split" not in s.legal_actions()
    s = _state(bets((1, 1000)), ["QS", "9H", "QC", "9D"])
    assert "split" in s.legal_actions()


def test_s6_split_aces_draw_double_and_make_pontoon_split_tens_do_not():
    s = _state(bets((1, 1000)), ["AS", "9H", "AC", "9D"])
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
