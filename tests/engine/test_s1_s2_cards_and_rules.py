"""§1 common definitions (cards, values, odds) and §2 the presets as data."""

import json
from fractions import Fraction

import pytest

from tables.engine import (
    PRESETS,
    BetPlaced,
    ImpossibleCard,
    InvalidEvent,
    PayoutSchedule,
    RuleConflict,
    RuleSet,
    apply,
    deck,
    get_preset,
    hand_total,
    new_round,
    parse_card,
)
from tables.engine.settlement import _odds_pay


def cards(*codes):
    return [parse_card(c) for c in codes]


def test_s1_card_codes_canonical_accept_10_and_lower_case():
    assert parse_card("10h").code == "TH"
    assert parse_card("as").code == "AS"
    assert parse_card(" Qd ").code == "QD"
    assert parse_card("td") is parse_card("TD")
    for bad in ["1S", "AX", "", "10", "ASS", 7]:
        with pytest.raises(ImpossibleCard):
            parse_card(bad)


def test_s1_decks_standard_52_spanish_48_without_tens():
    assert len(deck("standard")) == 52 and len(set(deck("standard"))) == 52
    sp = deck("spanish")
    assert len(sp) == 48 and not any(c.rank == 10 for c in sp)
    assert sum(c.rank >= 11 for c in sp) == 12


def test_s1_values_total_soft_hard_bust():
    assert hand_total(cards("AS", "6H")) == (17, True, 7)
    assert hand_total(cards("AS", "AH", "9C")) == (21, True, 11)
    assert hand_total(cards("KS", "QH")) == (20, False, 20)
    assert hand_total(cards("KS", "QH", "2C")).total == 22
    assert hand_total(cards("AS", "5H", "5C"), aces_as_one_positions=(0, 1)) == (11, False, 11)
    assert hand_total(cards("5S", "5H", "AC"), aces_as_one_positions=(0, 1)).total == 21


def test_s1_odds_round_down_and_record_remainder():
    assert _odds_pay(1001, (3, 2)) == (1501, Fraction(1, 2))
    assert _odds_pay(7, (3, 2)) == (10, Fraction(1, 2))
    assert _odds_pay(1000, (2, 1)) == (2000, Fraction(0))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_s2_presets_round_trip_json(name):
    rules, payouts = get_preset(name)
    assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert PayoutSchedule.from_json(json.loads(json.dumps(payouts.to_json()))) == payouts


def test_s2_preset_table():
    c, b, o8, o2, t = (
        PRESETS[n].rules
        for n in ["crown", "british_casino", "online_8deck", "online_2deck", "traditional"]
    )
    assert (c.deck_kind, c.decks, c.dealer_cards_before_play, c.dealer_rule, c.tie_rule) == (
        "spanish",
        8,
        1,
        "hit_soft_17",
        "push",
    )
    assert (b.decks, b.dealer_rule, b.tie_rule, b.min_stand_total) == (
        6,
        "stand_soft_17",
        "dealer_wins",
        0,
    )
    assert (o8.decks, o8.shoe_policy, o8.dealer_peek, o8.min_stand_total) == (
        8,
        "fresh_each_round",
        True,
        15,
    )
    assert (o2.decks, o2.dealer_peek, o2.min_stand_total_kind, o2.dealer_rule) == (
        2,
        False,
        "hard",
        "hit_soft_17",
    )
    assert (t.decks, t.dealer_rule, t.min_stand_total, t.player_actions) == (
        1,
        "banker_choice",
        16,
        "buy_twist",
    )
    assert PRESETS["crown"].payouts.pontoon == (3, 2)
    assert PRESETS["british_casino"].payouts.five_card_trick == (3, 2)
    assert PRESETS["online_2deck"].payouts.five_card_trick == (2, 1)
    assert PRESETS["traditional"].payouts.pontoon == (1, 1)
    assert PRESETS["crown"].payouts.super_bonus_tiers == ((500, 100_000), (2_500, 500_000))


def test_s2_operator_defines_a_new_game_without_code():
    rules, payouts = get_preset("crown")
    doc = rules.to_json() | {"name": "crown_4deck", "decks": 4, "split_max_hands": 4}
    custom = RuleSet.from_json(doc)
    assert custom.decks == 4 and custom.split_max_hands == 4
    assert payouts.replace(pontoon=(2, 1)).pontoon == (2, 1)


@pytest.mark.parametrize(
    "changes,message",
    [
        (
            {"split_aces": False, "split_pontoon": "split_aces"},
            "split_pontoon = 'split_aces' requires split_aces",
        ),
        ({"dealer_peek": True}, "dealer_peek requires dealer_cards_before_play = 2"),
        ({"rescue": True, "double_then": "continue"}, "rescue requires double_then = 'stand'"),
        ({"double_max_per_hand": 2}, "double_then = 'stand' allows only one double"),
        ({"player_five_card_trick": True}, "player_five_card_trick requires player_card_limit = 5"),
        ({"surrender_dealer_ranks": ()}, "surrender requires surrender_dealer_ranks"),
        ({"deck_kind": "tarot"}, "deck_kind must be one of"),
        ({"player_actions": "buy_twist"}, "excludes doubling"),
        ({"insurance": True, "dealer_cards_before_play": 2}, "dealer_peek|insurance requires"),
        (
            {"player_21_always_wins": False},
            "twenty_one_decided_at_once requires player_21_always_wins",
        ),
    ],
)
def test_s2_inconsistent_rule_sets_rejected_naming_the_conflict(changes, message):
    rules, _ = get_preset("crown")
    with pytest.raises(RuleConflict, match=message):
        rules.replace(**changes)


def test_s2_unknown_fields_and_bad_odds_rejected():
    rules, payouts = get_preset("crown")
    with pytest.raises(RuleConflict, match="unknown field"):
        RuleSet.from_json(rules.to_json() | {"colour": "red"})
    with pytest.raises(RuleConflict, match="pontoon must be odds"):
        payouts.replace(pontoon=(3, 0))
    with pytest.raises(RuleConflict, match="ascending"):
        payouts.replace(super_bonus_tiers=((2500, 1), (500, 2)))


def test_s2_crown_21_decided_at_once_is_a_field_other_presets_and_old_documents_keep_off():
    """§3.4 (clarified 2026-12-01) is a rule-set field: only crown sets it, and a stored
    document from before it (no such key) reads as off, so its rounds replay as played."""
    assert {n for n, p in PRESETS.items() if p.rules.twenty_one_decided_at_once} == {"crown"}
    doc = PRESETS["crown"].rules.to_json()
    assert doc["twenty_one_decided_at_once"] is True
    del doc["twenty_one_decided_at_once"]
    assert RuleSet.from_json(doc).twenty_one_decided_at_once is False


def test_s2_a_pontoon_waiting_for_the_second_card_only_is_british_and_off_in_old_documents():
    """§4 "(a standing hand, a Pontoon waiting, or insurance pending — then the second card
    only)", read this way since 2026-12-05: a rule-set field only british_casino sets, off in a
    document stored before it, so a round played then (the dealer drew on for a lone Pontoon)
    replays as played."""
    field = "pontoon_waits_for_second_card_only"
    assert {n for n, p in PRESETS.items() if getattr(p.rules, field)} == {"british_casino"}
    doc = PRESETS["british_casino"].rules.to_json()
    del doc[field]
    assert getattr(RuleSet.from_json(doc), field) is False


def test_s2_a_void_paying_a_pontoon_the_dealers_cards_decided_is_every_presets_and_off_before():
    """§8 void, read this way since 2026-12-05 (``settle_void``): every preset sets the field; a
    document stored before it reads it off, so its voided rounds replay as settled then."""
    for field in (
        "void_pays_pontoon_after_dealer_two_cards",
        "void_stands_once_the_dealer_has_finished",
    ):
        assert all(getattr(p.rules, field) for p in PRESETS.values())
        doc = PRESETS["online_8deck"].rules.to_json()
        del doc[field]
        assert getattr(RuleSet.from_json(doc), field) is False


@pytest.mark.parametrize(
    ("preset", "boxes"),
    [
        ("crown", 7),  # §3.1 "7 boxes"
        ("british_casino", 7),  # §4 silent; rules.py reading "7 boxes" (seed silent)
        ("online_8deck", 5),  # §5 "up to 5 boxes at once"
        ("online_2deck", 5),  # §6 "5 boxes"
        ("traditional", 9),  # §7 "Up to 9 boxes"
    ],
)
def test_s2_box_count_per_preset_last_box_accepted_next_refused(preset, boxes):
    """§3.1 crown 7 boxes, §5/§6 online 5, §7 traditional "Up to 9 boxes": a bet on box N is
    accepted, a bet on box N+1 is refused (the box does not exist)."""
    r, p = get_preset(preset)
    assert r.boxes == boxes
    stake = 0 if preset == "traditional" else 1000  # §7 boxes join, then stake
    s = apply(new_round(r, p), BetPlaced("last", boxes, stake, "p1"))
    assert list(s.boxes) == [boxes]
    with pytest.raises(InvalidEvent, match=rf"box {boxes + 1} does not exist \(boxes 1..{boxes}\)"):
        apply(s, BetPlaced("over", boxes + 1, stake, "p2"))
    with pytest.raises(InvalidEvent, match="does not exist"):
        apply(s, BetPlaced("zero", 0, stake, "p3"))
