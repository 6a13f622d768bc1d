"""The ledger API: operator scoping, idempotent money movements, problems for bad input."""

import pytest

from casino.api import roles
from ledger.models import Account, Transaction
from tests.factories import PlayerFactory, WalletFactory
from tests.ledger.conftest import fund

pytestmark = pytest.mark.django_db

OP = roles.OPERATOR_INTEGRATION


def _post(client, url, body, key="k1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url, body, format="json", **headers)


def test_an_operator_creates_and_lists_only_its_own_players(client_for, operator):
    client = client_for(OP)
    created = client.post("/api/v1/players/", {"external_ref": "alice"}, format="json")
    assert created.status_code == 201 and created.data["operator_id"] == operator.pk
    stranger = PlayerFactory()
    listed = client.get("/api/v1/players/").data["results"]
    assert [p["external_ref"] for p in listed] == ["alice"]
    assert client.get(f"/api/v1/players/{stranger.pk}/").status_code == 404
    duplicate = client.post("/api/v1/players/", {"external_ref": "alice"}, format="json")
    assert duplicate.status_code == 409


def test_wallets_are_scoped_to_the_operator(client_for, operator):
    client = client_for(OP)
    mine = WalletFactory(player=PlayerFactory(operator=operator))
    theirs = WalletFactory()
    assert [w["id"] for w in client.get("/api/v1/wallets/").data["results"]] == [mine.pk]
    assert client.get(f"/api/v1/wallets/{theirs.pk}/").status_code == 404
    assert _post(client, f"/api/v1/wallets/{theirs.pk}/deposits/", {"amount": 5}).status_code == 404
    opened = client.post(
        "/api/v1/wallets/", {"player_id": mine.player_id, "currency": "GBP"}, format="json"
    )
    assert opened.status_code == 201
    again = client.post(
        "/api/v1/wallets/", {"player_id": mine.player_id, "currency": "GBP"}, format="json"
    )
    assert again.status_code == 200 and again.data["id"] == opened.data["id"]
    foreign = client.post(
        "/api/v1/wallets/", {"player_id": theirs.player_id, "currency": "GBP"}, format="json"
    )
    assert foreign.status_code == 404


def test_deposit_and_withdrawal_replay_with_the_same_key_move_money_once(client_for, operator):
    client = client_for(OP)
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    url = f"/api/v1/wallets/{wallet.pk}/deposits/"
    first = _post(client, url, {"amount": 1000}, key="dep-1")
    replay = _post(client, url, {"amount": 1000}, key="dep-1")
    assert first.status_code == replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true" and replay.data == first.data
    assert _post(client, url, {"amount": 999}, key="dep-1").status_code == 422
    url = f"/api/v1/wallets/{wallet.pk}/withdrawals/"
    out = _post(client, url, {"amount": 400}, key="wd-1")
    again = _post(client, url, {"amount": 400}, key="wd-1")
    assert out.status_code == again.status_code == 201
    assert out.data["wallet"]["balance"] == 600
    wallet.refresh_from_db()
    assert wallet.balance == 600
    assert Transaction.objects.filter(kind__in=["deposit", "withdrawal"]).count() == 2


def test_insufficient_funds_is_a_422_problem_naming_it(client_for, operator):
    client = client_for(OP)
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    fund(wallet, 100)
    response = _post(client, f"/api/v1/wallets/{wallet.pk}/withdrawals/", {"amount": 101})
    assert response.status_code == 422
    assert response["Content-Type"] == "application/problem+json"
    assert response.data["type"].endswith("/insufficient-funds")
    assert "holds 100 EUR" in response.data["detail"]


@pytest.mark.parametrize(
    "body",
    [{}, {"amount": 0}, {"amount": -1}, {"amount": "x"}, {"amount": 10**30}, {"amount": 1.5}],
)
def test_bad_amounts_are_400_problems(client_for, operator, body):
    client = client_for(OP)
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    response = _post(client, f"/api/v1/wallets/{wallet.pk}/deposits/", body)
    assert response.status_code == 400, response.data
    assert response.data["errors"]


def test_money_moving_posts_need_an_idempotency_key(client_for, operator):
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    response = _post(client_for(OP), f"/api/v1/wallets/{wallet.pk}/deposits/", {"amount": 5}, None)
    assert response.status_code == 400
    assert response.data["errors"][0]["field"] == "Idempotency-Key"


def test_transactions_show_an_operator_only_its_own_legs(client_for, operator, table):
    from ledger import services
    from ledger.services import SettlementLine
    from tests.ledger.conftest import ACTOR, stake

    mine = WalletFactory(player=PlayerFactory(operator=operator))
    theirs = WalletFactory()
    for index, wallet in enumerate((mine, theirs)):
        fund(wallet, 500)
        stake(wallet, 100, table_id=table.pk, round_id=3, bet_ref=f"b{index}")
    services.round_settlement_post(
        actor=ACTOR, round_id=3, table_id=table.pk, currency="EUR",
        lines=[SettlementLine("b0", mine.pk, 100, 200), SettlementLine("b1", theirs.pk, 100, 200)],
    )  # fmt: skip
    client = client_for(OP)
    listed = client.get("/api/v1/transactions/", {"round": 3}).data["results"]
    assert {t["kind"] for t in listed} == {"stake", "settlement"}
    for txn in listed:
        assert {leg["account_id"] for leg in txn["legs"]} == {mine.pk}
    staff = client_for(roles.AUDITOR).get("/api/v1/transactions/", {"round": 3}).data["results"]
    assert len(staff) == 3
    assert client_for(OP).get("/api/v1/house-accounts/").status_code == 403
    house = client_for(roles.AUDITOR).get("/api/v1/house-accounts/").data
    assert {a["kind"] for a in house} >= {"stakes", "house", "operator_cash"}


def test_balance_endpoint_shows_the_balance_recomputed_from_legs(client_for, operator):
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    fund(wallet, 250)
    data = client_for(OP).get(f"/api/v1/wallets/{wallet.pk}/balance/").data
    assert data == {
        "wallet_id": wallet.pk,
        "currency": "EUR",
        "balance": 250,
        "balance_from_legs": 250,
    }


@pytest.mark.parametrize(
    ("role", "status"),
    [(roles.DEALER, 403), (roles.DEALER_DEVICE, 403), ("anonymous", 401), (roles.AUDITOR, 403)],
)
def test_roles_that_may_not_move_money(client_for, operator, role, status):
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    response = _post(client_for(role), f"/api/v1/wallets/{wallet.pk}/deposits/", {"amount": 5})
    assert response.status_code == status
    assert not Account.objects.filter(pk=wallet.pk, balance__gt=0).exists()


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/wallets/?player=abc",
        "/api/v1/transactions/?round=99999999999999999999999",
        "/api/v1/table-accounting/?group_by=nonsense",
        "/api/v1/table-accounting/?date_from=yesterday",
        "/api/v1/operator-events/?operator=-1",
        "/api/v1/operator-events/?cursor=garbage",
    ],
)
def test_bad_query_parameters_are_400_not_500(client_for, url):
    response = client_for(roles.AUDITOR).get(url)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
