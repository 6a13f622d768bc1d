"""The round as an integrator reads it (issue 16): whose turn by bet and player, what the round
wants next (also in the card's answer), every own player's actions, own face-down cards, and
per-bet outcomes equal to the ledger's legs."""

import pytest
from django.db.models import Sum

from casino.api import roles
from ledger.models import Leg
from tables import services
from tests.factories import funded_player, live_table

from .conftest import ACTOR, DEVICE, bet, decide

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    """The table the ``dealer_device`` token is bound to: a reader-fed british_casino table."""
    return live_table("british_casino")


def _post(client, url, data=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url, data or {}, format="json", **headers)


def test_turns_windows_actions_next_and_outcomes(client_for, table, operator):
    device = client_for(roles.DEALER_DEVICE)
    key = client_for(roles.OPERATOR_INTEGRATION)
    pit = client_for(roles.PIT_BOSS)
    a, c, b = (funded_player(operator=operator) for _ in range(3))
    stranger = funded_player()  # another operator's player
    rid = _post(device, f"/api/v1/tables/{table.pk}/rounds/").json()["id"]
    base = f"/api/v1/rounds/{rid}"
    refs = {}
    for player, box, stake, behind in ((a, 1, 1000, False), (c, 1, 500, True), (b, 2, 1000, False)):
        placed = _post(
            key,
            f"{base}/bets/",
            {"player_id": player.pk, "box": box, "stake": stake, "behind": behind},
            key=f"bet-{player.pk}",
        )
        assert placed.status_code == 201, placed.json()
        refs[player.pk] = placed.json()["id"]
    refs[stranger.pk] = services.bet_place(
        actor=ACTOR, round_id=rid, player=stranger, box=3, stake=1000
    ).ref
    view = key.get(f"{base}/").json()
    assert view["next"]["kind"] == "bets" and view["outcomes"] is None
    assert _post(device, f"{base}/close-betting/").status_code == 200
    # Box 1 19, box 2 16, box 3 17; the dealer's ace opens the insurance window for every bet.
    answers = [
        _post(device, f"{base}/cards/", {"card": card}).json()
        for card in ["9C", "8C", "7C", "AS", "KD", "8D", "KH"]
    ]
    assert answers[0]["next"]["kind"] == "card"
    assert answers[0]["next"]["card"] == {"kind": "box", "box": 2, "hand_index": 0, "forced": False}
    window = answers[-1]["next"]
    assert window["kind"] == "decision" and window["turn"]["kind"] == "insurance"
    # the device sees no player
    assert {w["player_id"] for w in window["turn"]["waiting_for"]} == {None}

    view = key.get(f"{base}/").json()
    turn = view["turn"]
    assert turn["kind"] == "insurance" and set(turn["bets"]) == set(refs.values())
    waiting = {w["bet_id"]: w["player_id"] for w in turn["waiting_for"]}
    assert waiting == {
        refs[a.pk]: a.pk,
        refs[c.pk]: c.pk,
        refs[b.pk]: b.pk,
        refs[stranger.pk]: None,  # anonymous to this operator
    }
    assert turn["deadline"] is not None and view["next"]["kind"] == "decision"
    # every own player's actions at once, without ?player_id=; none of the stranger's
    mine = {(x["player_id"], x["bet_id"], x["action"]) for x in view["your_actions"]}
    assert mine == {
        (p.pk, refs[p.pk], action) for p in (a, c, b) for action in ("decline", "insurance")
    }
    insurance = next(
        x for x in view["your_actions"] if (x["bet_id"], x["action"]) == (refs[c.pk], "insurance")
    )
    assert (insurance["amount_min"], insurance["amount_max"]) == (1, 250)
    one = key.get(f"{base}/", {"player_id": b.pk}).json()["your_actions"]
    assert {x["bet_id"] for x in one} == {refs[b.pk]}
    # casino staff see every player
    staff = pit.get(f"{base}/").json()["turn"]["waiting_for"]
    assert {w["player_id"] for w in staff} == {a.pk, b.pk, c.pk, stranger.pk}

    decisions = f"{base}/decisions/"
    for player, action, amount in (
        (a, "decline", None),
        (c, "insurance", 200),
        (b, "decline", None),
    ):
        body = {"player_id": player.pk, "action": action, "bet_id": refs[player.pk]}
        if amount:
            body["amount"] = amount
        assert _post(key, decisions, body, key=f"ins-{player.pk}").status_code == 200
    services.decision_make(
        actor=ACTOR, round_id=rid, player=stranger, action="decline", bet_ref=refs[stranger.pk]
    )
    view = key.get(f"{base}/").json()
    assert view["turn"]["kind"] == "hand" and view["turn"]["box"] == 1
    assert view["turn"]["waiting_for"] == [
        {"bet_id": refs[a.pk], "player_id": a.pk, "box": 1, "hand_index": 0}
    ]
    assert {x["bet_id"] for x in view["your_actions"]} == {refs[a.pk]}
    assert {x["player_id"] for x in view["your_actions"]} == {a.pk}

    stand = {"player_id": a.pk, "action": "stand"}
    assert _post(key, decisions, stand, key="stand-a").status_code == 200
    hit = {"player_id": b.pk, "action": "hit"}
    assert _post(key, decisions, hit, key="hit-b").status_code == 200
    assert key.get(f"{base}/").json()["next"]["card"]["box"] == 2
    posted = _post(device, f"{base}/cards/", {"card": "2H"}).json()  # box 2: 18
    assert posted["target"]["box"] == 2 and posted["next"]["kind"] == "decision"
    assert posted["next"]["turn"]["waiting_for"][0]["bet_id"] == refs[b.pk]
    assert _post(key, decisions, {"player_id": b.pk, "action": "stand"}, "s-b").status_code == 200
    services.decision_make(actor=ACTOR, round_id=rid, player=stranger, action="stand")
    last = _post(device, f"{base}/cards/", {"card": "7D"}).json()  # dealer soft 18
    assert last["next"]["kind"] == "settlement"
    services.round_settle(round_id=rid)

    view = key.get(f"{base}/").json()
    assert view["next"] == {"kind": "nothing", "card": None, "turn": None, "deadline": None}
    outcomes = {o["bet_id"]: o for o in view["outcomes"]}
    assert outcomes[refs[a.pk]]["result"] == "win" and outcomes[refs[a.pk]]["net"] == 1000
    assert outcomes[refs[b.pk]]["result"] == "lose" and outcomes[refs[b.pk]]["paid"] == 0
    insured = outcomes[refs[c.pk]]  # won 500, lost the 200 insurance
    assert insured["result"] == "mixed"
    assert {line["result"] for line in insured["lines"]} == {"win", "insurance_lose"}
    assert (insured["stake"], insured["paid"], insured["net"]) == (700, 1000, 300)
    assert outcomes[refs[stranger.pk]]["player_id"] is None
    assert {o["player_id"] for o in view["outcomes"]} == {a.pk, b.pk, c.pk, None}
    # each outcome is what the ledger moved for the bet: its wallet's legs in this round
    for ref, outcome in outcomes.items():
        legs = Leg.objects.filter(
            transaction__round_id=rid, bet_ref=ref, account__kind="wallet"
        ).values_list("amount", flat=True)
        assert outcome["currency"] == "EUR"
        assert sum(x for x in legs if x > 0) == outcome["paid"], ref
        assert -sum(x for x in legs if x < 0) == outcome["stake"], ref
        settled = Leg.objects.filter(
            transaction__reference=f"settlement:round:{rid}:EUR",
            bet_ref=ref,
            account__kind="wallet",
        ).aggregate(total=Sum("amount"))["total"]
        assert (settled or 0) == outcome["paid"]


def test_traditional_staking_window_and_own_face_down_cards(client_for, operator):
    table = live_table("traditional")
    key = client_for(roles.OPERATOR_INTEGRATION)
    a, b = funded_player(operator=operator), funded_player(operator=operator)
    stranger = funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    refs = {p.pk: bet(rnd, p, box, 0).ref for p, box in ((a, 1), (b, 2), (stranger, 3))}
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["KS", "5H", "9D", "7C"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    view = key.get(f"/api/v1/rounds/{rnd.pk}/").json()
    assert view["turn"]["kind"] == "staking"
    assert {w["bet_id"]: w["player_id"] for w in view["turn"]["waiting_for"]} == {
        refs[a.pk]: a.pk,
        refs[b.pk]: b.pk,
        refs[stranger.pk]: None,
    }
    stakes = {(x["player_id"], x["action"]) for x in view["your_actions"]}
    assert stakes == {(p.pk, act) for p in (a, b) for act in ("stake", "withdraw")}
    # the operator sees both its boxes' face-down first cards, not the stranger's
    cards = [box["hands"][0]["cards"] for box in view["boxes"]]
    assert cards == [["KS"], ["5H"], [None]]
    # a single player's view shows that player's box only
    own = key.get(f"/api/v1/rounds/{rnd.pk}/", {"player_id": a.pk}).json()
    assert [box["hands"][0]["cards"] for box in own["boxes"]] == [["KS"], [None], [None]]
    # a casino reader sees no face-down card without naming the player
    staff = client_for(roles.AUDITOR).get(f"/api/v1/rounds/{rnd.pk}/").json()
    assert [box["hands"][0]["cards"] for box in staff["boxes"]] == [[None], [None], [None]]


def test_the_cards_answer_names_a_forced_draw_next(client_for, operator):
    table = live_table("online_2deck")
    from casino.api.services import device_token_issue
    from tests.conftest import bearer_client

    _, raw = device_token_issue(actor=ACTOR, table=table, device_id="reader-rv")
    device = bearer_client(raw)
    a = funded_player(operator=operator)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    ref = bet(rnd, a, 1, 1000).ref
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    base = f"/api/v1/rounds/{rnd.pk}"
    for code in ["2S", "9H", "3C", "8D"]:
        assert _post(device, f"{base}/cards/", {"card": code}).status_code == 200
    decide(a, "double")(rnd.pk)
    after_double = _post(device, f"{base}/cards/", {"card": "2D"}).json()  # hard 7: draws on
    assert after_double["target"]["forced"] is False
    assert after_double["next"]["kind"] == "card"
    assert after_double["next"]["card"] == {
        "kind": "box",
        "box": 1,
        "hand_index": 0,
        "forced": True,
    }
    forced = _post(device, f"{base}/cards/", {"card": "9D"}).json()  # hard 16
    assert forced["target"]["forced"] is True
    assert forced["next"]["kind"] == "decision"
    assert forced["next"]["turn"]["waiting_for"] == [
        {"bet_id": ref, "player_id": None, "box": 1, "hand_index": 0}
    ]
    view = client_for(roles.OPERATOR_INTEGRATION).get(f"{base}/").json()
    assert view["turn"]["waiting_for"][0]["player_id"] == a.pk
    assert view["boxes"][0]["hands"][0]["forced_cards"] == [3]


@pytest.mark.parametrize(
    ("preset", "mode", "rtp_known"),
    [("traditional", "join_then_stake", True), ("crown", "stake_with_bet", True)],
)
def test_operators_read_a_tables_rules(client_for, preset, mode, rtp_known):
    from tables.models import RtpFigure

    table = live_table(preset, betting_seconds=20, decision_seconds=30)
    key = client_for(roles.OPERATOR_INTEGRATION)
    before = RtpFigure.objects.count()
    rules = key.get(f"/api/v1/tables/{table.pk}/rules/")
    assert rules.status_code == 200, rules.json()
    body = rules.json()
    assert body["rule_set"]["id"] == table.rule_set_id
    assert body["rule_set"]["document"] == table.rule_set.document
    assert body["payout_schedule"]["document"] == table.payout_schedule.document
    assert body["rule_set"]["label"] == str(table.rule_set)
    assert body["staking"]["mode"] == mode
    assert body["staking"]["min_bet"] == table.min_bet and body["staking"]["currency"] == "EUR"
    assert body["timers"]["betting_seconds"] == 20 and body["timers"]["decision_seconds"] == 30
    assert (body["theoretical_rtp"] is not None) is rtp_known
    assert RtpFigure.objects.count() == before  # a read queues and stores nothing
    if preset == "traditional":
        assert "stake: 0" in body["staking"]["description"]
        assert body["decisions"]["hand"] == ["stand", "buy", "twist", "split"]
        assert body["decisions"]["windows"] == ["stake", "withdraw"]
    else:
        assert {"hit", "double", "surrender", "split"} <= set(body["decisions"]["hand"])
        assert body["decisions"]["windows"] == ["match", "decline"]
        assert body["staking"]["bets_per_box"] == 3
    # the device of another table does not see it; the pit and auditors do
    assert (
        client_for(roles.DEALER_DEVICE).get(f"/api/v1/tables/{table.pk}/rules/").status_code == 404
    )
    assert client_for(roles.AUDITOR).get(f"/api/v1/tables/{table.pk}/rules/").status_code == 200
    assert client_for("anonymous").get(f"/api/v1/tables/{table.pk}/rules/").status_code == 401
