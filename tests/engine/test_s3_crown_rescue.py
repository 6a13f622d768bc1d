"""§3.2 crown double-down rescue: when the forfeit is offered after a double, pinned to the rule
book's reading (``tables/engine/rules.py``, "Crown rescue (§3.2)").

§3.2: "Double-down rescue (forfeit): after the double card is dealt, if the hand has not bust,
the controller may forfeit: the double stake is returned and the original stake is lost. Settled
at once. A doubled hand that busts is lost at once and cannot be forfeited."

"Has not bust" is read with §3.2 "Hit / stand at any total up to 21; a hand that reaches 21
stops", §8 "A player is never asked to act on a hand that cannot change" and §3.4 "A player 21
of any kind wins, even against a dealer 21 or Pontoon": a doubled hand that reaches 21 has won,
so it stands on its 21 and is not offered the forfeit; under 21 it is offered; bust, it is lost.
Only ``crown`` has the rescue (§3.2 is its only rescue clause).
"""

import pytest

from tables.engine import (
    PRESETS,
    BetPlaced,
    CardDealt,
    EngineError,
    MatchMade,
    Turn,
    TurnKind,
    apply,
)

from .helpers import D, Partial, bets, dealt, paid, run

P = "crown"

# a spanish shoe: no tens (§1)
SPANISH_RANKS = "A23456789JQK"
FACE = {"A": 1, "J": 10, "Q": 10, "K": 10}


def _doubled_total(first_two, double_card):
    """The doubled hand's total by §3.2 alone: "Any ace among the hand's first two cards counts as
    1 on a doubled hand ... an ace that is the hand's third or later card, including the card
    received for the double, may count as 11"."""
    ranks = [*first_two, double_card]
    hard = sum(FACE.get(r) or int(r) for r in ranks)
    if double_card == "A" and hard + 10 <= 21:
        return hard + 10
    return hard


# (1) a doubled hand that reaches 21 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("feed", "double_card"),
    [
        pytest.param(["5S", "9H", "6C"], "KD", id="two_cards_hard_21"),
        pytest.param(["5S", "9H", "5C"], "AD", id="double_card_ace_soft_21"),
        pytest.param(["AS", "9H", "9C"], "AD", id="first_ace_as_1_double_ace_as_11"),
        pytest.param(["2S", "9H", "3C", D(1, "hit"), "6D"], "KC", id="three_cards_then_double"),
    ],
)
def test_s3_2_doubled_hand_reaching_21_is_not_offered_rescue_and_stands(feed, double_card):
    """§3.2 "after the double card is dealt, if the hand has not bust, the controller may
    forfeit" read with §3.2 "a hand that reaches 21 stops" and §8 "A player is never asked to
    act on a hand that cannot change": a doubled 21 is never offered the forfeit; it stands on
    its 21 at once, and nobody is asked anything about it."""
    s = dealt(P, bets((1, 1000)), [*feed, D(1, "double")])
    assert s.turn() is None and s.next_card_target() is not None  # the double card is due
    s = apply(s, CardDealt(double_card))
    h = s.hand(1, 0)
    assert s.value(h).total == 21
    assert h.status == "stood" and not h.rescue_open
    assert s.turn() is None and s.phase == "complete"


def test_s3_2_doubled_21_is_paid_as_a_21_one_to_one_on_its_whole_stake():
    """§3.4 "A player 21 of any kind wins, even against a dealer 21 or Pontoon, at the schedule's
    odds (1:1 if doubled)" and §3.3 "a doubled hand that wins pays 1:1 on its whole stake":
    box 1 doubles 11 for 600 and makes 21 (not offered the forfeit); box 2 stands on 20, so the
    dealer draws, to 21: the doubled 21 still wins 1:1 on 1,600, the 20 loses."""
    s, st = run(
        P,
        bets((1, 1000), (2, 1000)),
        ["5S", "KS", "9H", "6C", "QS", "KD", "2H", "KH"],
        [D(1, "double", amount=600), D(2, "stand")],
    )
    assert s.hand(1, 0).status == "stood" and s.value(s.hand(1, 0)).total == 21
    assert s.dealer_value().total == 21
    line = st.for_bet("b1")[0]
    assert (line.result, line.odds, line.stake, line.paid) == ("win", (1, 1), 1600, 3200)
    assert paid(st)[("b2", 2, 0, "lose")] == 0


def test_s3_2_doubled_five_card_21_is_not_offered_rescue_and_pays_1_to_1_not_3_to_2():
    """§3.2 "a hand that reaches 21 stops" and §3.3 "Bonus odds (the rows other than Pontoon and
    "any other win") are not paid on a doubled hand": four cards on 11 doubled, the fifth card
    makes 21 with exactly five cards: it stands (no forfeit offered) and pays 1:1, not 3:2."""
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "2D", "4D", "KC"],
        [D(1, "hit"), D(1, "hit"), D(1, "double")],
    )
    assert len(s.hand(1, 0).cards) == 5 and s.hand(1, 0).status == "stood"
    line = st.lines[0]
    assert (line.result, line.odds, line.stake, line.paid) == ("win", (1, 1), 2000, 4000)


def test_s3_2_rescue_on_a_doubled_21_is_refused_and_play_moves_on():
    """§3.2 "a hand that reaches 21 stops": once box 1's doubled 21 has stood the turn is box 2's,
    and a rescue named for box 1 is refused, leaving the round as it was."""
    s = dealt(P, bets((1, 1000), (2, 1000)), ["5S", "KS", "9H", "6C", "QS", D(1, "double"), "KD"])
    assert s.turn() == Turn(TurnKind.HAND, 2, 0)
    assert "rescue" not in s.legal_actions()
    before = s.to_json()
    with pytest.raises(EngineError):
        apply(s, D(1, "rescue"))
    assert s.to_json() == before


def test_s3_2_split_hand_doubled_to_21_stands_and_the_next_split_hand_plays():
    """§3.2 "Doubling after a split is allowed (not on split aces)" and "a hand that reaches 21
    stops": the first 8 of a split doubles 8 3 and takes a K (21): no forfeit is offered, the
    second split hand is dealt its card and plays (8 J, 18, stands); the dealer draws for it
    (9 8, 17): the doubled 21 wins 1:1 on its whole stake, the 18 wins 1:1."""
    s = dealt(P, bets((1, 1000)), ["8S", "9H", "8C", D(1, "split"), "3D", D(1, "double"), "KD"])
    assert s.hand(1, 0).status == "stood" and not s.hand(1, 0).rescue_open
    assert s.turn() is None and s.next_card_target() is not None  # hand 1's second card
    s = apply(s, CardDealt("JC"))
    assert s.turn() == Turn(TurnKind.HAND, 1, 1)
    _, st = run(
        P,
        bets((1, 1000)),
        ["8S", "9H", "8C", "3D", "KD", "JC", "8D"],
        [D(1, "split"), D(1, "double"), D(1, "stand", hand=1)],
    )
    assert paid(st) == {("b1", 1, 0, "win"): 4000, ("b1", 1, 1, "win"): 2000}


def test_s8_void_pays_a_doubled_crown_21_at_1_to_1_on_its_whole_stake():
    """§8 "Every outcome already decided when the void is approved stands (... any hand whose
    outcome no further card can change, such as a Crown Pontoon or a Crown 21, which is paid at
    its odds)": box 1's doubled 21 was never offered the forfeit and is decided; voided on box
    2's turn it is paid 1:1 on its whole stake, box 2's stake is returned."""
    g = Partial(P, bets((1, 1000), (2, 1000)), "5S", "KS", "9H", "6C", "QS", D(1, "double"), "KD")
    s = g.state
    assert s.turn() == Turn(TurnKind.HAND, 2, 0) and s.decided_at_once(s.hand(1, 0))
    assert paid(g.void()) == {("b1", 1, 0, "win"): 4000, ("b2", 2, 0, "void_returned"): 1000}


# (2) a doubled hand below 21 -----------------------------------------------------------------


def test_s3_2_every_two_card_double_is_offered_rescue_exactly_when_under_21():
    """§3.2 "after the double card is dealt, if the hand has not bust, the controller may
    forfeit ... A doubled hand that busts is lost at once and cannot be forfeited", with "a hand
    that reaches 21 stops": every two-card crown hand that may double (Pontoons may not), every
    double card: under 21 the controller is asked ``rescue`` or ``stand``; at 21 the hand stands
    unasked; over 21 it is bust. Totals by §3.2's ace rule, computed here independently."""
    wrong = []
    for i, a in enumerate(SPANISH_RANKS):
        for b in SPANISH_RANKS[i:]:
            if "A" in (a, b) and {a, b} & set("JQK"):
                continue  # a Pontoon stops (§8)
            for c in SPANISH_RANKS:
                s = dealt(P, bets((1, 1000)), [f"{a}S", "9H", f"{b}C", D(1, "double"), f"{c}D"])
                h = s.hand(1, 0)
                total = _doubled_total((a, b), c)
                if total < 21:
                    ok = (
                        s.turn() == Turn(TurnKind.HAND, 1, 0)
                        and s.legal_actions() == ["rescue", "stand"]
                        and h.status == "open"
                    )
                else:
                    ok = s.turn() is None and not h.rescue_open
                    ok = ok and h.status == ("stood" if total == 21 else "bust")
                if not ok:
                    wrong.append((a, b, c, total, h.status, s.legal_actions()))
    assert wrong == []


def test_s3_2_first_two_card_ace_counts_1_so_a_doubled_soft_looking_21_is_offered_rescue():
    """§3.2 "Any ace among the hand's first two cards counts as 1 on a doubled hand" and "if the
    hand has not bust, the controller may forfeit": A 5 doubled takes a 5: 11, not 21, so the
    hand has not reached 21 and the forfeit is offered; forfeiting returns the double only."""
    s = dealt(P, bets((1, 1000)), ["AS", "9H", "5C", D(1, "double"), "5D"])
    assert s.value(s.hand(1, 0)).total == 11
    assert s.legal_actions() == ["rescue", "stand"]
    _, st = run(P, bets((1, 1000)), ["AS", "9H", "5C", "5D"], [D(1, "double"), D(1, "rescue")])
    assert paid(st) == {("b1", 1, 0, "rescue"): 1000}


def test_s3_2_three_card_double_under_21_is_offered_rescue_settled_at_once():
    """§3.2 "Double: ... or on a hand of three or more cards whose total is under 21" and "after
    the double card is dealt, if the hand has not bust, the controller may forfeit: the double
    stake is returned and the original stake is lost. Settled at once.": 2 3 4 (9) doubles for
    400 and takes a 9 (18): offered; the forfeit returns the 400 and the dealer does not draw."""
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C", D(1, "hit"), "4D", D(1, "double", 0, 400)])
    s = apply(s, CardDealt("9C"))
    assert s.legal_actions() == ["rescue", "stand"]
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "4D", "9C"],
        [D(1, "hit"), D(1, "double", amount=400), D(1, "rescue")],
    )
    assert len(s.hand(1, 0).cards) == 4 and s.hand(1, 0).status == "rescued"
    assert len(s.dealer) == 1
    assert paid(st) == {("b1", 1, 0, "rescue"): 400}


def test_s3_2_split_hand_double_under_21_is_offered_rescue_then_the_next_hand_plays():
    """§3.2 "Doubling after a split is allowed (not on split aces)" and "after the double card
    is dealt, if the hand has not bust, the controller may forfeit": the first 8 of a split
    doubles 8 3 and takes a 9 (20): offered; forfeited (the double returned), the second split
    hand plays on, stands on 8 K (18) and beats the dealer's 9 8 (17)."""
    s = dealt(P, bets((1, 1000)), ["8S", "9H", "8C", D(1, "split"), "3D", D(1, "double"), "9D"])
    assert s.turn() == Turn(TurnKind.HAND, 1, 0)
    assert s.legal_actions() == ["rescue", "stand"]
    s, st = run(
        P,
        bets((1, 1000)),
        ["8S", "9H", "8C", "3D", "9D", "KC", "8H"],
        [D(1, "split"), D(1, "double"), D(1, "rescue"), D(1, "stand", hand=1)],
    )
    assert s.hand(1, 0).status == "rescued"
    assert [c.code for c in s.dealer] == ["9H", "8H"]
    assert paid(st) == {("b1", 1, 0, "rescue"): 1000, ("b1", 1, 1, "win"): 2000}


def test_s3_2_rescue_is_offered_only_after_a_double():
    """§3.2 "after the double card is dealt ... the controller may forfeit": an undoubled hand
    under 21 (two cards, and after a hit) is never offered the forfeit."""
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C"])
    assert "rescue" not in s.legal_actions()
    s = dealt(P, bets((1, 1000)), ["2S", "9H", "3C", D(1, "hit"), "9D"])
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and "rescue" not in s.legal_actions()


@pytest.mark.parametrize(
    ("preset", "cards"),
    [
        ("british_casino", ["9S", "7H", "2C", D(1, "double"), "6D"]),
        ("online_8deck", ["9S", "7H", "2C", "5D", D(1, "double"), "6D"]),
        ("online_2deck", ["9S", "7H", "2C", "5D", D(1, "double"), "6D"]),
    ],
)
def test_only_crown_has_the_rescue(preset, cards):
    """§3.2 is the only rescue clause of the rule book (§4 to §7 give none): the other presets that
    double (§4 "after a double the hand may hit, stand, or double again", §5/§6 "the player may
    keep drawing afterwards") never offer it, even on a doubled 17."""
    assert [name for name, (r, _) in PRESETS.items() if r.rescue] == ["crown"]
    s = dealt(preset, bets((1, 1000)), cards)
    assert s.turn() == Turn(TurnKind.HAND, 1, 0) and s.value(s.hand(1, 0)).total == 17
    assert "rescue" not in s.legal_actions() and "stand" in s.legal_actions()


# (3) a bust doubled hand ---------------------------------------------------------------------


def test_s3_2_doubled_bust_with_a_matched_bet_behind_is_lost_and_cannot_be_forfeited():
    """§3.2 "A doubled hand that busts is lost at once and cannot be forfeited" and §8 "Doubled
    status belongs to the hand, not the bet": box 1 doubles 9 6 (15), the bettor behind matches
    300, and the double card is a K (25): bust, no forfeit offered; the turn is box 2's and a
    rescue named for box 1 is refused; every stake on the hand, doubles included, is lost."""
    evs = [
        BetPlaced("a", 1, 1000, "alice"),
        BetPlaced("b", 1, 500, "bob", True),
        BetPlaced("c", 2, 1000, "carol"),
    ]
    s = dealt(
        P,
        evs,
        ["9S", "KS", "9H", "6C", "QS", D(1, "double"), MatchMade("b", 300), "KD"],
    )
    assert s.hand(1, 0).status == "bust" and not s.hand(1, 0).rescue_open
    assert s.turn() == Turn(TurnKind.HAND, 2, 0)
    before = s.to_json()
    with pytest.raises(EngineError):
        apply(s, D(1, "rescue"))
    assert s.to_json() == before
    _, st = run(
        P,
        evs,
        ["9S", "KS", "9H", "6C", "QS", "KD", "8D"],
        [D(1, "double"), MatchMade("b", 300), D(2, "stand")],
    )
    assert paid(st) == {
        ("a", 1, 0, "bust"): 0,
        ("b", 1, 0, "bust"): 0,
        ("c", 2, 0, "win"): 2000,
    }
    by = {x.bet_id: x.stake for x in st.lines}
    assert (by["a"], by["b"]) == (2000, 800)


def test_s3_2_three_card_double_that_busts_is_lost_at_once():
    """§3.2 "A doubled hand that busts is lost at once and cannot be forfeited": 2 3 7 (12)
    doubles and takes a K (22): bust, lost; the dealer does not draw."""
    s, st = run(
        P,
        bets((1, 1000)),
        ["2S", "9H", "3C", "7D", "KC"],
        [D(1, "hit"), D(1, "double")],
    )
    assert s.hand(1, 0).status == "bust" and len(s.dealer) == 1
    assert paid(st) == {("b1", 1, 0, "bust"): 0}


def test_s3_2_split_hand_doubled_to_bust_is_lost_and_the_next_split_hand_plays():
    """§3.2 "A doubled hand that busts is lost at once and cannot be forfeited": the first 8 of
    a split doubles 8 6 (14) and takes a Q (24): bust, not offered the forfeit; the second split
    hand is dealt its card and is the turn."""
    s = dealt(P, bets((1, 1000)), ["8S", "9H", "8C", D(1, "split"), "6D", D(1, "double"), "QD"])
    assert s.hand(1, 0).status == "bust" and not s.hand(1, 0).rescue_open
    assert s.turn() is None and s.next_card_target() is not None  # hand 1's second card
    _, st = run(
        P,
        bets((1, 1000)),
        ["8S", "9H", "8C", "6D", "QD", "KC", "8H"],
        [D(1, "split"), D(1, "double"), D(1, "stand", hand=1)],
    )
    assert paid(st) == {("b1", 1, 0, "bust"): 0, ("b1", 1, 1, "win"): 2000}
