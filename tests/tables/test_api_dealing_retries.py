"""A dealer device that retries after a timeout: with an Idempotency-Key its retry gets the
first answer instead of doing the operation again (a card posted twice would be dealt to the
next hand); without one it still deals, as readers without keys always have."""

import pytest

from casino.api import roles
from casino.api.models import IdempotencyRecord
from tables.models import Round, Shoe
from tests.factories import funded_player, live_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    """The table the ``dealer_device`` token is bound to: a reader-fed british_casino table."""
    return live_table("british_casino")


def _post(client, url, data=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(url, data or {}, format="json", **headers)


@pytest.fixture
def betting_closed(client_for, table, operator):
    """A round with one bet on box 1 whose betting the device has closed: (device, round id)."""
    device = client_for(roles.DEALER_DEVICE)
    integration = client_for(roles.OPERATOR_INTEGRATION)
    player = funded_player(operator=operator)
    opened = _post(device, f"/api/v1/tables/{table.pk}/rounds/", key="open-1")
    assert opened.status_code == 201, opened.json()
    rid = opened.json()["id"]
    bet = {"player_id": player.pk, "box": 1, "stake": 1000}
    assert _post(integration, f"/api/v1/rounds/{rid}/bets/", bet, key="b1").status_code == 201
    closed = _post(device, f"/api/v1/rounds/{rid}/close-betting/", key="close-1")
    assert closed.status_code == 200, closed.json()
    return device, rid


def _cards_dealt(rid: int) -> int:
    return Shoe.objects.get(pk=Round.objects.get(pk=rid).shoe_id).cards_dealt


def test_a_retried_open_returns_the_round_it_opened(client_for, table):
    device = client_for(roles.DEALER_DEVICE)
    first = _post(device, f"/api/v1/tables/{table.pk}/rounds/", key="open-7")
    again = _post(device, f"/api/v1/tables/{table.pk}/rounds/", key="open-7")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Round.objects.filter(table=table).count() == 1
    # Without the key a second open is a new request, refused while the round is open.
    assert _post(device, f"/api/v1/tables/{table.pk}/rounds/").status_code == 409


def test_a_retried_card_is_dealt_once(betting_closed):
    device, rid = betting_closed
    url = f"/api/v1/rounds/{rid}/cards/"
    first = _post(device, url, {"card": "AS"}, key="card-1")
    assert first.status_code == 200, first.json()
    assert first.json()["target"]["kind"] == "box"
    again = _post(device, url, {"card": "AS"}, key="card-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert _cards_dealt(rid) == 1

    # The next card with its own key goes where the round wants it: the dealer's card.
    dealer = _post(device, url, {"card": "7C"}, key="card-2")
    assert dealer.status_code == 200 and dealer.json()["target"]["kind"] == "dealer"
    assert _cards_dealt(rid) == 2

    # The same key for another card is the device's mistake, named, and deals nothing.
    reused = _post(device, url, {"card": "9H"}, key="card-2")
    assert reused.status_code == 422 and "Idempotency-Key" in reused.json()["detail"]
    assert _cards_dealt(rid) == 2


def test_a_card_posted_again_without_a_key_is_dealt_again(betting_closed):
    """The behaviour the key exists for: a device that sends none repeats the operation."""
    device, rid = betting_closed
    url = f"/api/v1/rounds/{rid}/cards/"
    assert _post(device, url, {"card": "AS"}).status_code == 200
    second = _post(device, url, {"card": "AS"})
    assert second.status_code == 200 and second.json()["target"]["kind"] == "dealer"
    assert _cards_dealt(rid) == 2


def test_a_refused_card_with_a_key_still_suspends_the_round_and_stores_no_answer(betting_closed):
    device, rid = betting_closed
    url = f"/api/v1/rounds/{rid}/cards/"
    refused = _post(device, url, {"card": "AS", "shoe_position": 5}, key="card-x")
    assert refused.status_code == 409 and refused.json()["type"].endswith("/round-suspended")
    assert "count mismatch" in Round.objects.get(pk=rid).suspended_reason
    assert not IdempotencyRecord.objects.filter(key="card-x").exists()
    # The retry is not a replay: the round is suspended until the pit resumes it.
    retried = _post(device, url, {"card": "AS", "shoe_position": 5}, key="card-x")
    assert retried.status_code == 409 and retried.json()["type"].endswith("/round-suspended")
    assert _cards_dealt(rid) == 0


def test_a_malformed_key_on_a_dealer_operation_is_refused_naming_the_header(betting_closed):
    device, rid = betting_closed
    answer = _post(device, f"/api/v1/rounds/{rid}/cards/", {"card": "AS"}, key="")
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == ["Idempotency-Key"]
    assert _cards_dealt(rid) == 0
