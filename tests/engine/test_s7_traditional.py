"""§7 traditional (banker's Pontoon): scenario tests."""

import random

import pytest

from tables.engine import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    CardTarget,
    DealerDecision,
    IllegalAction,
    StakePlaced,
    TargetKind,
    TimeoutDefault,
    Turn,
    TurnKind,
    Withdrawn,
    apply,
    deck,
    get_preset,
    new_round,
    settle,
    shuffle_shoe,
    stacked_shoe,
)

from .helpers import D, Partial, paid, play

P = "traditional"


def join(*boxes):
    return [BetPlaced(f"b{b}", b, 0, f"p{b}") for b in boxes]


def _state(events, cards):
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*events, *cards]:
        s = apply(s, CardDealt(e) if isinstance(e, str) else e)
    return s


def test_s7_join_with_zero_stake_then_stake_after_first_card():
    r, p = get_preset(P)
    s = new_round(r, p)
    with pytest.raises(IllegalAction, match="stake 0"):
        apply(s, BetPlaced("b1", 1, 500, "p1"))
    s = _state([*join(1, 2), BettingClosed()], ["5S", "6S", "7S"])
    assert s.phase == "staking" and s.turn() == Turn(TurnKind.STAKING, bets=("b1", "b2"))
    assert len(s.dealer) == 1
    s = apply(s, StakePlaced("b1", 500))
    s = apply(s, Withdrawn("b2"))
    targets = []
    for c in ["8S", "9S"]:
        targets.append(s.next_card_target())
        s = apply(s, CardDealt(c))
    assert targets == [CardTarget(TargetKind.BOX, 1, 0), CardTarget(TargetKind.DEALER)]
    assert s.phase == "playing"


def test_s7_box_that_does_not_stake_withdraws_on_timeout():
    s = _state([*join(1, 2), BettingClosed()], ["5S", "6S", "7S"])
    s = apply(s, StakePlaced("b2", 300))
    s = apply(s, TimeoutDefault())
    assert s.bets["b1"].withdrawn and s.hand(1, 0).status == "withdrawn"
    assert s.next_card_target() == CardTarget(TargetKind.BOX, 2, 0)


def test_s7_stand_only_16_to_21_buy_and_twist():
    s = _state([*join(1), BettingClosed()], ["9S", "7H", StakePlaced("b1", 500), "5C", "9D"])
    assert s.legal_actions() == ["buy", "twist"]  # 14: may not stand
    assert s.amount_range("buy") == (1, 500)
    s = apply(s, D(1, "buy", amount=300))
    s = apply(s, CardDealt("2C"))
    assert s.legal_actions() == ["buy", "stand", "twist"]
    s = apply(s, D(1, "twist"))
    s = apply(s, CardDealt("AC"))
    assert s.legal_actions() == ["stand", "twist"]  # no buying after a twist
    assert s.hand(1, 0).stakes["b1"][:2] == [500, 300]


def test_s7_forced_fifth_card_on_four_cards_hard_11_or_less():
    s = _state([*join(1), BettingClosed()], ["2S", "7H", StakePlaced("b1", 500), "3C", "9D"])
    s = apply(s, D(1, "twist"))
    s = apply(s, CardDealt("AC"))
    s = apply(s, D(1, "twist"))
    assert not s.next_card_forced()  # a twist the box chose
    s = apply(s, CardDealt("4C"))  # 2 3 A 4: hard 10, soft 20 → must twist
    assert s.turn() is None and s.next_card_target() == CardTarget(TargetKind.BOX, 1, 0)
    assert s.next_card_forced() and s.hand(1, 0).forced_cards == (4,)
    s = apply(s, CardDealt("KC"))
    assert s.hand(1, 0).status == "stood"  # five cards
    assert not s.next_card_forced() and s.hand(1, 0).forced_cards == (4,)


def test_s7_forced_fifth_card_scenario_settles_and_replays():
    state, events = play(
        P,
        join(1),
        ["2S", "7H", "3C", "9D", "AC", "4C", "KC"],
        [StakePlaced("b1", 500), D(1, "twist"), D(1, "twist"), DealerDecision("stand")],
    )
    # no decision between the fourth card and the fifth: the rules dealt it
    assert [type(e).__name__ for e in events[-4:]] == [
        "Decision",
        "CardDealt",
        "CardDealt",
        "DealerDecision",
    ]
    h = state.hand(1, 0)
    assert [c.code for c in h.cards] == ["2S", "3C", "AC", "4C", "KC"]
    assert h.forced_cards == (4,) and h.twisted
    # five cards (20) against the banker's 16: wins 1:1
    assert paid(settle(state)) == {("b1", 1, 0, "five_card_trick"): 1000}


def test_s7_forced_fifth_card_at_hard_11_even_on_a_soft_21():
    # A 2 3 5: four cards, hard 11 (the limit, inclusive) and soft 21; the fifth card is dealt
    # without asking the box, although a soft 21 of fewer cards could stand (§7)
    state, events = play(
        P,
        join(1),
        ["AS", "7H", "2C", "KD", "3C", "5D", "KC"],
        [StakePlaced("b1", 500), D(1, "twist"), D(1, "twist"), DealerDecision("stand")],
    )
    cards = [type(e).__name__ for e in events]
    assert cards[-4:] == ["Decision", "CardDealt", "CardDealt", "DealerDecision"]
    h = state.hand(1, 0)
    assert [c.code for c in h.cards] == ["AS", "2C", "3C", "5D", "KC"]
    assert h.forced_cards == (4,) and h.status == "stood"
    # the same hand after its fourth card: no turn, the next card is forced
    g = Partial(P, join(1), "AS", "7H", StakePlaced("b1", 500), "2C", "KD")
    s = g.feed(D(1, "twist"), "3C", D(1, "twist"), "5D")
    assert s.value(s.hand(1, 0)).total == 21 and s.value(s.hand(1, 0)).hard == 11
    assert s.turn() is None and s.legal_actions() == []
    assert s.next_card_target() == CardTarget(TargetKind.BOX, 1, 0) and s.next_card_forced()
    # five cards (hard 21) against the banker's 17: wins 1:1
    assert paid(settle(state)) == {("b1", 1, 0, "five_card_trick"): 1000}


def test_s7_four_cards_over_hard_11_are_not_forced():
    s = _state([*join(1), BettingClosed()], ["2S", "7H", StakePlaced("b1", 500), "3C", "9D"])
    for card in ("4C", "3D"):
        s = apply(s, D(1, "twist"))
        s = apply(s, CardDealt(card))
    # 2 3 4 3: hard 12, stand needs 16: the box decides (twist), nothing is forced
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and s.legal_actions() == ["twist"]
    assert s.hand(1, 0).forced_cards == ()


def test_s7_split_two_aces_each_a_first_card_pontoon_counts():
    s = _state([*join(1), BettingClosed()], ["AS", "7H", StakePlaced("b1", 500), "AC", "9D"])
    assert "split" in s.legal_actions() and s.amount_range("split") == (500, 500)
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("KC"))  # first ace: Pontoon
    s = apply(s, CardDealt("6C"))  # second ace: A 6
    assert s.turn() == Turn(TurnKind.HAND, 1, 1) and "split" not in s.legal_actions()
    s = apply(s, D(1, "stand", 1))
    s = apply(s, DealerDecision("stand"))  # banker 16 stands
    assert paid(settle(s)) == {("b1", 1, 0, "pontoon"): 1000, ("b1", 1, 1, "win"): 1000}


def test_s7_only_aces_split():
    s = _state([*join(1), BettingClosed()], ["8S", "7H", StakePlaced("b1", 500), "8C", "9D"])
    assert "split" not in s.legal_actions()


def test_s7_split_aces_not_resplit_when_the_first_ace_gets_an_ace():
    """§7 "A box dealt two aces may split them once ... Only aces may be split, and not
    re-split": the first split ace receives another ace; "split" is not legal."""
    s = _state(
        [*join(1), BettingClosed()],
        ["AS", "7H", StakePlaced("b1", 500), "AC", "9D"],
    )
    assert "split" in s.legal_actions()
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("AD"))  # the first ace's second card: another ace (A A)
    assert s.turn() == Turn(TurnKind.HAND, 1, 0)
    assert [c.code for c in s.hand(1, 0).cards] == ["AS", "AD"]
    assert "split" not in s.legal_actions()
    with pytest.raises(IllegalAction):
        apply(s, D(1, "split"))
    assert len(s.boxes[1].hands) == 2


def test_s7_banker_pontoon_beats_every_box_pontoons_included():
    s = _state(
        [*join(1, 2), BettingClosed()],
        ["AS", "9C", "AH", StakePlaced("b1", 500), StakePlaced("b2", 500), "KS", "9D", "KH"],
    )
    s = apply(s, D(2, "stand"))
    assert s.phase == "complete"
    assert paid(settle(s)) == {("b1", 1, 0, "lose"): 0, ("b2", 2, 0, "lose"): 0}


def test_s7_banker_decides_house_policy_on_timeout_and_ties_to_banker():
    s = _state([*join(1), BettingClosed()], ["KS", "6H", StakePlaced("b1", 500), "7C", "KD"])
    s = apply(s, D(1, "stand"))  # 17
    assert s.turn() == Turn(TurnKind.DEALER) and s.legal_actions() == ["hit", "stand"]
    s = apply(s, TimeoutDefault())  # banker 16 → house policy draws
    assert s.next_card_target() == CardTarget(TargetKind.DEALER)
    s = apply(s, CardDealt("AC"))  # 17
    s = apply(s, TimeoutDefault())  # stands on any 17
    assert s.phase == "complete" and paid(settle(s)) == {("b1", 1, 0, "lose"): 0}


def test_s7_banker_five_cards_beats_all_but_pontoon_and_bust_pays_all():
    s = _state(
        [*join(1, 2), BettingClosed()],
        ["AS", "KC", "2H", StakePlaced("b1", 500), StakePlaced("b2", 500), "KS", "9D", "2D"],
    )
    s = apply(s, D(2, "stand"))
    for c in ["2S", "3S", "4S"]:
        s = apply(s, DealerDecision("hit"))
        s = apply(s, CardDealt(c))
    # banker 2 2 2 3 4: five cards; box1 Pontoon still wins, box2 20 loses; all wins pay 1:1
    assert paid(settle(s)) == {("b1", 1, 0, "pontoon"): 1000, ("b2", 2, 0, "lose"): 0}
    s = _state([*join(1), BettingClosed()], ["KS", "KH", StakePlaced("b1", 500), "7C", "6D"])
    s = apply(s, D(1, "stand"))
    s = apply(s, DealerDecision("hit"))
    s = apply(s, CardDealt("QC"))
    assert paid(settle(s)) == {("b1", 1, 0, "win"): 1000}


def test_s7_banker_may_draw_on_a_soft_21_of_fewer_than_five_cards_stops_on_hard_21():
    """§8 "Stops. A hand stops when it ... reaches a hard 21 ...; a soft 21 stops in crown and
    online_2deck and may still draw elsewhere"; §7 the banker "stands or draws at will, up to
    five cards": banker A 5 + 5 (soft 21, three cards) is still asked; + T (hard 21) stops."""
    s = _state(
        [*join(1), BettingClosed()],
        ["KS", "AH", StakePlaced("b1", 500), "7C", "5D", D(1, "stand")],
    )
    assert s.dealer_mode == "decision" and s.turn() == Turn(TurnKind.DEALER)  # A 5: soft 16
    s = apply(s, DealerDecision("hit"))
    s = apply(s, CardDealt("5C"))  # A 5 5: soft 21, three cards
    assert s.dealer_value().total == 21 and s.dealer_value().soft
    assert s.dealer_mode == "decision" and s.turn() == Turn(TurnKind.DEALER)
    assert s.legal_actions() == ["hit", "stand"]
    s = apply(s, DealerDecision("hit"))
    s = apply(s, CardDealt("TD"))  # A 5 5 T: hard 21, four cards
    assert s.dealer_value().total == 21 and not s.dealer_value().soft
    assert s.dealer_mode == "done" and s.phase == "complete" and s.turn() is None
    assert paid(settle(s)) == {("b1", 1, 0, "lose"): 0}  # box 17 against the banker's 21


def test_s7_banker_hard_21_of_three_cards_stops():
    """§8 "A hand stops when it ... reaches a hard 21": banker K 5 + 6 is not asked again."""
    s = _state(
        [*join(1), BettingClosed()],
        ["KS", "KH", StakePlaced("b1", 500), "8C", "5D", D(1, "stand")],
    )
    assert s.dealer_mode == "decision"  # K 5: 15
    s = apply(s, DealerDecision("hit"))
    s = apply(s, CardDealt("6C"))
    assert s.dealer_mode == "done" and s.phase == "complete" and s.turn() is None
    assert paid(settle(s)) == {("b1", 1, 0, "lose"): 0}


def test_s7_discards_reshuffled_when_the_deck_runs_out():
    r, _ = get_preset(P)
    shoe = shuffle_shoe(rule_set=r, rng=random.Random(1))
    for _ in range(52):
        shoe.deal()
    live = shoe.order[:5]
    rec = shoe.reshuffle_discards(live, random.Random(2))
    assert rec.cards == 47 and len(shoe.shuffles) == 2
    dealt = [shoe.deal() for _ in range(47)]
    assert not set(dealt) & set(live)


def test_s7_withdrawn_box_card_goes_to_the_discards():
    """§7 "a box that does not stake within the window withdraws, its card goes to the
    discards" and "the discards (cards in no live hand) are shuffled" when the cards run out."""
    r, _ = get_preset(P)
    order = ["5S", "6S", "7S", "8S", "9S"]
    shoe = stacked_shoe(order + [c for c in deck("standard") if c.code not in order], rule_set=r)
    g = Partial(P, join(1, 2))
    s = g.feed(*(shoe.deal().code for _ in range(3)))  # box1 5S, box2 6S, banker 7S
    s = g.feed(StakePlaced("b1", 500), Withdrawn("b2"))
    s = g.feed(*(shoe.deal().code for _ in range(2)))  # box1 8S, banker 9S
    assert s.phase == "playing" and s.hand(2, 0).status == "withdrawn"
    live = sorted(c.code for c in s.live_cards())
    assert live == ["5S", "7S", "8S", "9S"]  # 6S is in no live hand
    rec = shoe.reshuffle_discards(s.live_cards())
    assert rec.cards == 1 and shoe.order[-1].code == "6S"  # the discards: the withdrawn card
