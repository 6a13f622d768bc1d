"""§3 crown: scenario tests (stacked cards + decisions → exact payouts)."""

from fractions import Fraction

import pytest

from tables.engine import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    CardTarget,
    IllegalAction,
    ImpossibleCard,
    MatchDeclined,
    MatchMade,
    RuleConflict,
    RuleSet,
    TargetKind,
    Turn,
    TurnKind,
    apply,
    get_preset,
    new_round,
    settle,
    shuffle_shoe,
)

from .helpers import D, bets, dealt, paid, play, run

P = "crown"


def test_s3_1_deal_order_one_dealer_card_box_order():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((3, 1000), (1, 1000)), BettingClosed()]:
        s = apply(s, e)
    targets = []
    for code in ["2S", "3S", "4S", "5S", "6S"]:
        targets.append(s.next_card_target())
        s = apply(s, CardDealt(code))
    assert targets == [
        CardTarget(TargetKind.BOX, 1, 0),
        CardTarget(TargetKind.BOX, 3, 0),
        CardTarget(TargetKind.DEALER),
        CardTarget(TargetKind.BOX, 1, 0),
        CardTarget(TargetKind.BOX, 3, 0),
    ]
    assert len(s.dealer) == 1 and s.phase == "playing" and s.turn() == Turn(TurnKind.HAND, 1, 0)


def test_s3_1_spanish_shoe_refuses_a_ten():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed()]:
        s = apply(s, e)
    with pytest.raises(ImpossibleCard, match="no tens"):
        apply(s, CardDealt("10H"))


@pytest.mark.parametrize("decks", [4, 5, 6, 7, 8])
def test_s3_1_operators_may_set_4_to_8_decks(decks):
    r, _ = get_preset(P)
    assert r.replace(decks=decks).check_operator_bounds().decks == decks


@pytest.mark.parametrize("changes", [{"decks": 3}, {"decks": 9}, {"deck_kind": "standard"}])
def test_s3_1_crown_outside_4_to_8_spanish_decks_is_refused(changes):
    r, _ = get_preset(P)
    stored = RuleSet.from_json({**r.to_json(), **changes})  # a version stored before: read
    with pytest.raises(RuleConflict, match="4 to 8 spanish decks"):
        stored.check_operator_bounds()
    assert r.replace(name="house-special", **changes).check_operator_bounds() is not None


@pytest.mark.parametrize("policy", ["cut_card", "continuous_shuffler"])
def test_s3_1_a_shoe_with_a_cut_card_or_a_continuous_shuffler(policy):
    """A continuous shuffler takes each round's cards back: every round is dealt from the
    whole shoe, with no cut card to reach."""
    r, _ = get_preset(P)
    rules = r.replace(shoe_policy=policy)
    shoe = shuffle_shoe(rule_set=rules)
    assert rules.whole_shoe_each_round is (policy == "continuous_shuffler")
    whole = 8 * 48
    assert shoe.cut_index == (whole if policy == "continuous_shuffler" else whole * 75 // 100)


def test_s3_1_three_bets_per_box_max():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [
        BetPlaced("a", 1, 1000, "p1"),
        BetPlaced("b", 1, 1000, "p2", True),
        BetPlaced("c", 1, 1000, "p3", True),
    ]:
        s = apply(s, e)
    with pytest.raises(IllegalAction, match="already holds 3 bets"):
        apply(s, BetPlaced("d", 1, 1000, "p4", True))


def test_s3_2_hand_reaching_21_stops_soft_21_included():
    # box 1: A 5 then 5 → soft 21: stops without being asked; a 21 needs no dealer card
    s, st = run(P, bets((1, 1000)), ["AS", "9H", "5C", "5D"], [D(1, "hit")])
    assert s.hand(1, 0).status == "stood" and len(s.dealer) == 1
    assert paid(st) == {("b1", 1, 0, "win"): 2000}


def test_s3_2_double_ace_counts_one():
    # A 5 doubled, draws 5: the first-two-card ace counts 1 → 11, not 21
    s, st = run(
        P,
        bets((1, 1000)),
        ["AS", "9H", "5C", "5D", "KD"],
        [D(1, "double"), D(1, "stand")],
    )
    assert s.value(s.hand(1, 0)).total == 11
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s3_2_double_card_ace_may_count_eleven():
    # 5 5 doubled, the double card is an ace: counts 11 → 21, wins 1:1 on the whole stake
    _, st = run(P, bets((1, 1000)), ["5S", "9H", "5C", "AD"], [D(1, "double")])
    line = st.lines[0]
    assert (line.result, line.odds, line.stake, line.paid) == ("win", (1, 1), 2000, 4000)


def test_s3_2_partial_double_then_stands_one_card():
    s, st = run(
        P,
        bets((1, 1000)),
        ["6S", "9H", "4C", "KC", "9D"],
        [D(1, "double", amount=400), D(1, "stand")],
    )
    assert len(s.hand(1, 0).cards) == 3
    assert paid(st) == {("b1", 1, 0, "win"): 2800}


def test_s3_2_double_amount_above_original_refused():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["6S", "9H", "4C"])]:
        s = apply(s, e)
    assert s.amount_range("double") == (1, 1000)
    with pytest.raises(IllegalAction, match="between 1 and 1000"):
        apply(s, D(1, "double", amount=1001))


def test_s3_2_double_on_three_cards():
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "4D", "KC", "9D"],
        [D(1, "hit"), D(1, "double"), D(1, "stand")],
    )
    assert [c.code for c in s.hand(1, 0).cards] == ["2S", "3C", "4D", "KC"]
    assert paid(st) == {("b1", 1, 0, "win"): 4000}


def test_s3_2_one_double_per_hand_and_rescue_offered():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["2S", "9H", "3C"])]:
        s = apply(s, e)
    s = apply(s, D(1, "double"))
    s = apply(s, CardDealt("4D"))
    assert s.legal_actions() == ["rescue", "stand"]


def test_s3_2_stand_at_any_total():
    """§3.2 "Hit / stand at any total up to 21": a box on 2-3 (5) may stand, and stands."""
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C"])
    assert "stand" in s.legal_actions()
    s = apply(s, D(1, "stand"))
    assert s.hand(1, 0).status == "stood" and s.phase == "dealer"


def test_s3_2_one_double_per_hand_each_split_hand_its_own():
    """§3.2 "Double: ... on the first two cards of a split hand (not split aces) ... One double
    per hand": a split hand that has doubled is refused a second double; the next split hand
    may still double once."""
    s = dealt(P, bets((1, 1000)), ["8S", "9H", "8C", D(1, "split"), "3D"])
    s = apply(s, D(1, "double", amount=500))
    s = apply(s, CardDealt("2D"))  # 8 3 2 = 13: not bust, the rescue is offered
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and "double" not in s.legal_actions()
    with pytest.raises(IllegalAction):
        apply(s, D(1, "double", amount=500))
    s = apply(s, D(1, "stand"))
    s = apply(s, CardDealt("2C"))  # second split hand: 8 2
    assert s.turn() == Turn(TurnKind.HAND, 1, 1) and "double" in s.legal_actions()
    assert s.hand(1, 0).doubles == 1 and s.hand(1, 1).doubles == 0


def test_s3_2_rescue_returns_double_loses_original():
    s, st = run(
        P,
        bets((1, 1000)),
        ["QS", "9H", "2C", "4D"],
        [D(1, "double", amount=600), D(1, "rescue")],
    )
    assert paid(st) == {("b1", 1, 0, "rescue"): 600}
    assert len(s.dealer) == 1  # nobody needed the dealer


def test_s3_2_doubled_bust_is_lost_no_rescue():
    s, st = run(P, bets((1, 1000)), ["QS", "9H", "6C", "KD"], [D(1, "double")])
    assert s.hand(1, 0).status == "bust"
    assert paid(st) == {("b1", 1, 0, "bust"): 0}


def test_s3_2_surrender_half_returned():
    _, st = run(P, bets((1, 1001)), ["QS", "KH", "6C", "9D"], [D(1, "surrender")])
    line = st.lines[0]
    assert (line.result, line.paid, line.remainder) == ("surrender", 500, Fraction(1, 2))


def test_s3_2_surrender_void_on_dealer_pontoon():
    _, st = run(P, bets((1, 1000)), ["QS", "AH", "6C", "KD"], [D(1, "surrender")])
    assert paid(st) == {("b1", 1, 0, "surrender_void"): 0}


def test_s3_2_surrender_only_against_ace_or_picture():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["QS", "9H", "6C"])]:
        s = apply(s, e)
    assert "surrender" not in s.legal_actions()
    with pytest.raises(IllegalAction):
        apply(s, D(1, "surrender"))


@pytest.mark.parametrize("dealer_card", ["QH", "JH"])
def test_s3_2_crown_surrender_offered_against_dealer_queen_and_jack(dealer_card):
    """§3.2 "Surrender: only on the box's initial two cards, before any other action, and only
    when the dealer's first card is A, K, Q or J": offered against a Q and against a J."""
    s = dealt(P, bets((1, 1000)), ["9S", dealer_card, "7C"])
    assert s.turn() == Turn(TurnKind.HAND, 1, 0)
    assert "surrender" in s.legal_actions()
    # and it is taken: half the original stake back when the dealer makes no Pontoon
    s = apply(s, D(1, "surrender"))
    s = apply(s, CardDealt("5D"))  # the dealer's Pontoon check card: Q/J + 5, no Pontoon
    assert s.phase == "complete"
    assert paid(settle(s)) == {("b1", 1, 0, "surrender"): 500}


def test_s3_2_crown_surrender_refused_after_a_hit():
    """§3.2 surrender "only on the box's initial two cards, before any other action": after a
    hit (even one that leaves a two-card-sized total standing) it is no longer offered."""
    s = dealt(P, bets((1, 1000)), ["2S", "KH", "3C"])
    assert "surrender" in s.legal_actions()  # offered on the initial two cards against a K
    s = apply(s, D(1, "hit"))
    s = apply(s, CardDealt("4D"))  # 2 3 4 = 9: still playing, now three cards
    assert s.turn() == Turn(TurnKind.HAND, 1, 0)
    assert "surrender" not in s.legal_actions()
    with pytest.raises(IllegalAction):
        apply(s, D(1, "surrender"))


def test_s3_2_crown_surrender_refused_after_a_split():
    """§3.2 surrender "only on the box's initial two cards, before any other action": a split
    hand's two cards are not the box's initial two cards (dealer Q, so the rank allows it)."""
    s = dealt(P, bets((1, 1000)), ["8S", "QH", "8C"])
    assert "surrender" in s.legal_actions()
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("3D"))  # first split hand: 8 3, two cards
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and len(s.hand(1, 0).cards) == 2
    assert "surrender" not in s.legal_actions()
    with pytest.raises(IllegalAction):
        apply(s, D(1, "surrender"))


def test_s3_2_split_equal_value_jq_resplit_to_three_hands():
    s, st = run(
        P,
        bets((1, 1000)),
        # box J Q, dealer 9; split; hand0 J+K → resplit (3 hands); hands get 8, 7, 9
        ["JS", "9H", "QC", "KD", "8S", "7S", "9S", "9C"],
        [D(1, "split"), D(1, "split"), D(1, "stand"), D(1, "stand", 1), D(1, "stand", 2)],
    )
    assert [[c.code for c in h.cards] for h in s.boxes[1].hands] == [
        ["JS", "8S"],
        ["KD", "7S"],
        ["QC", "9S"],
    ]
    assert paid(st) == {
        ("b1", 1, 0, "push"): 1000,
        ("b1", 1, 1, "lose"): 0,
        ("b1", 1, 2, "win"): 2000,
    }


def test_s3_2_no_fourth_split_hand():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["8S", "9H", "8C"])]:
        s = apply(s, e)
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("8D"))
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("8H"))
    assert "split" not in s.legal_actions()


def test_s3_2_split_aces_one_card_each_and_plain_21_pays_even():
    s, st = run(P, bets((1, 1000)), ["AS", "9H", "AC", "KD", "AD", "9D"], [D(1, "split")])
    hands = s.boxes[1].hands
    assert [len(h.cards) for h in hands] == [2, 2] and all(h.status == "stood" for h in hands)
    # A K on a split hand is a 21, not a Pontoon: 1:1; A A (12) loses to 18
    assert paid(st) == {("b1", 1, 0, "win"): 2000, ("b1", 1, 1, "lose"): 0}


def test_s3_2_split_aces_not_resplit():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["AS", "9H", "AC"])]:
        s = apply(s, e)
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("AD"))
    # the first ace hand got an ace: one card only, no further action, no resplit
    assert s.hand(1, 0).status == "stood" and s.next_card_target() == CardTarget(
        TargetKind.BOX, 1, 1
    )


def test_s3_2_double_after_split_not_split_aces():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["8S", "9H", "8C"])]:
        s = apply(s, e)
    s = apply(s, D(1, "split"))
    s = apply(s, CardDealt("3D"))
    assert "double" in s.legal_actions()


def test_s3_2_no_insurance_window_on_dealer_ace():
    r, p = get_preset(P)
    s = new_round(r, p)
    for e in [*bets((1, 1000)), BettingClosed(), *map(CardDealt, ["8S", "AH", "7C"])]:
        s = apply(s, e)
    assert s.phase == "playing" and s.turn() == Turn(TurnKind.HAND, 1, 0)


@pytest.mark.parametrize(
    "cards,kind,odds",
    [
        (["2S", "3H", "4C", "5D", "7S"], "21_5_cards", (3, 2)),
        (["2S", "3H", "4C", "2D", "3S", "7S"], "21_6_cards", (2, 1)),
        (["2S", "3H", "2C", "2D", "3S", "AS", "8S"], "21_7_cards", (3, 1)),
        (["6S", "7H", "8C"], "678_mixed", (3, 2)),
        (["6H", "7H", "8H"], "678_suited", (2, 1)),
        (["6S", "7S", "8S"], "678_spades", (3, 1)),
        (["7D", "7H", "7C"], "777_mixed", (3, 2)),
        (["7D", "7D", "7D"], "777_suited", (2, 1)),
        (["7S", "7S", "7S"], "777_spades", (3, 1)),
    ],
)
def test_s3_3_bonus_ladder(cards, kind, odds):
    first, second, *rest = cards
    hits = [D(1, "hit")] * len(rest)
    _, st = run(P, bets((1, 1000)), [first, "9H", second, *rest], hits)
    line = st.lines[0]
    a, b = odds
    assert (line.odds_kind, line.odds, line.paid) == (kind, odds, 1000 + 1000 * a // b)


def test_s3_3_bonus_odds_not_on_doubled_hand():
    _, st = run(P, bets((1, 1000)), ["6S", "9H", "7S", "8S"], [D(1, "double")])
    line = st.lines[0]
    assert (line.odds_kind, line.odds, line.stake, line.paid) == ("win", (1, 1), 2000, 4000)


def test_s3_3_bonus_odds_paid_on_split_hand():
    _, st = run(
        P,
        bets((1, 1000)),
        ["7S", "9H", "7H", "7C", "7D", "8S", "KD"],
        [D(1, "split"), D(1, "hit"), D(1, "stand", 1)],
    )
    lines = {x.hand: x for x in st.lines}
    assert lines[(1, 0)].odds_kind == "777_mixed" and lines[(1, 0)].paid == 2500
    assert lines[(1, 1)].result == "lose"


def test_s3_3_pontoon_pays_3_to_2_with_remainder():
    _, st = run(P, bets((1, 1001)), ["AS", "9H", "KC"], [])
    line = st.lines[0]
    assert (line.result, line.winnings, line.remainder, line.paid) == (
        "pontoon",
        1501,
        Fraction(1, 2),
        2502,
    )


def test_s3_3_super_bonus_and_envy():
    evs = [
        BetPlaced("a", 1, 3000, "alice"),
        BetPlaced("b", 1, 600, "bob", True),
        BetPlaced("c", 1, 400, "cat", True),  # below the lowest tier: no prize, no envy
        BetPlaced("d", 2, 1000, "dan"),
    ]
    _, st = run(
        P,
        evs,
        ["7H", "9C", "7D", "7H", "QC", "7H", "9S", "KS"],
        [D(1, "hit"), D(2, "stand")],
    )
    by = {(x.bet_id, x.result): x for x in st.lines}
    assert by[("a", "win")].bonus == 500_000 and by[("a", "win")].paid == 3000 + 6000 + 500_000
    assert by[("b", "win")].bonus == 100_000 and by[("b", "win")].bonus_kind == "super_bonus"
    assert by[("c", "win")].bonus == 0
    envy = sorted((x.player_id, x.bonus) for x in st.lines if x.result == "envy_bonus")
    assert envy == [("dan", 5000)]


def test_s3_3_envy_only_to_players_with_no_bet_on_a_hand_that_won_a_prize():
    # box 1 7-7-7 hearts against a 7: alice's 3000 wins 5,000.00; bob's 400 behind is below
    # the lowest tier (neither prize nor envy), though bob also plays box 2; dan envies once
    evs = [
        BetPlaced("a", 1, 3000, "alice"),
        BetPlaced("b", 1, 400, "bob", True),
        BetPlaced("c", 2, 1000, "bob"),
        BetPlaced("d", 3, 1000, "dan"),
    ]
    _, st = run(
        P,
        evs,
        ["7H", "9C", "9D", "7D", "7H", "KC", "KD", "7H", "KS"],
        [D(1, "hit"), D(2, "stand"), D(3, "stand")],
    )
    on_hand = {x.bet_id: x.bonus for x in st.lines if x.result == "win" and x.hand == (1, 0)}
    assert on_hand == {"a": 500_000, "b": 0}
    envy = [(x.bet_id, x.player_id, x.hand, x.bonus) for x in st.lines if x.bonus_kind == "envy"]
    assert envy == [("d", "dan", (1, 0), 5000)]


def test_s3_3_below_tier_super_bonus_hand_pays_no_prize_and_nobody_envies():
    # every bet on the 7-7-7 hand (its controller's and two bets behind) is below 5.00
    evs = [
        BetPlaced("a", 1, 499, "alice"),
        BetPlaced("b", 1, 300, "bob", True),
        BetPlaced("c", 1, 100, "cat", True),
        BetPlaced("d", 2, 1000, "dan"),
    ]
    _, st = run(
        P,
        evs,
        ["7S", "9C", "7D", "7S", "KC", "7S", "KS"],
        [D(1, "hit"), D(2, "stand")],
    )
    on_hand = {x.bet_id: (x.odds_kind, x.paid, x.bonus) for x in st.lines if x.hand == (1, 0)}
    assert on_hand == {
        "a": ("777_spades", 1996, 0),
        "b": ("777_spades", 1200, 0),
        "c": ("777_spades", 400, 0),
    }
    assert not [x for x in st.lines if x.result == "envy_bonus" or x.bonus]


def test_s3_3_envy_once_per_player_per_prized_hand():
    # two prized 7-7-7 hands against a 7 (box 1 hearts, box 2 spades): each of their players
    # envies the other hand; eve (box 3, and behind box 4) envies each hand once, not per bet;
    # frank (box 4) envies both
    evs = [
        BetPlaced("a", 1, 1000, "alice"),
        BetPlaced("b", 2, 2500, "bob"),
        BetPlaced("e", 3, 1000, "eve"),
        BetPlaced("f", 4, 1000, "frank"),
        BetPlaced("e2", 4, 500, "eve", True),
    ]
    s, st = run(
        P,
        evs,
        ["7H", "7S", "KC", "QC", "7D", "7H", "7S", "7C", "8C", "7H", "7S", "KS"],
        [D(1, "hit"), D(2, "hit"), D(3, "stand"), D(4, "stand")],
    )
    assert [c.code for c in s.dealer] == ["7D", "KS"]  # boxes 3 and 4 need the dealer
    prizes = {x.bet_id: x.bonus for x in st.lines if x.bonus_kind == "super_bonus"}
    assert prizes == {"a": 100_000, "b": 500_000}
    envy = sorted((x.hand, x.player_id, x.bonus) for x in st.lines if x.bonus_kind == "envy")
    assert envy == [
        ((1, 0), "bob", 5000),
        ((1, 0), "eve", 5000),
        ((1, 0), "frank", 5000),
        ((2, 0), "alice", 5000),
        ((2, 0), "eve", 5000),
        ((2, 0), "frank", 5000),
    ]


def test_s3_3_no_super_bonus_on_split_sevens():
    _, st = run(
        P,
        bets((1, 1000)),
        ["7H", "7C", "7H", "7H", "7H", "9H", "KC"],
        [D(1, "split"), D(1, "hit"), D(1, "stand", 1)],
    )
    assert all(x.bonus == 0 for x in st.lines)
    assert st.lines[0].odds_kind == "777_suited" and st.lines[0].paid == 3000


def test_s3_3_mixed_suit_777_against_dealer_7_no_super_bonus_pays_3_to_2():
    """§3.3 "Super Bonus: the hand's first three cards are 7-7-7 of one suit ... and the
    dealer's first card is a 7": a mixed-suit 7-7-7 against a dealer 7 (stake in the top tier)
    gets no prize and nobody an envy bonus; it is paid as "7-7-7 mixed suits | 3:2"."""
    evs = [BetPlaced("a", 1, 3000, "alice"), BetPlaced("d", 2, 1000, "dan")]
    # box1 7H, box2 9C, dealer 7D, box1 7C, box2 KC; box1 hits 7S (21); box2 stands 19;
    # the dealer draws K: 17 (hard), stands
    s, st = run(
        P,
        evs,
        ["7H", "9C", "7D", "7C", "KC", "7S", "KS"],
        [D(1, "hit"), D(2, "stand")],
    )
    assert [c.code for c in s.dealer] == ["7D", "KS"]
    by = {x.bet_id: x for x in st.lines}
    a = by["a"]
    assert (a.result, a.odds_kind, a.odds) == ("win", "777_mixed", (3, 2))
    assert (a.bonus, a.bonus_kind, a.paid) == (0, "", 3000 + 4500)
    assert not [x for x in st.lines if x.result == "envy_bonus" or x.bonus_kind]
    assert paid(st) == {("a", 1, 0, "win"): 7500, ("d", 2, 0, "win"): 2000}


def test_s3_3_one_suit_777_against_dealer_8_no_super_bonus_pays_2_to_1():
    """§3.3 Super Bonus needs "the dealer's first card is a 7 of any suit": 7-7-7 of hearts
    against a dealer 8 is paid "7-7-7 all one suit, not spades | 2:1", no prize, no envy."""
    evs = [BetPlaced("a", 1, 3000, "alice"), BetPlaced("d", 2, 1000, "dan")]
    _, st = run(
        P,
        evs,
        ["7H", "9C", "8D", "7H", "KC", "7H", "KS"],
        [D(1, "hit"), D(2, "stand")],
    )
    a = next(x for x in st.lines if x.bet_id == "a")
    assert (a.odds_kind, a.odds, a.bonus, a.paid) == ("777_suited", (2, 1), 0, 3000 + 6000)
    assert not [x for x in st.lines if x.result == "envy_bonus" or x.bonus_kind]


def test_s3_4_dealer_hits_soft_17():
    s, st = run(P, bets((1, 1000)), ["QS", "AH", "8C", "6D", "3C"], [D(1, "stand")])
    assert [c.code for c in s.dealer] == ["AH", "6D", "3C"]  # soft 17 hit → 20
    assert paid(st) == {("b1", 1, 0, "lose"): 0}


def test_s3_4_dealer_stands_hard_17_and_soft_18():
    s, _ = run(P, bets((1, 1000)), ["QS", "KH", "8C", "7D"], [D(1, "stand")])
    assert len(s.dealer) == 2
    s, _ = run(P, bets((1, 1000)), ["QS", "AH", "8C", "7D"], [D(1, "stand")])
    assert len(s.dealer) == 2


def test_s3_4_player_pontoon_beats_dealer_pontoon():
    # box 2's 19 makes the dealer draw: Q to the ace, a dealer Pontoon (box 2: OBBO)
    s, st = run(
        P, bets((1, 1000), (2, 1000)), ["AS", "KS", "AH", "KC", "9S", "QD"], [D(2, "stand")]
    )
    assert s.dealer_pontoon()
    assert paid(st) == {("b1", 1, 0, "pontoon"): 2500, ("b2", 2, 0, "lose"): 0}


def test_s3_4_player_21_beats_dealer_pontoon():
    s, st = run(
        P,
        bets((1, 1000), (2, 1000)),
        ["5S", "KS", "AH", "6C", "9S", "QD", "KD"],
        [D(1, "hit"), D(2, "stand")],
    )
    assert s.dealer_pontoon()
    assert paid(st) == {("b1", 1, 0, "win"): 2000, ("b2", 2, 0, "lose"): 0}


def test_s3_4_obbo_first_hand_loses_original_only_double_returned():
    _, st = run(
        P,
        bets((1, 1000)),
        ["5S", "AH", "4C", "QD", "KD"],
        [D(1, "double", amount=800), D(1, "stand")],
    )
    line = st.lines[0]
    assert (line.result, line.stake, line.stake_returned) == ("lose", 1800, 800)


def test_s3_4_obbo_split_hands_returned_busted_hands_lost():
    _, st = run(
        P,
        bets((1, 1000)),
        # 8 8 split; hand0 8+K (stand 18); hand1 8+6 hit Q (bust); dealer K A... pontoon
        ["8S", "KH", "8C", "KD", "6D", "QH", "AH"],
        [D(1, "split"), D(1, "stand"), D(1, "hit", 1)],
    )
    assert paid(st) == {("b1", 1, 0, "lose"): 0, ("b1", 1, 1, "bust"): 0}
    _, st = run(
        P,
        bets((1, 1000)),
        ["8S", "KH", "8C", "KD", "9D", "AH"],
        [D(1, "split"), D(1, "stand"), D(1, "stand", 1)],
    )
    assert paid(st) == {("b1", 1, 0, "lose"): 0, ("b1", 1, 1, "obbo_returned"): 1000}


def test_s3_4_obbo_bets_behind_lose_original_only_and_get_back_their_own_double():
    """§3.4 "Dealer Pontoon (OBBO ...): the box's first hand, if it is still standing and not a
    21, loses its original stake only; every other stake on the box still standing (double
    stakes ...) is returned"; §8 "in crown a double may be matched with any amount up to the
    bettor's own original stake": alice doubles 800 on 1000, bob matches 300 on his 600, cat
    (500) does not match; the hand stands on 18 and the dealer's A takes a K."""
    evs = [
        BetPlaced("a", 1, 1000, "alice"),
        BetPlaced("b", 1, 600, "bob", True),
        BetPlaced("c", 1, 500, "cat", True),
    ]
    s, st = run(
        P,
        evs,
        ["5S", "AH", "4C", "9D", "KD"],
        [
            D(1, "double", amount=800),
            MatchMade("b", 300),
            MatchDeclined("c"),
            D(1, "stand"),
        ],
    )
    assert s.dealer_pontoon() and s.value(s.hand(1, 0)).total == 18
    by = {x.bet_id: (x.result, x.stake, x.stake_returned, x.paid) for x in st.lines}
    assert by == {
        "a": ("lose", 1800, 800, 800),
        "b": ("lose", 900, 300, 300),
        "c": ("lose", 500, 0, 0),
    }


def test_s3_4_dealer_bust_higher_total_and_tie_push():
    _, st = run(
        P,
        bets((1, 1000), (2, 1000), (3, 1000)),
        ["QS", "9S", "8S", "KH", "QC", "8C", "9D", "8D"],
        [D(1, "stand"), D(2, "stand"), D(3, "stand")],
    )
    # dealer K 8 = 18: box1 20 wins, box2 17 loses, box3 16 loses
    assert paid(st) == {("b1", 1, 0, "win"): 2000, ("b2", 2, 0, "lose"): 0, ("b3", 3, 0, "lose"): 0}
    _, st = run(P, bets((1, 1000)), ["QS", "KH", "8C", "8D"], [D(1, "stand")])
    assert paid(st) == {("b1", 1, 0, "push"): 1000}
    _, st = run(P, bets((1, 1000)), ["QS", "KH", "2C", "6D", "9D"], [D(1, "stand")])
    assert paid(st) == {("b1", 1, 0, "win"): 2000}


def test_s3_4_dealer_takes_no_card_when_every_remaining_hand_is_a_21():
    # §3.4 (clarified 2026-12-01): box 1 Pontoon, box 2 a three-card 21 (with a bet behind),
    # box 3 bust: player 21s win whatever the dealer holds, so the dealer stays on one card
    evs = [*bets((1, 1000), (2, 1000), (3, 1000)), BetPlaced("x", 2, 500, "xena", True)]
    s, st = run(
        P,
        evs,
        ["AS", "5S", "KH", "9H", "KC", "6C", "QC", "QD", "5D"],
        [D(2, "hit"), D(3, "hit")],
    )
    assert [c.code for c in s.dealer] == ["9H"] and s.dealer_need == ""
    assert paid(st) == {
        ("b1", 1, 0, "pontoon"): 2500,
        ("b2", 2, 0, "win"): 2000,
        ("x", 2, 0, "win"): 1000,
        ("b3", 3, 0, "bust"): 0,
    }
    # the same round with box 3 standing on 20 instead: now a hand needs the dealer
    s, _ = run(
        P,
        bets((1, 1000), (2, 1000), (3, 1000)),
        ["AS", "5S", "KH", "9H", "KC", "6C", "QC", "QD", "8D"],
        [D(2, "hit"), D(3, "stand")],
    )
    assert [c.code for c in s.dealer] == ["9H", "8D"]


def test_s3_4_dealer_takes_no_card_for_a_doubled_21_and_split_aces_21s():
    # §3.4 (clarified 2026-12-01): box 1 doubles 11 and makes 21 (1:1 on its whole stake), box
    # 2 splits aces and each takes a picture (two-card 21s at 1:1, not Pontoons): every hand
    # is a 21, so the dealer stays on its one card
    s, st = run(
        P,
        bets((1, 1000), (2, 1000)),
        ["5S", "AS", "9H", "6C", "AD", "KD", "QC", "JH"],
        [D(1, "double", 0, 1000), D(2, "split")],
    )
    assert [c.code for c in s.dealer] == ["9H"] and s.dealer_need == ""
    assert paid(st) == {
        ("b1", 1, 0, "win"): 4000,
        ("b2", 2, 0, "win"): 2000,
        ("b2", 2, 1, "win"): 2000,
    }


def test_s3_4_a_pending_surrender_beside_a_21_takes_only_the_pontoon_check_card():
    # box 1 surrenders 16 against a K (pending the Pontoon check), box 2 makes 21: the dealer
    # takes its second card for the check and stops on 15 (no hand needs its result)
    s, st = run(
        P,
        bets((1, 1000), (2, 1000)),
        ["QS", "5S", "KH", "6C", "6D", "KD", "5C"],
        [D(1, "surrender"), D(2, "hit")],
    )
    assert [c.code for c in s.dealer] == ["KH", "5C"] and s.dealer_need == "second_card"
    assert paid(st) == {("b1", 1, 0, "surrender"): 500, ("b2", 2, 0, "win"): 2000}


def test_s3_4_dealer_does_not_draw_when_no_hand_needs_it():
    s, st = run(P, bets((1, 1000)), ["QS", "KH", "6C", "KD"], [D(1, "hit")])
    assert len(s.dealer) == 1 and paid(st) == {("b1", 1, 0, "bust"): 0}


def test_s8_bets_behind_crown_partial_match_of_double():
    evs = [BetPlaced("a", 1, 1000, "alice"), BetPlaced("b", 1, 500, "bob", True)]
    _, st = run(
        P,
        evs,
        ["6S", "9H", "5C", "KD"],
        [D(1, "double", amount=1000), MatchMade("b", 200)],
    )
    by = {x.bet_id: x for x in st.lines}
    assert (by["a"].stake, by["a"].paid) == (2000, 4000)
    assert (by["b"].stake, by["b"].paid) == (700, 1400)


def test_s8_unused_play():
    # the scenario helper refuses unused cards; sanity check of the driver itself
    with pytest.raises(AssertionError, match="unused cards"):
        play(P, bets((1, 1000)), ["AS", "9H", "KC", "9D", "2C"], [])


def test_s3_3_no_super_bonus_on_doubled_sevens():
    _, st = run(P, bets((1, 1000)), ["7H", "7D", "7H", "7H"], [D(1, "double", amount=1000)])
    (line,) = st.lines
    assert (line.bonus, line.odds, line.stake, line.paid) == (0, (1, 1), 2000, 4000)


@pytest.mark.parametrize(
    ("stake", "prize"), [(499, 0), (500, 100_000), (2499, 100_000), (2500, 500_000)]
)
def test_s3_3_super_bonus_tier_edges(stake, prize):
    _, st = run(P, bets((1, stake)), ["7H", "7D", "7H", "7H"], [D(1, "hit")])
    line = next(x for x in st.lines if x.result == "win")
    assert (line.odds_kind, line.bonus) == ("777_suited", prize)


def test_s3_4_doubled_21_beats_dealer_pontoon_on_the_whole_stake():
    s, st = run(
        P,
        bets((1, 1000), (2, 1000)),
        ["5S", "KS", "AH", "6C", "9S", "KD", "QD"],
        [D(1, "double", amount=1000), D(2, "stand")],
    )
    assert s.dealer_pontoon()
    line = st.for_bet("b1")[0]
    assert (line.result, line.stake, line.paid) == ("win", 2000, 4000)
