"""Rounds through the services: every preset reader-fed with stacked cards and settled through
the ledger, bets behind, phases, late bets, timeouts, crash recovery, suspensions, void."""

import random
import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.models import AuditEvent
from casino.api import roles
from casino.errors import Conflict, PermissionDenied
from ledger.models import Transaction
from tables import engine as eng
from tables import selectors, services
from tables.errors import (
    BettingClosed,
    FourEyesRequired,
    NotYourTurn,
    RoundSuspended,
    RuleRefused,
    WrongPhase,
)
from tables.models import Decision, Round, RoundEvent, RuleSetVersion, Shoe
from tests.factories import TableFactory, UserFactory, funded_player, live_table

from .conftest import ACTOR, DEVICE, balance, bet, dealer, decide, drive, play_round

pytestmark = pytest.mark.django_db


def _settled(rnd):
    assert rnd.phase == Round.Phase.SETTLING
    assert services.round_settle(round_id=rnd.pk) == Round.Phase.SETTLED
    return Round.objects.get(pk=rnd.pk)


# --- every preset: stacked reader-fed rounds end in the rule book's payouts -----------------


def test_crown_doubled_21_pays_1_to_1_on_whole_stake_bet_behind_matches_the_double():
    table = live_table("crown")
    a, b = funded_player(), funded_player()
    rnd = play_round(
        table,
        [(a, 1, 1000), (b, 1, 600, True)],
        ["5S", "9H", "5C", "AD"],  # 5 5, dealer 9; double card A = 21: the dealer needs no card
        [decide(a, "double", 1000), decide(b, "match")],
    )
    rnd = _settled(rnd)
    assert (balance(a), balance(b)) == (10_000 - 2000 + 4000, 10_000 - 1200 + 2400)
    assert Transaction.objects.filter(kind="settlement", round_id=rnd.pk).count() == 1


def test_british_casino_pontoon_decided_at_once_2_to_1_and_equal_total_to_dealer():
    table = live_table("british_casino")
    a, b = funded_player(), funded_player()
    rnd = play_round(
        table,
        [(a, 1, 1000), (b, 2, 1000)],
        ["AS", "7C", "9H", "KC", "9D", "8S"],  # box1 Pontoon v dealer 9; box2 16 v 17
        [decide(b, "stand")],
    )
    _settled(rnd)
    assert (balance(a), balance(b)) == (10_000 + 2000, 10_000 - 1000)


def test_online_8deck_five_card_trick_pays_2_to_1():
    table = live_table("online_8deck")
    a = funded_player()
    rnd = play_round(
        table,
        [(a, 1, 1000)],
        ["2S", "9H", "3C", "KD", "2D", "4D", "5D"],
        [decide(a, "hit"), decide(a, "hit"), decide(a, "hit")],
    )
    _settled(rnd)
    assert balance(a) == 10_000 + 2000


def test_online_8deck_multihand_peeked_dealer_pontoon_takes_every_box():
    table = live_table("online_8deck")
    a = funded_player()
    rnd = play_round(table, [(a, 1, 1000), (a, 2, 1000)], ["AS", "9S", "AH", "KS", "8S", "KH"])
    _settled(rnd)
    assert balance(a) == 10_000 - 2000


def test_online_2deck_split_aces_make_pontoons_2_to_1():
    table = live_table("online_2deck")
    a = funded_player()
    rnd = play_round(
        table, [(a, 1, 1000)], ["AS", "9H", "AC", "9D", "KD", "QD"], [decide(a, "split")]
    )
    _settled(rnd)
    assert balance(a) == 10_000 - 2000 + 6000


def test_traditional_stake_after_first_card_banker_busts_pays_1_to_1():
    table = live_table("traditional")
    a = funded_player()
    rnd = play_round(
        table,
        [(a, 1, 0)],  # joins the box; the stake comes after the first card
        ["KS", "KH", "7C", "6D", "QC"],
        [decide(a, "stake", 500), decide(a, "stand"), dealer("hit")],
    )
    _settled(rnd)
    assert balance(a) == 10_000 + 500


def test_bet_behind_matches_a_split_and_shares_both_hands():
    table = live_table("british_casino")
    a, b = funded_player(), funded_player()
    rnd = play_round(
        table,
        [(a, 1, 1000), (b, 1, 600, True)],
        ["8S", "9H", "8C", "3D", "KD", "9C", "7D", "KC"],
        [
            decide(a, "split"),
            decide(b, "match"),
            decide(a, "hit", box=1, hand_index=0),
            decide(a, "stand", box=1, hand_index=1),
        ],
    )
    # hand 0: 8 3 K = 21, hand 1: 8 9 = 17; dealer 9 7 K busts: every stake wins 1:1
    _settled(rnd)
    assert (balance(a), balance(b)) == (10_000 + 2000, 10_000 + 1200)
    hands = selectors.round_state(Round.objects.get(pk=rnd.pk)).boxes[1].hands
    assert [sorted(h.stakes.values()) for h in hands] == [[[600, 0, 0], [1000, 0, 0]]] * 2


# --- phases ----------------------------------------------------------------------------------


def test_round_phases_follow_the_engine_and_refuse_out_of_phase_moves():
    table = live_table("british_casino")
    a, b = funded_player(), funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    with pytest.raises(WrongPhase):
        services.round_open(actor=DEVICE, table_id=table.pk)  # one live round per table
    with pytest.raises(WrongPhase, match="No card"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="AS")
    bet(rnd, a, 1, 1000)
    bet(rnd, b, 2, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    assert Round.objects.get(pk=rnd.pk).phase == "closed"
    with pytest.raises(WrongPhase, match="not open"):
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(BettingClosed):
        bet(rnd, funded_player(), 3, 1000)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="TS")
    assert Round.objects.get(pk=rnd.pk).phase == "dealing"
    for card in ["7C", "9H", "6C", "9D"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    assert Round.objects.get(pk=rnd.pk).phase == "playing"
    with pytest.raises(NotYourTurn):
        decide(b, "stand")(rnd.pk)  # box 1 plays first
    with pytest.raises(RuleRefused):
        decide(a, "split")(rnd.pk)  # T 6 can't split (422)
    assert services.round_settle(round_id=rnd.pk) == "playing"  # not settled before the dealer
    rnd = drive(rnd, ["8S"], [decide(a, "stand"), decide(b, "stand")])
    phases = list(
        RoundEvent.objects.filter(round=rnd, type="phase").values_list("public__to", flat=True)
    )
    assert phases == ["closed", "dealing", "playing", "dealer", "settling"]
    _settled(rnd)
    with pytest.raises(WrongPhase):
        services.void_request(actor=ACTOR, user=_pit_boss(), round_id=rnd.pk, reason="late")


def test_table_lifecycle_closed_open_paused_closed():
    table = live_table("crown")
    with pytest.raises(WrongPhase):
        services.table_open(actor=ACTOR, table_id=table.pk)
    services.table_pause(actor=ACTOR, table_id=table.pk)
    with pytest.raises(WrongPhase, match="paused"):
        services.round_open(actor=ACTOR, table_id=table.pk)
    services.table_resume(actor=ACTOR, table_id=table.pk)
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    with pytest.raises(WrongPhase, match="in play"):
        services.table_close(actor=ACTOR, table_id=table.pk)
    services.round_close_betting(actor=ACTOR, round_id=rnd.pk)  # no bets: straight to settling
    assert services.round_settle(round_id=rnd.pk) == "settled"
    services.table_close(actor=ACTOR, table_id=table.pk)
    with pytest.raises(WrongPhase):
        services.table_pause(actor=ACTOR, table_id=table.pk)
    assert list(table.changes.values_list("kind", flat=True)).count("status") == 4


def test_limits_and_dealer_changes_are_logged_and_apply_from_the_next_round():
    table = live_table("crown")
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    services.table_limits_set(actor=ACTOR, table_id=table.pk, min_bet=500, max_bet=2000)
    dealer_user = UserFactory(roles=[roles.DEALER])
    services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=dealer_user)
    bet(rnd, funded_player(), 1, 100)  # the round keeps the limits it opened with
    services.round_close_betting(actor=ACTOR, round_id=rnd.pk)
    services.void_request(actor=ACTOR, user=_pit_boss(), round_id=rnd.pk, reason="test")
    services.void_approve(
        actor=ACTOR, user=UserFactory(roles=[roles.FLOOR_SUPERVISOR]), round_id=rnd.pk
    )
    nxt = services.round_open(actor=ACTOR, table_id=table.pk)
    assert nxt.limits["min_bet"] == 500 and nxt.dealer_id == dealer_user.pk
    with pytest.raises(RuleRefused, match="outside the table limits"):
        bet(nxt, funded_player(), 1, 100)
    kinds = set(table.changes.values_list("kind", flat=True))
    assert {"limits", "dealer"} <= kinds
    assert AuditEvent.objects.filter(name="tables.table_changed", table_id=table.pk).count() >= 3


def test_rule_versions_are_immutable_in_the_database():
    version = RuleSetVersion.objects.create(name="x", version=1, document={"name": "x"})
    version.document = {"name": "y"}
    with pytest.raises(IntegrityError), transaction.atomic():
        version.save()
    table = live_table("crown")
    services.round_open(actor=ACTOR, table_id=table.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        RuleSetVersion.objects.filter(pk=table.rule_set_id).delete()
    new = services.rule_set_version_create(
        actor=ACTOR, name="crown", document={**table.rule_set.document, "decks": 6}
    )
    assert new.version == table.rule_set.version + 1


# --- timers ----------------------------------------------------------------------------------


def test_late_bet_refused_with_409_and_audited():
    table = live_table("crown")
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    Round.objects.filter(pk=rnd.pk).update(betting_closes_at=timezone.now() - timedelta(seconds=1))
    player = funded_player()
    with pytest.raises(BettingClosed, match="betting time ended") as refused:
        bet(rnd, player, 1, 1000)
    assert balance(player) == 10_000
    # inside a caller's transaction (here: the test's) the caller records the refusal after
    # rolling back, as the API view does (tests/tables/test_api.py covers that path)
    services.late_bet_record(actor=ACTOR, refusal=refused.value)
    refused = AuditEvent.objects.get(name="tables.late_bet_refused", round_id=rnd.pk)
    assert refused.payload["bet"]["stake"] == 1000
    assert services.round_betting_close_due(round_id=rnd.pk) is True
    assert Round.objects.get(pk=rnd.pk).phase == "settling"  # no bets


def _expire_window(rnd):
    Round.objects.filter(pk=rnd.pk).update(decision_deadline=timezone.now() - timedelta(seconds=1))
    return Round.objects.get(pk=rnd.pk).decision_token


def test_timeout_default_applied_exactly_once_late_twice_or_after_the_player_acted():
    table = live_table("british_casino")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    drive_to_turn = ["TS", "9H", "2C"]  # box 1: T 2 = 12 (may stand, no minimum)
    for card in drive_to_turn:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    token = Round.objects.get(pk=rnd.pk).decision_token
    assert services.round_timeout_apply(round_id=rnd.pk, token=token) is False  # not yet due
    decide(a, "hit")(rnd.pk)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="3C")  # 15
    _expire_window(rnd)
    assert services.round_timeout_apply(round_id=rnd.pk, token=token) is False  # stale window
    token = _expire_window(rnd)
    assert services.round_timeout_apply(round_id=rnd.pk, token=token) is True  # stands
    assert services.round_timeout_apply(round_id=rnd.pk, token=token) is False  # fired twice
    timeouts = Decision.objects.filter(round=rnd, source="timeout")
    assert [(d.action, d.box) for d in timeouts] == [("timeout_default", None)]
    rnd = drive(rnd, ["8D"])
    assert selectors.round_state(rnd).hand(1, 0).status == "stood"


def test_traditional_box_that_does_not_stake_withdraws_on_timeout():
    table = live_table("traditional")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 0)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["5S", "7H"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    token = _expire_window(rnd)
    assert services.round_timeout_apply(round_id=rnd.pk, token=token)
    assert Round.objects.get(pk=rnd.pk).phase == "settling"
    _settled(Round.objects.get(pk=rnd.pk))
    assert balance(a) == 10_000


# --- crash recovery, suspension, server shoe ------------------------------------------------


def test_crash_mid_round_resumes_from_the_persisted_events():
    table = live_table("crown")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["5S", "9H", "5C"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    rnd = Round.objects.get(pk=rnd.pk)
    assert selectors.round_state_replay(rnd).to_json() == rnd.state  # cache == fold(events)
    # a crash inside a transaction leaves no trace: neither the event nor the cache moves
    with pytest.raises(RuntimeError), transaction.atomic():
        decide(a, "hit")(rnd.pk)
        raise RuntimeError("process killed")
    assert Round.objects.get(pk=rnd.pk).seq == rnd.seq
    # a lost cache (a new process, a cold start) is rebuilt from the events and play goes on
    Round.objects.filter(pk=rnd.pk).update(state={})
    rnd = drive(rnd, ["AD"], [decide(a, "double", 1000)])  # a crown 21: no dealer card
    _settled(rnd)
    assert balance(a) == 10_000 + 2000


def test_impossible_card_or_count_mismatch_suspends_until_the_pit_resumes():
    table = live_table("crown")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(RoundSuspended, match="no tens"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="TH")  # spanish shoe
    with pytest.raises(RoundSuspended, match="suspended"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="5S")
    services.round_resume(actor=ACTOR, round_id=rnd.pk, note="rescanned")
    result = services.card_post(actor=DEVICE, round_id=rnd.pk, card="5S", shoe_position=1)
    assert result.target == {"kind": "box", "box": 1, "hand_index": 0, "forced": False}
    with pytest.raises(RoundSuspended, match="count mismatch"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="9H", shoe_position=5)
    assert AuditEvent.objects.filter(name="tables.round_suspended", round_id=rnd.pk).count() == 2
    services.round_resume(actor=ACTOR, round_id=rnd.pk)
    rnd = drive(rnd, ["9H", "5C", "AD"], [decide(a, "double", 1000)])
    _settled(rnd)


def _crown_reader_table(**rules):
    """A reader-fed crown table whose rule set version changes ``rules``."""
    crown, payouts = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    document = eng.RuleSet.from_json(crown.document).replace(**rules).to_json()
    version = services.rule_set_version_create(actor=ACTOR, name="crown", document=document)
    table = TableFactory(rule_set=version, payout_schedule=payouts, card_source="card_reader")
    services.table_open(actor=ACTOR, table_id=table.pk)
    services.shoe_load(actor=DEVICE, table_id=table.pk, shuffle_method="shuffler")
    return table


@pytest.mark.parametrize("policy", ["continuous_shuffler", "fresh_each_round"])
def test_a_reader_shoe_dealt_whole_each_round_takes_its_cards_back(policy):
    """§3.1: a continuous shuffler (or a shoe shuffled before every round) deals every round
    from the whole shoe: the same card comes out more often, over rounds, than the shoe holds
    copies of it, while within a round the shoe's count still holds."""
    table = _crown_reader_table(decks=4, shoe_policy=policy)
    a = funded_player(100_000)
    for _ in range(5):  # the 5th 5S of a 4-deck shoe
        rnd = play_round(
            table, [(a, 1, 1000)], ["5S", "9H", "5C", "AD"], [decide(a, "double", 1000)]
        )
        _settled(rnd)
    assert balance(a) == 100_000 + 5 * 2000
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["5S", "5S", "5S"]:  # box 1, the dealer, box 1
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    decide(a, "hit")(rnd.pk)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="5S")  # the 4th in this round
    decide(a, "hit")(rnd.pk)
    with pytest.raises(RoundSuspended, match="all 4 copies"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="5S")


def test_a_server_shoe_on_a_continuous_shuffler_is_new_for_every_round():
    """§3.1: the shuffler takes each round's cards back, so every round is dealt from the
    whole shoe, committed before its first card; the last one is revealed and verified."""
    crown, _ = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    table = live_table("crown", card_source="server_shoe")
    csm = services.rule_set_version_create(
        actor=ACTOR, name="crown", document={**crown.document, "shoe_policy": "continuous_shuffler"}
    )
    services.table_rules_set(
        actor=ACTOR, table_id=table.pk, rule_set=csm, payout_schedule=table.payout_schedule
    )
    a = funded_player(100_000)
    shoes = []
    for _ in range(3):
        rnd = services.round_open(actor=DEVICE, table_id=table.pk)
        shoes.append(Shoe.objects.get(pk=rnd.shoe_id))
        assert shoes[-1].cards_dealt == 0 and shoes[-1].cut_index == 8 * 48
        bet(rnd, a, 1, 1000)
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
        while (rnd := Round.objects.get(pk=rnd.pk)).phase in Round.LIVE:
            legal = selectors.round_state(rnd).legal_actions()
            decide(a, next((x for x in ("stand", "decline") if x in legal), "hit"))(rnd.pk)
        _settled(rnd)
    assert len({shoe.pk for shoe in shoes}) == 3
    for shoe in shoes:
        shoe.refresh_from_db()
        assert shoe.retired_at is not None and shoe.verified is True


def test_a_reader_shoe_of_other_decks_than_new_rules_is_retired_and_a_new_one_asked_for():
    """The table's rules changed from crown (spanish decks) to british_casino: its loaded
    spanish shoe would refuse every ten of the new game as impossible."""
    table = live_table("crown")
    spanish = Shoe.objects.get(table=table, retired_at__isnull=True)
    rules, payouts = services.preset_versions_ensure(actor=ACTOR, preset="british_casino")
    services.table_rules_set(
        actor=ACTOR, table_id=table.pk, rule_set=rules, payout_schedule=payouts
    )
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    spanish.refresh_from_db()
    assert spanish.retired_at is not None and rnd.shoe_id is None
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(WrongPhase, match="Load a shoe"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="TH")
    services.shoe_load(actor=DEVICE, table_id=table.pk, shuffle_method="shuffler")
    rnd = drive(rnd, ["TH", "9C", "8D", "6S", "6H"], [decide(a, "stand")])  # 18 v 21
    _settled(rnd)
    assert balance(a) == 10_000 - 1000


def test_a_shoe_loaded_mid_round_is_counted_from_its_whole_composition():
    """§8: "on a reader-fed table the dealer loads a new shoe, with its shuffle record, and
    continues". Two aces of spades of a 2-deck shoe are in play: the new shoe's own two may
    still come, a third of the new shoe may not. The cached state stays the fold of the
    events, also when rebuilt from them."""
    table = live_table("online_2deck")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["AS", "AS"]:  # box 1, the dealer
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    services.shoe_load(actor=DEVICE, table_id=table.pk, shuffle_method="hand")
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="AS", shoe_position=1)  # box 1
    rnd = Round.objects.get(pk=rnd.pk)
    assert selectors.round_state_replay(rnd).to_json() == rnd.state
    Round.objects.filter(pk=rnd.pk).update(state={})  # a cold cache: rebuilt from the events
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="AS", shoe_position=2)  # dealer
    decide(a, "hit")(rnd.pk)  # A A
    with pytest.raises(RoundSuspended, match="all 2 copies"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="AS", shoe_position=3)
    rnd = Round.objects.get(pk=rnd.pk)
    assert selectors.round_state_replay(rnd).to_json() == rnd.state


def test_a_cut_card_reader_shoe_remembers_the_cards_of_earlier_rounds():
    table = _crown_reader_table(decks=4)
    a = funded_player(100_000)
    for _ in range(4):
        rnd = play_round(
            table, [(a, 1, 1000)], ["5S", "9H", "5C", "AD"], [decide(a, "double", 1000)]
        )
        _settled(rnd)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(RoundSuspended, match="impossible card 5S"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="5S")


def test_server_shoe_commits_before_the_first_card_and_reveals_at_retirement():
    table = live_table("online_2deck", card_source="server_shoe")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    commitment = shoe.shuffles.get().commitment
    assert len(commitment) == 64 and shoe.cards_dealt == 0
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)  # the server deals at once
    rnd = Round.objects.get(pk=rnd.pk)
    while rnd.phase in Round.LIVE:
        state = selectors.round_state(rnd)
        if state.turn() == eng.Turn(eng.TurnKind.HAND, 1, 0):
            action = "stand" if "stand" in state.legal_actions() else "hit"
            decide(a, action)(rnd.pk)
        rnd = Round.objects.get(pk=rnd.pk)
    with pytest.raises(WrongPhase):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="AS")
    _settled(rnd)
    shoe.refresh_from_db()
    assert shoe.retired_at is not None and shoe.verified is True  # fresh shoe every round
    retired = AuditEvent.objects.get(name="tables.shoe_retired", table_id=table.pk)
    assert retired.payload["reveal"][0]["commitment"] == commitment
    dealt = [e.payload["card"] for e in RoundEvent.objects.filter(round=rnd, type="card_dealt")]
    assert retired.payload["reveal"][0]["order"][: len(dealt)] == dealt


# --- void ------------------------------------------------------------------------------------


def test_void_needs_two_people_decided_outcomes_stand_undecided_stakes_return():
    table = live_table("british_casino")
    a, b, c = funded_player(), funded_player(), funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    bet(rnd, b, 2, 1000)
    bet(rnd, c, 3, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    # box1 Pontoon decided at once (dealer 9), box2 busts, box3 pending
    rnd = Round.objects.get(pk=rnd.pk)
    for card in ["AS", "KS", "5S", "9H", "KC", "QS", "5C"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    decide(b, "hit")(rnd.pk)
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="KH")
    # Someone holding both roles still may not approve their own request.
    pit_boss = UserFactory(roles=[roles.PIT_BOSS, roles.FLOOR_SUPERVISOR])
    supervisor = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    with pytest.raises(PermissionDenied):
        services.void_request(
            actor=ACTOR, user=UserFactory(roles=[roles.DEALER]), round_id=rnd.pk, reason="x"
        )
    services.void_request(actor=ACTOR, user=pit_boss, round_id=rnd.pk, reason="card misdealt")
    with pytest.raises(PermissionDenied):
        services.void_approve(
            actor=ACTOR, user=UserFactory(roles=[roles.PIT_BOSS]), round_id=rnd.pk
        )
    with pytest.raises(FourEyesRequired):
        services.void_approve(actor=ACTOR, user=pit_boss, round_id=rnd.pk)
    assert Round.objects.get(pk=rnd.pk).phase == "playing"  # one person is not enough
    with pytest.raises(Conflict):
        services.void_request(actor=ACTOR, user=pit_boss, round_id=rnd.pk, reason="again")
    rnd = services.void_approve(actor=ACTOR, user=supervisor, round_id=rnd.pk)
    assert rnd.phase == "voided"
    assert (balance(a), balance(b), balance(c)) == (10_000 + 2000, 10_000 - 1000, 10_000)
    with pytest.raises(WrongPhase):
        services.void_approve(actor=ACTOR, user=supervisor, round_id=rnd.pk)
    assert AuditEvent.objects.filter(name="tables.round_voided", round_id=rnd.pk).exists()


def test_pit_replaces_a_server_shoe_between_rounds_and_the_old_one_is_revealed():
    table = live_table("crown", card_source="server_shoe")
    a = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    first = Shoe.objects.get(pk=rnd.shoe_id)
    with pytest.raises(WrongPhase):
        services.shoe_replace(actor=ACTOR, table_id=table.pk)  # not while a round is in play
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    rnd = Round.objects.get(pk=rnd.pk)
    while rnd.phase in Round.LIVE:
        state = selectors.round_state(rnd)
        if state.turn() == eng.Turn(eng.TurnKind.HAND, 1, 0):
            decide(a, "stand")(rnd.pk)
        rnd = Round.objects.get(pk=rnd.pk)
    first.refresh_from_db()
    assert first.retired_at is None  # a cut-card shoe lives on between rounds
    second = services.shoe_replace(actor=ACTOR, table_id=table.pk)
    first.refresh_from_db()
    assert first.retired_at is not None and first.verified is True
    assert second.retired_at is None and len(second.shuffles.get().commitment) == 64
    assert services.round_open(actor=DEVICE, table_id=table.pk).shoe_id == second.pk
    reader = live_table("crown")
    with pytest.raises(WrongPhase):
        services.shoe_replace(actor=ACTOR, table_id=reader.pk)


def _pit_boss():
    return UserFactory(roles=[roles.PIT_BOSS])


def test_traditional_cards_lie_face_down_but_to_their_own_player_until_the_round_ends():
    table = live_table("traditional")
    a, b = funded_player(), funded_player()
    seen = []

    def look(player):
        def check(round_id):
            rnd = Round.objects.get(pk=round_id)
            view = selectors.round_public_state(rnd, player_id=player.pk)
            seen.append({box["number"]: box["hands"][0]["cards"] for box in view["boxes"]})

        return check

    rnd = play_round(
        table,
        [(a, 1, 0), (b, 2, 0)],
        ["KS", "5H", "7C", "6D", "4C", "9S", "2C", "7H"],
        [
            decide(a, "stake", 500),
            decide(b, "stake", 500),
            look(b),  # b looks at the table while a is to play
            look(a),
            decide(a, "buy", 100),
            decide(a, "stand"),
            decide(b, "twist"),
            look(a),
            decide(b, "stand"),
            dealer("stand"),
        ],
    )
    by_b, by_a, later = seen
    assert by_b[1] == [None, None] and by_b[2] == ["5H", "4C"]  # a's cards face down to b
    assert by_a[1] == ["KS", "6D"] and by_a[2] == [None, None]
    assert later[1] == ["KS", "6D", "2C"]  # a sees its own, bought card included
    assert later[2] == [None, None, "7H"]  # b's twisted card is dealt face up
    public = selectors.round_public_state(Round.objects.get(pk=rnd.pk))
    assert [box["hands"][0]["cards"] for box in public["boxes"]] == [
        ["KS", "6D", "2C"],
        ["5H", "4C", "7H"],
    ]  # the round is over: every card is shown


def test_traditional_stream_shows_face_down_cards_only_when_the_round_ends():
    table = live_table("traditional")
    a = funded_player()
    rnd = play_round(
        table,
        [(a, 1, 0)],
        ["KS", "7C", "6D", "9S", "2C", "7H"],
        [decide(a, "stake", 500), decide(a, "buy", 100), decide(a, "twist")],
    )  # 16, bought 2 -> 18, twisted 7 -> bust: the banker need not play
    stream = [e.public for e in RoundEvent.objects.filter(round=rnd).order_by("txid", "id")]
    to_box = [e["card"] for e in stream if e["type"] == "card_dealt" and e["target"]["box"]]
    assert to_box == [None, None, None, "7H"]  # two first cards and the bought one face down
    revealed = next(e for e in stream if e["type"] == "hands_revealed")
    assert revealed["boxes"] == {"1": [["KS", "6D", "2C", "7H"]]}


def test_server_shoe_cut_card_finishes_the_round_then_a_new_shuffled_shoe_follows(monkeypatch):
    """§8: when the cut card comes out the round is dealt to its end from the same shoe; the
    next round gets a new shoe (the old one retired and revealed), committed before its first
    card. Seeded shuffles; one deck cut at 25% (13 cards) so the cut card comes out mid-round
    within a few rounds."""
    shuffle = eng.shuffle_shoe
    rng = random.Random(3)
    monkeypatch.setattr(
        eng, "shuffle_shoe", lambda *, rule_set: shuffle(rule_set=rule_set, rng=rng)
    )
    table = live_table("british_casino", card_source="server_shoe")
    short = services.rule_set_version_create(
        actor=ACTOR,
        name="british_casino",
        document={**table.rule_set.document, "decks": 1, "penetration_percent": 25},
    )
    services.table_rules_set(
        actor=ACTOR, table_id=table.pk, rule_set=short, payout_schedule=table.payout_schedule
    )
    a = funded_player(100_000)

    def play(rnd):
        bet(rnd, a, 1, 1000)
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)  # the server deals
        while (rnd := Round.objects.get(pk=rnd.pk)).phase in Round.LIVE:
            legal = selectors.round_state(rnd).legal_actions()
            action = next((x for x in ("stand", "decline") if x in legal), "hit")
            decide(a, action)(rnd.pk)
        return _settled(rnd)

    def dealt_from(rnd):
        """The round's cards and the shoe ids that dealt them (from each card event's actor)."""
        rows = RoundEvent.objects.filter(round=rnd, type="card_dealt").order_by("id")
        cards = [e.payload["card"] for e in rows]
        return cards, {int(re.match(r"server shoe (\d+) ", e.actor).group(1)) for e in rows}

    first_round = services.round_open(actor=DEVICE, table_id=table.pk)
    shoe = Shoe.objects.get(pk=first_round.shoe_id)
    assert shoe.cut_index == 13 and not shoe.cut_card_out
    rnd, played = first_round, 0
    while True:
        assert rnd.shoe_id == shoe.pk  # (3) no round before the cut card changed shoe
        assert Shoe.objects.filter(table=table).count() == 1
        before = shoe.position
        assert before < shoe.cut_index
        rnd = play(rnd)
        played += 1
        cards, shoes = dealt_from(rnd)
        shoe.refresh_from_db()
        # (1) every card of the round came from this shoe, in its order, one after another
        assert shoes == {shoe.pk} and rnd.shoe_id == shoe.pk
        assert cards == shoe.order[before : shoe.position]
        assert shoe.retired_at is None  # a shoe lives on between rounds until the cut card
        if shoe.cut_card_out:
            break
        assert played < 10
        rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    assert played >= 2 and before < shoe.cut_index < shoe.position  # cut card came out mid-round
    assert rnd.phase == Round.Phase.SETTLED

    # (2) the next round: a new shoe, the old one retired and its order revealed and verified
    nxt = services.round_open(actor=DEVICE, table_id=table.pk)
    shoe.refresh_from_db()
    assert nxt.shoe_id != shoe.pk
    assert shoe.retired_at is not None and shoe.verified is True
    new = Shoe.objects.get(pk=nxt.shoe_id)
    assert new.retired_at is None and new.source == Shoe.Source.SERVER
    assert new.position == 0 and new.cards_dealt == 0 and new.cut_index == 13
    record = new.shuffles.get()
    assert len(record.commitment) == 64
    opened = RoundEvent.objects.get(round=nxt, type="round_opened")
    assert opened.payload["shoe_commitment"] == record.commitment
    shuffled = AuditEvent.objects.filter(name="tables.shoe_shuffled", table_id=table.pk)
    assert [e.payload["shoe_id"] for e in shuffled.order_by("id")] == [shoe.pk, new.pk]
    nxt = play(nxt)
    cards, shoes = dealt_from(nxt)
    assert shoes == {new.pk} and cards == new.order[: len(cards)]
    assert RoundEvent.objects.filter(round=nxt, type="card_dealt").earliest("id").id > opened.id
    assert eng.verify_commitment(record.sealed_order, record.salt, record.commitment)
