"""The tables API end to end: roles, scoping, idempotent bets, cards, decisions, the live
stream, late bets, void with two people."""

import json

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from casino.api import roles
from casino.errors import ValidationFailed
from conftest import wait_until
from tables import selectors, services
from tables.models import Round, RoundEvent
from tests.factories import TableFactory, UserFactory, funded_player, live_table
from tests.helpers.streams import streamed_content

from .conftest import ACTOR, DEVICE, balance

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    """The table the ``dealer_device`` token is bound to: a reader-fed british_casino table."""
    return live_table("british_casino")


def _post(client, url, data=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url, data or {}, format="json", **headers)


def _stream(response) -> str:
    return streamed_content(response).decode()


def test_a_round_through_the_api(client_for, table, operator):
    device = client_for(roles.DEALER_DEVICE)
    integration = client_for(roles.OPERATOR_INTEGRATION)
    a, b = funded_player(operator=operator), funded_player(operator=operator)

    opened = _post(device, f"/api/v1/tables/{table.pk}/rounds/")
    assert opened.status_code == 201, opened.json()
    rid = opened.json()["id"]
    bet = {"player_id": a.pk, "box": 1, "stake": 1000}
    first = _post(integration, f"/api/v1/rounds/{rid}/bets/", bet, key="bet-a")
    again = _post(integration, f"/api/v1/rounds/{rid}/bets/", bet, key="bet-a")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and again["Idempotent-Replayed"] == "true"
    assert balance(a) == 9000  # debited once
    assert (
        _post(integration, f"/api/v1/rounds/{rid}/bets/", {**bet, "player_id": b.pk, "box": 2}, "b")
    ).status_code == 201
    assert _post(device, f"/api/v1/rounds/{rid}/close-betting/").status_code == 200

    late = _post(integration, f"/api/v1/rounds/{rid}/bets/", {**bet, "box": 3}, key="late")
    assert late.status_code == 409 and late.json()["type"].endswith("/betting-closed")
    assert AuditEvent.objects.filter(name="tables.late_bet_refused", round_id=rid).exists()

    targets = []
    for card in ["AS", "7C", "9H", "KC", "9D"]:
        posted = _post(device, f"/api/v1/rounds/{rid}/cards/", {"card": card})
        assert posted.status_code == 200, posted.json()
        targets.append(posted.json()["target"])
    assert targets[0] == {"kind": "box", "box": 1, "hand_index": 0, "forced": False}
    assert targets[2] == {"kind": "dealer", "box": None, "hand_index": None, "forced": False}

    state = integration.get(f"/api/v1/tables/{table.pk}/round/", {"player_id": b.pk}).json()
    assert state["turn"]["kind"] == "hand" and state["turn"]["box"] == 2
    assert {x["action"] for x in state["your_actions"]} >= {"hit", "stand"}
    assert state["dealer"]["cards"] == ["9H"]
    not_yours = integration.get(f"/api/v1/rounds/{rid}/", {"player_id": a.pk}).json()
    assert not_yours["your_actions"] == []

    wrong = _post(
        integration, f"/api/v1/rounds/{rid}/decisions/", {"player_id": a.pk, "action": "hit"}, "x"
    )
    assert wrong.status_code == 409 and wrong.json()["type"].endswith("/not-your-turn")
    stand = {"player_id": b.pk, "action": "stand"}
    assert _post(integration, f"/api/v1/rounds/{rid}/decisions/", stand, "s").status_code == 200
    assert _post(device, f"/api/v1/rounds/{rid}/cards/", {"card": "8S"}).status_code == 200
    assert Round.objects.get(pk=rid).phase == "settling"

    history = device.get(f"/api/v1/tables/{table.pk}/events/", HTTP_LAST_EVENT_ID="0-0")
    assert history.status_code == 200 and history["Content-Type"] == "text/event-stream"
    text = _stream(history)
    assert "event: card_dealt" in text and "event: round_opened" in text
    ids = [line[4:] for line in text.splitlines() if line.startswith("id: ")]
    assert len(ids) == RoundEvent.objects.filter(table=table).count()
    resumed = _stream(device.get(f"/api/v1/tables/{table.pk}/events/", HTTP_LAST_EVENT_ID=ids[-2]))
    assert [line for line in resumed.splitlines() if line.startswith("id: ")] == [f"id: {ids[-1]}"]
    # Without an id the stream starts from now: the current round, current to the last event.
    fresh = _stream(device.get(f"/api/v1/tables/{table.pk}/events/")).splitlines()
    assert fresh[2:4] == [f"id: {ids[-1]}", "event: snapshot"]
    snapshot = json.loads(fresh[4][len("data: ") :])
    assert snapshot == device.get(f"/api/v1/rounds/{rid}/").json()
    assert [line for line in fresh if line.startswith("id: ")] == [f"id: {ids[-1]}"]


def test_roles_and_scopes(client_for, table, operator):
    device = client_for(roles.DEALER_DEVICE)
    other = TableFactory()
    assert device.get(f"/api/v1/tables/{other.pk}/").status_code == 404
    assert [t["id"] for t in device.get("/api/v1/tables/").json()["results"]] == [table.pk]
    assert _post(device, f"/api/v1/tables/{table.pk}/pause/").status_code == 403
    assert _post(client_for(roles.AUDITOR), f"/api/v1/tables/{table.pk}/rounds/").status_code == 403
    rid = _post(device, f"/api/v1/tables/{table.pk}/rounds/").json()["id"]
    stranger = funded_player()  # another operator's player
    bet = {"player_id": stranger.pk, "box": 1, "stake": 1000}
    response = _post(
        client_for(roles.OPERATOR_INTEGRATION), f"/api/v1/rounds/{rid}/bets/", bet, "k"
    )
    assert response.status_code == 404
    reason = {"reason": "dealer error"}
    assert (
        _post(client_for(roles.DEALER), f"/api/v1/rounds/{rid}/void-request/", reason).status_code
        == 403
    )
    pit = client_for(roles.PIT_BOSS)
    assert _post(pit, f"/api/v1/rounds/{rid}/void-request/", reason).status_code == 201
    assert _post(pit, f"/api/v1/rounds/{rid}/void-approve/").status_code == 403
    approved = _post(client_for(roles.FLOOR_SUPERVISOR), f"/api/v1/rounds/{rid}/void-approve/")
    assert approved.status_code == 200 and approved.json()["phase"] == "voided"


def test_pit_operates_the_table(client_for, table):
    pit = client_for(roles.PIT_BOSS)
    limits = _post(pit, f"/api/v1/tables/{table.pk}/limits/", {"min_bet": 200, "max_bet": 500})
    assert limits.status_code == 200 and limits.json()["min_bet"] == 200
    bad = _post(pit, f"/api/v1/tables/{table.pk}/limits/", {"min_bet": 900, "max_bet": 500})
    assert bad.status_code == 400
    assert _post(pit, f"/api/v1/tables/{table.pk}/pause/").json()["status"] == "paused"
    assert _post(pit, f"/api/v1/tables/{table.pk}/pause/").status_code == 409
    assert _post(pit, f"/api/v1/tables/{table.pk}/resume/").json()["status"] == "open"
    rules = _post(
        pit,
        f"/api/v1/tables/{table.pk}/rules/",
        {"rule_set_id": table.rule_set_id, "payout_schedule_id": table.payout_schedule_id},
    )
    assert rules.status_code == 200 and "rtp_method" in rules.json()
    assert _post(pit, f"/api/v1/tables/{table.pk}/close/").json()["status"] == "closed"


@pytest.mark.django_db(transaction=True)
def test_the_stream_never_skips_an_event_that_commits_late():
    """A settlement still running in the worker (older transaction, smaller id) while the next
    round's events commit: the stream holds the newer events back until the older one commits,
    then gives both in order."""
    import threading

    from django.db import connection, transaction

    from casino.actors import Actor
    from tables.models import RoundEvent

    table = live_table("crown", card_source="server_shoe")
    rnd = services.round_open(actor=Actor.system("tests"), table_id=table.pk)
    last = RoundEvent.objects.filter(table=table).order_by("txid", "id").last()
    key = (last.txid, last.pk)

    def event(name):
        return RoundEvent.objects.create(
            round=rnd, table=table, kind="meta", type=name, payload={}, public={}, actor="t"
        )

    inserted, release = threading.Event(), threading.Event()

    def slow_settlement():
        try:
            with transaction.atomic():
                event("late")
                inserted.set()
                release.wait(10)
        finally:
            connection.close()

    worker = threading.Thread(target=slow_settlement)
    worker.start()
    try:
        assert inserted.wait(10)
        event("early")  # commits first, with a larger id
        # (Other writers on the server may hold the horizon back further; never past "late".)
        assert selectors.round_events_after(table_id=table.pk, after=key) == []
    finally:
        release.set()
        worker.join(10)
    wait_until(
        lambda: (
            [e.type for e in selectors.round_events_after(table_id=table.pk, after=key)]
            == ["late", "early"]
        ),
        timeout=20,
        message="the stream did not give both events in commit-safe order",
    )


def test_only_an_active_dealer_can_be_the_dealer_of_record(client_for, table):
    """Issue 14: the API made any user (an auditor) the dealer; the service now refuses it for
    the API and the console alike."""
    pit = client_for(roles.PIT_BOSS)
    auditor = UserFactory(roles=[roles.AUDITOR])
    refused = _post(pit, f"/api/v1/tables/{table.pk}/dealer/", {"dealer_id": auditor.pk})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "dealer_id"
    table.refresh_from_db()
    assert table.dealer_id is None
    with pytest.raises(ValidationFailed):
        services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=auditor)
    dealer = UserFactory(roles=[roles.DEALER])
    assigned = _post(pit, f"/api/v1/tables/{table.pk}/dealer/", {"dealer_id": dealer.pk})
    assert assigned.status_code == 200 and assigned.json()["dealer_id"] == dealer.pk
    User.objects.filter(pk=dealer.pk).update(is_active=False)
    again = _post(pit, f"/api/v1/tables/{table.pk}/dealer/", {"dealer_id": dealer.pk})
    assert again.status_code == 400


def test_inconsistent_limits_are_refused_naming_the_field(client_for, table):
    pit = client_for(roles.PIT_BOSS)
    url = f"/api/v1/tables/{table.pk}/limits/"
    refused = _post(pit, url, {"min_bet": 100, "max_bet": 500, "min_unit": 600})
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["min_unit"]
    assert _post(pit, url, {"min_bet": 100, "max_bet": 5_000, "min_unit": 600}).status_code == 200
    # The table's min_unit (600) still applies when the request does not name one.
    kept = _post(pit, url, {"min_bet": 100, "max_bet": 500})
    assert kept.status_code == 400 and kept.json()["errors"][0]["field"] == "min_unit"
    table.refresh_from_db()
    assert (table.max_bet, table.min_unit) == (5_000, 600)


def test_a_decision_naming_a_bet_that_is_not_the_players_is_refused(client_for, table, operator):
    """Issue 14: a decision's foreign bet_id was silently ignored."""
    a, b = funded_player(operator=operator), funded_player(operator=operator)
    stranger = funded_player()  # another operator's player
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bets = {
        p.pk: services.bet_place(actor=ACTOR, round_id=rnd.pk, player=p, box=box, stake=100)
        for box, p in ((1, a), (2, b), (3, stranger))
    }
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["AS", "7C", "8C", "9H", "KC", "9D", "9S"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    assert selectors.round_state(Round.objects.get(pk=rnd.pk)).turn()[:2] == ("hand", 2)
    key = client_for(roles.OPERATOR_INTEGRATION)
    url = f"/api/v1/rounds/{rnd.pk}/decisions/"
    seq = Round.objects.get(pk=rnd.pk).seq
    for n, foreign in enumerate([bets[stranger.pk].ref, bets[a.pk].ref, f"r{rnd.pk + 1}-x"]):
        decision = {"player_id": b.pk, "action": "stand", "bet_id": foreign}
        refused = _post(key, url, decision, f"foreign-{n}")
        assert refused.status_code == 400, refused.json()
        assert refused.json()["errors"][0]["field"] == "bet_id"
    assert Round.objects.get(pk=rnd.pk).seq == seq  # nothing played
    own = {"player_id": b.pk, "action": "stand", "bet_id": bets[b.pk].ref}
    assert _post(key, url, own, "own").status_code == 200
