"""Regressions of issue 14's trust-boundary defects: operator staff scoped in the API,
deactivated operators refused, credential secrets never in a cookie, idempotency keys per
operator, the anonymous health answer, other operators' players in a round's state, and
no-store on money."""

import re

import pytest
from rest_framework.test import APIClient

from casino.actors import Actor
from casino.api import roles
from casino.api.services import api_key_issue
from casino.api.staff_tokens import staff_token_issue
from casino.console.models import OperatorStaff
from ledger.models import Account, Player, Transaction
from tables import services as tables
from tests.conftest import bearer_client
from tests.factories import (
    OperatorFactory,
    PlayerFactory,
    UserFactory,
    WalletFactory,
    funded_player,
    live_table,
)
from tests.helpers.staff import login_verified
from tests.helpers.streams import streamed_content

pytestmark = pytest.mark.django_db
ACTOR = Actor.system("tests")


def _operator_staff(operator=None) -> APIClient:
    user = UserFactory(roles=[roles.OPERATOR_STAFF])
    if operator is not None:
        OperatorStaff.objects.create(user=user, operator=operator)
    client = APIClient()
    login_verified(client, user)
    return client


@pytest.fixture
def two_operators():
    """Operators A and B, each with a funded player (whose deposit emitted an event)."""
    out = {}
    for name in "AB":
        operator = OperatorFactory()
        player = funded_player(operator=operator)
        wallet = Account.objects.get(player=player)
        txn = Transaction.objects.get(legs__account=wallet)
        out[name] = (operator, player, wallet, txn)
    return out


# --- defect 1: operator staff through the API -------------------------------------------------


def test_operator_staff_see_only_their_operator_through_the_api(two_operators):
    (op_a, player_a, wallet_a, txn_a), (op_b, player_b, wallet_b, txn_b) = two_operators.values()
    staff_b = _operator_staff(op_b)
    for url in (
        f"/api/v1/players/{player_a.pk}/",
        f"/api/v1/wallets/{wallet_a.pk}/",
        f"/api/v1/wallets/{wallet_a.pk}/balance/",
        f"/api/v1/transactions/{txn_a.pk}/",
    ):
        assert staff_b.get(url).status_code == 404, url
    assert staff_b.get(f"/api/v1/wallets/{wallet_b.pk}/balance/").status_code == 200
    assert [p["id"] for p in staff_b.get("/api/v1/players/").json()["results"]] == [player_b.pk]
    events = staff_b.get("/api/v1/operator-events/", {"operator": op_a.pk}).json()["results"]
    assert events and {e["operator_id"] for e in events} == {op_b.pk}
    transactions = staff_b.get("/api/v1/transactions/").json()["results"]
    assert [t["id"] for t in transactions] == [txn_b.pk]
    assert staff_b.get("/api/v1/me/").json()["operator_id"] == op_b.pk


def test_an_unlinked_member_of_operator_staff_sees_nothing(two_operators):
    op_a, player_a, wallet_a, _ = two_operators["A"]
    unlinked = _operator_staff()
    for url in ("/api/v1/players/", "/api/v1/wallets/", "/api/v1/transactions/"):
        assert unlinked.get(url).json()["results"] == [], url
    feed = unlinked.get("/api/v1/operator-events/", {"operator": op_a.pk}).json()
    assert feed["results"] == []
    assert unlinked.get(f"/api/v1/wallets/{wallet_a.pk}/balance/").status_code == 404
    assert unlinked.get(f"/api/v1/players/{player_a.pk}/").status_code == 404


def test_operator_staff_tokens_are_scoped_like_their_sessions(two_operators):
    """A personal staff token (st_...) acts as its owner: operator B's member sees B only, an
    unlinked member nothing, whatever operator A's ids the request names."""
    (op_a, player_a, wallet_a, txn_a), (op_b, player_b, wallet_b, txn_b) = two_operators.values()

    def token_client(operator):
        user = UserFactory(roles=[roles.OPERATOR_STAFF])
        if operator is not None:
            OperatorStaff.objects.create(user=user, operator=operator)
        _, raw = staff_token_issue(actor=ACTOR, user=user, role=roles.OPERATOR_STAFF, label="t")
        return bearer_client(raw)

    member_b, unlinked = token_client(op_b), token_client(None)
    for client in (member_b, unlinked):
        for url in (
            f"/api/v1/players/{player_a.pk}/",
            f"/api/v1/wallets/{wallet_a.pk}/balance/",
            f"/api/v1/transactions/{txn_a.pk}/",
        ):
            assert client.get(url).status_code == 404, url
        feed = client.get("/api/v1/operator-events/", {"operator": op_a.pk}).json()["results"]
        assert {e["operator_id"] for e in feed} <= {op_b.pk}
    assert member_b.get(f"/api/v1/wallets/{wallet_b.pk}/balance/").status_code == 200
    assert [p["id"] for p in member_b.get("/api/v1/players/").json()["results"]] == [player_b.pk]
    assert [t["id"] for t in member_b.get("/api/v1/transactions/").json()["results"]] == [txn_b.pk]
    assert unlinked.get("/api/v1/players/").json()["results"] == []
    assert unlinked.get("/api/v1/transactions/").json()["results"] == []


def test_casino_staff_still_see_every_operator(two_operators, client_for):
    auditor = client_for(roles.AUDITOR)
    players = {p["id"] for p in auditor.get("/api/v1/players/").json()["results"]}
    assert players == {v[1].pk for v in two_operators.values()}


# --- defect 6: deactivated operators ----------------------------------------------------------


def test_a_deactivated_operators_key_is_refused_for_every_operation(operator):
    player = funded_player(operator=operator)
    wallet = Account.objects.get(player=player)
    table = live_table("british_casino")
    rnd = tables.round_open(actor=ACTOR, table_id=table.pk)
    key = bearer_client(api_key_issue(actor=ACTOR, operator=operator, label="k")[1])
    operator.is_active = False
    operator.save()
    before = (Transaction.objects.count(), Player.objects.count(), wallet.balance)
    attempts = [
        ("post", f"/api/v1/wallets/{wallet.pk}/deposits/", {"amount": 100}),
        ("post", f"/api/v1/wallets/{wallet.pk}/withdrawals/", {"amount": 100}),
        ("post", "/api/v1/players/", {"external_ref": "new"}),
        (
            "post",
            f"/api/v1/rounds/{rnd.pk}/bets/",
            {"player_id": player.pk, "box": 1, "stake": 100},
        ),
        ("get", "/api/v1/players/", None),
        ("get", "/api/v1/me/", None),
    ]
    for method, url, body in attempts:
        response = getattr(key, method)(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
        assert response.status_code == 403, (url, response.content)
        assert "deactivated" in response.json()["detail"]
        assert response["Content-Type"] == "application/problem+json"
    wallet.refresh_from_db()
    assert (Transaction.objects.count(), Player.objects.count(), wallet.balance) == before
    operator.is_active = True
    operator.save()
    assert key.get("/api/v1/players/").status_code == 200  # reactivated: works again


def test_a_deactivated_operators_staff_are_refused(operator):
    player = funded_player(operator=operator)
    staff = _operator_staff(operator)
    assert staff.get("/api/v1/players/").status_code == 200
    assert player.external_ref in staff.get("/admin/ledger/player/").content.decode()
    operator.is_active = False
    operator.save()
    refused = staff.get("/api/v1/players/")
    assert refused.status_code == 403 and "deactivated" in refused.json()["detail"]
    assert player.external_ref not in staff.get("/admin/ledger/player/").content.decode()


# --- defect 5: a credential's secret is shown on a page, never put in a cookie ------------------


@pytest.mark.parametrize(
    ("url", "form", "pattern"),
    [
        (
            "/admin/api/apikey/add/",
            lambda op, table: {"operator": op.pk, "label": "x", "scopes": ["read"]},
            "ck",
        ),
        (
            "/admin/api/devicetoken/add/",
            lambda op, table: {
                "table": table.pk,
                "device_id": "d",
                "label": "x",
                "scopes": ["read"],
            },
            "dt",
        ),
    ],
)
def test_an_issued_secret_is_shown_once_on_a_page_not_in_a_message(
    client, operator, table, url, form, pattern
):
    login_verified(client, UserFactory(roles=[roles.FLOOR_SUPERVISOR]))
    response = client.post(url, form(operator, table))
    assert response.status_code == 200  # the page itself, not a redirect carrying a message
    assert "no-store" in response["Cache-Control"]
    secret = re.search(rf"{pattern}_[0-9a-f]{{12}}_[A-Za-z0-9_-]+", response.content.decode())
    assert secret is not None
    assert "messages" not in response.cookies
    stored = "".join(str(v) for v in client.session.values())
    assert secret.group(0) not in stored
    after = client.get(url.replace("add/", ""))
    assert secret.group(0) not in after.content.decode()
    assert "messages" not in after.cookies or secret.group(0) not in after.cookies["messages"].value


# --- defect 8: idempotency per operator, health, round state, no-store -------------------------


def test_an_idempotency_key_is_the_operators_across_its_api_keys(operator):
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    first = bearer_client(api_key_issue(actor=ACTOR, operator=operator, label="1")[1])
    second = bearer_client(api_key_issue(actor=ACTOR, operator=operator, label="2")[1])
    url = f"/api/v1/wallets/{wallet.pk}/deposits/"
    one = first.post(url, {"amount": 500}, format="json", HTTP_IDEMPOTENCY_KEY="dep-1")
    two = second.post(url, {"amount": 500}, format="json", HTTP_IDEMPOTENCY_KEY="dep-1")
    assert one.status_code == two.status_code == 201
    assert two["Idempotent-Replayed"] == "true" and two.json() == one.json()
    wallet.refresh_from_db()
    assert wallet.balance == 500  # deposited once
    # Another operator's same key is its own.
    other = OperatorFactory()
    other_wallet = WalletFactory(player=PlayerFactory(operator=other))
    third = bearer_client(api_key_issue(actor=ACTOR, operator=other, label="3")[1])
    again = third.post(
        f"/api/v1/wallets/{other_wallet.pk}/deposits/",
        {"amount": 500},
        format="json",
        HTTP_IDEMPOTENCY_KEY="dep-1",
    )
    assert again.status_code == 201 and "Idempotent-Replayed" not in again


def test_health_tells_an_anonymous_caller_no_error_text(client, monkeypatch):
    from casino import health

    def broken():
        raise RuntimeError('connection to server at "10.1.2.3", port 5432 failed: role "app"')

    monkeypatch.setattr(health, "_database", broken)
    response = client.get("/api/v1/health/")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False}
    assert "10.1.2.3" not in response.content.decode()


def test_a_rounds_state_hides_other_operators_players_from_a_key(client_for, operator):
    table = live_table("british_casino")
    mine, theirs = funded_player(operator=operator), funded_player()
    rnd = tables.round_open(actor=ACTOR, table_id=table.pk)
    for box, player in ((1, mine), (2, theirs)):
        tables.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=box, stake=100)
    for url in (f"/api/v1/rounds/{rnd.pk}/", f"/api/v1/tables/{table.pk}/round/"):
        state = client_for(roles.OPERATOR_INTEGRATION).get(url).json()
        boxes = {b["number"]: b for b in state["boxes"]}
        assert boxes[1]["controller"] == mine.pk
        assert boxes[1]["bets"][0]["player_id"] == mine.pk
        assert boxes[2]["controller"] is None and boxes[2]["bets"][0]["player_id"] is None
        assert boxes[2]["bets"][0]["stake"] == 100  # the table shows the stake, not whose
        staff = client_for(roles.PIT_BOSS).get(url).json()
        assert {b["controller"] for b in staff["boxes"]} == {mine.pk, theirs.pk}
    stream = client_for(roles.OPERATOR_INTEGRATION).get(
        f"/api/v1/tables/{table.pk}/events/",
        HTTP_LAST_EVENT_ID="0-0",  # from the first event
    )
    body = streamed_content(stream).decode()
    assert "bet_placed" in body and f'"player_id": {theirs.pk}' not in body


def test_money_answers_are_never_stored(client_for, operator):
    wallet = Account.objects.get(player=funded_player(operator=operator))
    key = client_for(roles.OPERATOR_INTEGRATION)
    answers = [
        key.get("/api/v1/wallets/"),
        key.get(f"/api/v1/wallets/{wallet.pk}/balance/"),
        key.get("/api/v1/transactions/"),
        key.post(
            f"/api/v1/wallets/{wallet.pk}/deposits/",
            {"amount": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY="ns",
        ),
        key.post(f"/api/v1/wallets/{wallet.pk}/withdrawals/", {"amount": 1}, format="json"),
        key.post("/api/v1/rounds/999999/bets/", {}, format="json", HTTP_IDEMPOTENCY_KEY="b"),
        client_for(roles.AUDITOR).get("/api/v1/corrections/"),
    ]
    for response in answers:
        assert "no-store" in response.get("Cache-Control", ""), response.request["PATH_INFO"]
