"""The API of the void lifecycle (hold, preview, reject, cancel) and of forced draws."""

import json

import pytest

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from casino.api.services import device_token_issue
from tables import services
from tables.models import Round, VoidRequest
from tests.conftest import bearer_client
from tests.factories import funded_player, live_table
from tests.helpers.streams import streamed_content

from .conftest import DEVICE, balance, bet, decide

pytestmark = pytest.mark.django_db


def _post(client, url, data=None):
    return client.post(url, data or {}, format="json")


def _device(table):
    _, raw = device_token_issue(actor=Actor.system("tests"), table=table, device_id="reader-9")
    return bearer_client(raw)


def _stream_events(client, table) -> list[dict]:
    # from the table's first event (a new stream starts from now, with a snapshot)
    response = client.get(f"/api/v1/tables/{table.pk}/events/", HTTP_LAST_EVENT_ID="0-0")
    text = streamed_content(response).decode()
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def test_void_request_holds_the_round_preview_reject_and_cancel(client_for, operator):
    table = live_table("british_casino")
    device = _device(table)
    integration = client_for(roles.OPERATOR_INTEGRATION)
    pit, supervisor = client_for(roles.PIT_BOSS), client_for(roles.FLOOR_SUPERVISOR)
    a, b = funded_player(operator=operator), funded_player(operator=operator)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    bet(rnd, b, 2, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    # box 1 Pontoon (decided at once against a dealer 9), box 2 T 6 undecided
    for card in ["AS", "TC", "9H", "KC", "6D"]:
        assert _post(device, f"/api/v1/rounds/{rnd.pk}/cards/", {"card": card}).status_code == 200
    base = f"/api/v1/rounds/{rnd.pk}"
    dealer = client_for(roles.DEALER)
    assert _post(dealer, f"{base}/void-request/", {"reason": "x"}).status_code == 403
    assert _post(pit, f"{base}/void-request/", {}).status_code == 400  # a reason is required
    created = _post(pit, f"{base}/void-request/", {"reason": "dealer exposed the hole card"})
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["status"] == "requested" and body["expires_at"] > body["requested_at"]

    # Held: a 409 naming the hold for the dealer's card and the player's decision.
    card = _post(device, f"{base}/cards/", {"card": "2C"})
    assert card.status_code == 409 and card.json()["type"].endswith("/round-held")
    assert f"void request {body['id']}" in card.json()["detail"]
    stand = integration.post(
        f"{base}/decisions/",
        {"player_id": b.pk, "action": "stand"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="held-stand",
    )
    assert stand.status_code == 409 and stand.json()["type"].endswith("/round-held")
    view = integration.get(f"{base}/", {"player_id": b.pk}).json()
    assert view["held"] is True and view["decision_deadline"] is None
    assert view["turn"]["box"] == 2 and view["your_actions"] == []  # nothing legal while held
    assert view["void_request"]["status"] == "requested"
    assert view["void_request"]["reason"] == "dealer exposed the hole card"
    assert "requested_by_id" not in view["void_request"]  # staff identities stay staff-only

    # The preview: what an approval would return and pay now.
    assert integration.get(f"{base}/void-request/").status_code == 403  # staff only
    preview = supervisor.get(f"{base}/void-request/").json()
    assert preview["void_request"]["id"] == body["id"]
    assert [(x["box"], x["result"], x["paid"]) for x in preview["preview"]["standing"]] == [
        (1, "pontoon", 3000)
    ]
    assert [(x["player_id"], x["paid"]) for x in preview["preview"]["returned"]] == [(b.pk, 1000)]
    assert preview["preview"]["currency"] == "EUR"

    # Reject: floor supervisor only, with a reason; the round resumes.
    assert _post(pit, f"{base}/void-reject/", {"reason": "no"}).status_code == 403
    assert _post(supervisor, f"{base}/void-reject/", {}).status_code == 400
    rejected = _post(supervisor, f"{base}/void-reject/", {"reason": "the card was not seen"})
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    view = integration.get(f"{base}/", {"player_id": b.pk}).json()
    assert view["held"] is False and view["your_actions"]
    assert _post(supervisor, f"{base}/void-reject/", {"reason": "again"}).status_code == 409

    # A new request; cancelled by its requester (a supervisor may not cancel).
    assert _post(pit, f"{base}/void-request/", {"reason": "second look"}).status_code == 201
    assert _post(supervisor, f"{base}/void-cancel/", {"reason": "no"}).status_code == 403
    cancelled = _post(pit, f"{base}/void-cancel/", {"reason": "seen on camera: fine"})
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert AuditEvent.objects.filter(name="tables.void_cancelled", round_id=rnd.pk).exists()

    types = [e["type"] for e in _stream_events(device, table)]
    assert types.count("void_requested") == 2
    assert "void_rejected" in types and "void_cancelled" in types
    assert balance(a) == balance(b) == 9000  # nothing moved
    assert _post(device, f"{base}/cards/", {"card": "2C"}).status_code == 409  # box 2 decides
    assert (
        integration.post(
            f"{base}/decisions/",
            {"player_id": b.pk, "action": "stand"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="stand-after",
        ).status_code
        == 200
    )
    assert list(VoidRequest.objects.filter(round=rnd).values_list("status", flat=True)) == [
        "cancelled",
        "rejected",
    ]


def test_preview_is_empty_once_the_round_is_finished(client_for):
    table = live_table("british_casino")
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)  # no bets: settling
    services.round_settle(round_id=rnd.pk)
    body = client_for(roles.FLOOR_SUPERVISOR).get(f"/api/v1/rounds/{rnd.pk}/void-request/").json()
    assert body == {"void_request": None, "preview": None}


def test_traditional_forced_fifth_card_is_marked(client_for, operator):
    table = live_table("traditional")
    device = _device(table)
    integration = client_for(roles.OPERATOR_INTEGRATION)
    a = funded_player(operator=operator)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 0)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    base = f"/api/v1/rounds/{rnd.pk}"

    def card(code):
        response = _post(device, f"{base}/cards/", {"card": code})
        assert response.status_code == 200, response.json()
        return response.json()["target"]

    card("2S")
    card("7H")
    decide(a, "stake", 500)(rnd.pk)
    card("3C")
    card("9D")
    decide(a, "twist")(rnd.pk)
    assert card("AC")["forced"] is False  # a twist the box chose
    decide(a, "twist")(rnd.pk)
    card("4C")  # 2 3 A 4: four cards, hard 10: the fifth comes without a decision
    view = integration.get(f"{base}/", {"player_id": a.pk}).json()
    assert view["turn"] is None and view["your_actions"] == []
    assert view["next_card"] == {"kind": "box", "box": 1, "hand_index": 0, "forced": True}
    assert card("KC") == {"kind": "box", "box": 1, "hand_index": 0, "forced": True}
    hand = integration.get(f"{base}/", {"player_id": a.pk}).json()["boxes"][0]["hands"][0]
    assert hand["cards"] == ["2S", "3C", "AC", "4C", "KC"] and hand["forced_cards"] == [4]
    dealt = [e for e in _stream_events(device, table) if e["type"] == "card_dealt"]
    assert [e["forced"] for e in dealt] == [False] * 6 + [True]
    audited = AuditEvent.objects.filter(
        name="tables.round_event.card_dealt", round_id=rnd.pk
    ).order_by("id")
    assert [e.payload.get("forced", False) for e in audited] == [False] * 6 + [True]


def test_online_2deck_double_draws_on_under_hard_15_marked_forced(client_for, operator):
    table = live_table("online_2deck")
    device = _device(table)
    pit = client_for(roles.PIT_BOSS)
    a = funded_player(operator=operator)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, a, 1, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    base = f"/api/v1/rounds/{rnd.pk}"
    for code in ["2S", "9H", "3C", "8D"]:
        assert _post(device, f"{base}/cards/", {"card": code}).status_code == 200
    decide(a, "double")(rnd.pk)
    assert pit.get(f"{base}/").json()["next_card"]["forced"] is False  # the double's own card
    _post(device, f"{base}/cards/", {"card": "2D"})  # hard 7: draws on without asking
    view = pit.get(f"{base}/").json()
    assert view["turn"] is None and view["next_card"]["forced"] is True
    assert _post(device, f"{base}/cards/", {"card": "9D"}).json()["target"]["forced"] is True
    view = pit.get(f"{base}/").json()
    assert view["boxes"][0]["hands"][0]["forced_cards"] == [3]
    assert view["turn"]["kind"] == "hand" and view["next_card"] is None
    assert Round.objects.get(pk=rnd.pk).phase == "playing"
