"""Who did each event and on whose behalf, per card source: the server shoe deals for the dealer
of record (set off by the key, device or timer whose action made the cards due), the reader's
device posts cards for the dealer of record, an operator's key decides for its player, the
decision timer applies defaults, the pit's staff act as themselves. The replay shows the same.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from forensics.replay import round_replay
from tables import selectors, services
from tables.models import Round, Shoe
from tests.factories import UserFactory, funded_player, live_table
from tests.tables.conftest import DEVICE

API_KEY = Actor(kind="api_key", id="41", label="demo integration (ck_demo)")
CARD = "tables.round_event.card_dealt"


def _with_dealer(table):
    dealer = UserFactory(username=f"dealer-{table.pk}", roles=[roles.DEALER])
    services.table_dealer_assign(actor=Actor.system("tests"), table_id=table.pk, dealer=dealer)
    return dealer


def _ref(actor_kind, label):
    return {"kind": actor_kind, "label": label}


def _strip(ref):
    return {"kind": ref["kind"], "label": ref["label"]} if ref else None


def _cards(rnd):
    return list(AuditEvent.objects.filter(round_id=rnd.pk, name=CARD).order_by("id"))


@pytest.mark.django_db
def test_server_shoe_cards_are_dealt_by_the_shoe_for_the_dealer_of_record():
    table = live_table("online_2deck", card_source="server_shoe")
    dealer = _with_dealer(table)
    player = funded_player()
    hit_cards = []
    for _ in range(20):  # until a round where the player hits (a Pontoon needs no decision)
        rnd = services.round_open(actor=DEVICE, table_id=table.pk)
        services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=100)
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
        rnd = Round.objects.get(pk=rnd.pk)
        while rnd.phase in Round.LIVE:
            state = selectors.round_state(rnd)
            hand = state.hand(1, 0)
            legal = state.legal_actions()
            # a soft 15 such as A-4 may have to hit under the variant's rules
            hit = "hit" in legal and (state.value(hand).total < 15 or "stand" not in legal)
            before = len(_cards(rnd))
            services.decision_make(
                actor=API_KEY, round_id=rnd.pk, player=player, action="hit" if hit else "stand"
            )
            if hit:
                hit_cards.append(_cards(rnd)[before])
            rnd = Round.objects.get(pk=rnd.pk)
        if hit_cards:
            break
    assert hit_cards, "no round with a hit in 20 rounds"
    cards = _cards(rnd)
    shoe_label = f"server shoe {rnd.shoe_id} of table {table.code}"
    for event in cards:  # the first cards, the hit's card, the dealer's own cards
        assert (event.actor_kind, event.actor_id, event.actor_label) == (
            "server_shoe",
            str(rnd.shoe_id),
            shoe_label,
        )
        behalf = event.payload["attribution"]["on_behalf_of"]
        assert behalf == {"kind": "user", "id": str(dealer.pk), "label": dealer.username}
    first = cards[0].payload["attribution"]["via"]
    assert (first["kind"], first["label"]) == ("device", DEVICE.label)  # closing betting
    after_hit = hit_cards[-1].payload["attribution"]["via"]
    assert (after_hit["kind"], after_hit["id"]) == ("api_key", API_KEY.id)
    assert after_hit["on_behalf_of"]["id"] == str(player.pk)
    # the player's decisions and bet: the operator's key, on behalf of the player
    for name in ("tables.round_event.decision", "tables.round_event.bet_placed"):
        event = AuditEvent.objects.filter(round_id=rnd.pk, name=name).first()
        assert (event.actor_kind, event.actor_id) == ("api_key", API_KEY.id)
        assert _strip(event.payload["attribution"]["on_behalf_of"]) == _ref(
            "player", player.external_ref
        )
    # the replay answers "who dealt this card?" from the audit log
    services.round_settle(round_id=rnd.pk)
    replay = round_replay(round_id=rnd.pk)
    dealt = [s for s in replay["steps"] if s["type"] == "card_dealt"]
    assert dealt and all(
        s["attribution"]["actor"]["kind"] == "server_shoe"
        and s["attribution"]["on_behalf_of"]["label"] == dealer.username
        for s in dealt
    )
    assert "for user " + dealer.username in dealt[0]["actor"]  # the round's own event row


@pytest.mark.django_db
def test_server_shoe_without_a_dealer_of_record_deals_for_the_table():
    table = live_table("crown", card_source="server_shoe", dealer=None)
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=100)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    [*_, last] = _cards(rnd)
    assert last.actor_kind == "server_shoe"
    assert last.payload["attribution"]["on_behalf_of"] == {
        "kind": "table",
        "id": str(table.pk),
        "label": table.code,
    }


@pytest.mark.django_db
def test_reader_fed_cards_are_posted_by_the_device_for_the_dealer_of_record():
    table = live_table("british_casino")
    dealer = _with_dealer(table)
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=100)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ("7S", "9H", "5C"):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    cards = _cards(rnd)
    assert len(cards) == 3
    for event in cards:
        assert (event.actor_kind, event.actor_id) == ("device", DEVICE.id)
        assert _strip(event.payload["attribution"]["on_behalf_of"]) == _ref("user", dealer.username)
        assert "via" not in event.payload["attribution"]
    replay = round_replay(round_id=rnd.pk)
    step = next(s for s in replay["steps"] if s["type"] == "card_dealt")
    assert step["attribution"]["actor"]["label"] == DEVICE.label
    assert step["shoe"]["position"] == 1 and step["shoe"]["in_revealed_order"] is None


def _time_out(rnd: Round):
    Round.objects.filter(pk=rnd.pk).update(decision_deadline=timezone.now() - timedelta(seconds=1))
    return services.round_timeout_apply(round_id=rnd.pk, token=rnd.decision_token)


@pytest.mark.django_db
def test_a_timeout_default_is_the_timers_and_the_cards_it_makes_due_are_the_shoes():
    table = live_table("online_2deck", card_source="server_shoe")
    player = funded_player()
    for _ in range(40):
        rnd = services.round_open(actor=DEVICE, table_id=table.pk)
        services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=100)
        services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
        rnd = Round.objects.get(pk=rnd.pk)
        # a player's decision is due and the dealer will draw after it (below the total the
        # dealer stands on): a dealer already standing would deal no card after the default
        if rnd.phase in Round.LIVE and rnd.decision_token is not None:
            state = selectors.round_state(rnd)
            if state.dealer_value().total < state.rules.dealer_stand_total:
                break
        while rnd.phase in Round.LIVE and rnd.decision_token is not None:  # play it out
            _time_out(rnd)
            rnd = Round.objects.get(pk=rnd.pk)
        if rnd.phase == Round.Phase.SETTLING:
            services.round_settle(round_id=rnd.pk)
    before = len(_cards(rnd))
    assert _time_out(rnd)
    default = AuditEvent.objects.get(round_id=rnd.pk, name="tables.round_event.timeout_default")
    assert (default.actor_kind, default.actor_label) == ("system", "tables.decision_timer")
    assert "attribution" not in default.payload
    later = _cards(rnd)[before:]
    assert later, "the default (stand) lets the dealer draw, or deals the next hand"
    assert all(e.actor_kind == "server_shoe" for e in later)
    assert later[0].payload["attribution"]["via"]["label"] == "tables.decision_timer"


@pytest.mark.django_db
def test_pit_actions_are_the_staff_members():
    table = live_table("british_casino")
    pit_boss = UserFactory(roles=[roles.PIT_BOSS])
    staff = Actor.for_user(pit_boss, request_id="req-1")
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=100)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(Exception):  # noqa: B017 - the count mismatch suspends the round
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="7S", shoe_position=9)
    services.round_resume(actor=staff, round_id=rnd.pk, note="recounted")
    resumed = AuditEvent.objects.get(round_id=rnd.pk, name="tables.round_resumed")
    assert (resumed.actor_kind, resumed.actor_id, resumed.actor_label) == (
        "user",
        str(pit_boss.pk),
        pit_boss.username,
    )
    assert resumed.request_id == "req-1" and "attribution" not in resumed.payload
    replay = round_replay(round_id=rnd.pk)
    row = next(e for e in replay["integrity"]["events"] if e["name"] == "tables.round_resumed")
    assert row["attribution"]["actor"] == {
        "kind": "user",
        "id": str(pit_boss.pk),
        "label": pit_boss.username,
    }


@pytest.mark.django_db
def test_the_replay_carries_the_shoe_proof_and_checks_every_card_against_the_reveal():
    table = live_table("online_2deck", card_source="server_shoe")  # a fresh shoe each round
    player = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=100)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    rnd = Round.objects.get(pk=rnd.pk)
    while rnd.phase in Round.LIVE:
        # the shuffle is random: stand where the rules let the hand stand, else draw
        legal = selectors.round_state(rnd).legal_actions()
        action = "stand" if "stand" in legal else "hit"
        services.decision_make(actor=API_KEY, round_id=rnd.pk, player=player, action=action)
        rnd = Round.objects.get(pk=rnd.pk)
    services.round_settle(round_id=rnd.pk)
    services.round_open(actor=DEVICE, table_id=table.pk)  # retires (reveals) the old shoe
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    assert shoe.retired_at is not None
    replay = round_replay(round_id=rnd.pk)
    [proof] = replay["shoes"]
    assert proof == selectors.shoe_proof(shoe)
    [shuffle] = proof["shuffles"]
    assert proof["verified"] is True and shuffle["verified"] is True
    assert shuffle["commitment"] == shoe.shuffles.get().commitment
    assert shuffle["committed_before_first_card"] and shuffle["commitment_audit_event_id"]
    assert shuffle["committed_at"] < shuffle["first_card_at"]
    dealt = [s for s in replay["steps"] if s["type"] == "card_dealt"]
    for n, step in enumerate(dealt, start=1):
        assert step["shoe"]["position"] == n and step["shoe"]["in_revealed_order"] is True
        assert shuffle["order"][n - 1] == step["card"]
    assert replay["ok"], replay["differences"]
    # a revealed order that does not hold the dealt card is a difference naming the event
    order = list(shuffle["order"])
    order[0], order[1] = order[1], order[0]
    if order[0] != shuffle["order"][0]:
        shoe.shuffles.update(sealed_order=order)
        replay = round_replay(round_id=rnd.pk)
        kinds = {d["kind"] for d in replay["differences"]}
        assert "card_not_in_shoe_order" in kinds
        assert replay["shoes"][0]["verified"] is False
