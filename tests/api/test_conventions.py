"""One convention everywhere (issue 16): lists as complete as details, 405 for methods not
offered, either path form, 400 for a bad cursor, one pagination style, a currency beside every
amount, one id per object, byte-identical replays, and problems that name their code, param
and request id and link to a page documenting them."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.api import roles
from casino.api.problems import TYPE_BASE, problem_registry
from ledger.models import Account, Transaction
from tables import services
from tables.models import Round
from tests.factories import TableFactory, WalletFactory, funded_player, live_table
from tests.tables.conftest import ACTOR

pytestmark = pytest.mark.django_db

OP = roles.OPERATOR_INTEGRATION
PROBLEM = "application/problem+json"


@pytest.fixture
def table(db):
    """The table the ``dealer_device`` token is bound to: a reader-fed british_casino table."""
    return live_table("british_casino")


def _problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == code and body["type"].endswith(f"{TYPE_BASE}{code}"), body
    return body


# --- current_round_id in lists ---------------------------------------------------------------


def test_the_table_list_names_each_current_round_as_the_detail_does(client_for, table):
    services.round_open(actor=ACTOR, table_id=table.pk)
    other = live_table("british_casino")
    latest = services.round_open(actor=ACTOR, table_id=other.pk)
    idle = TableFactory()
    client = client_for(roles.PIT_BOSS)
    listed = {
        t["id"]: t["current_round_id"] for t in client.get("/api/v1/tables/").json()["results"]
    }
    for t in (table, other, idle):
        detail = client.get(f"/api/v1/tables/{t.pk}/").json()
        assert listed[t.pk] == detail["current_round_id"]
    assert listed[other.pk] == latest.pk
    assert listed[table.pk] == Round.objects.get(table=table).pk
    assert listed[idle.pk] is None


def test_a_page_of_tables_is_read_in_as_many_queries_whatever_its_size(client_for, table):
    client = client_for(roles.PIT_BOSS)
    services.round_open(actor=ACTOR, table_id=table.pk)
    client.get("/api/v1/tables/")  # warm the session and permission caches

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/v1/tables/").status_code == 200
        return len(queries)

    few = count()
    for _ in range(4):
        extra = live_table("british_casino")
        services.round_open(actor=ACTOR, table_id=extra.pk)
    assert count() == few  # no query per table for its current round


# --- 405 for a method not offered, after authentication ------------------------------------


def test_delete_on_a_table_is_a_405_problem_with_allow(client_for, table):
    for role in (roles.FLOOR_SUPERVISOR, roles.DEALER, OP):
        response = client_for(role).delete(f"/api/v1/tables/{table.pk}/")
        body = _problem(response, 405, "method-not-allowed")
        assert "DELETE" in body["detail"]
        assert set(response["Allow"].replace(" ", "").split(",")) >= {"GET"}
        assert "DELETE" not in response["Allow"]


def test_an_anonymous_caller_gets_401_before_405_and_no_object_is_looked_up(client_for, table):
    from rest_framework.test import APIClient

    _problem(APIClient().delete(f"/api/v1/tables/{table.pk}/"), 401, "not-authenticated")
    # The 405 is the same for an object that does not exist: it says nothing of the object.
    client = client_for(OP)
    missing = client.delete("/api/v1/tables/999999999/")
    present = client.delete(f"/api/v1/tables/{table.pk}/")
    assert missing.status_code == present.status_code == 405


def test_a_plain_view_answers_a_405_problem_too(client):
    _problem(client.post("/api/v1/docs/guide/"), 405, "method-not-allowed")
    _problem(client.delete(f"{TYPE_BASE}not-found"), 405, "method-not-allowed")


# --- either path form ----------------------------------------------------------------------


def test_a_post_without_the_trailing_slash_is_served_not_redirected(client_for, operator):
    client = client_for(OP)
    created = client.post("/api/v1/players", {"external_ref": "no-slash"}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["external_ref"] == "no-slash"
    wallet = WalletFactory(player_id=created.json()["id"], operator=operator)
    url = f"/api/v1/wallets/{wallet.pk}/deposits"
    first = client.post(url, {"amount": 500}, format="json", HTTP_IDEMPOTENCY_KEY="d1")
    # The slashed form is the same request to the idempotency fingerprint: a replay.
    again = client.post(f"{url}/", {"amount": 500}, format="json", HTTP_IDEMPOTENCY_KEY="d1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Account.objects.get(pk=wallet.pk).balance == 500


def test_a_get_without_the_trailing_slash_is_200(client_for, table):
    response = client_for(roles.PIT_BOSS).get(f"/api/v1/tables/{table.pk}")
    assert response.status_code == 200 and response.json()["id"] == table.pk


def test_a_path_that_resolves_neither_way_is_a_404_problem(client_for):
    client = client_for(OP)
    for path in ("/api/v1/nowhere", "/api/v1/nowhere/", "/api/v1/players/7/nothing"):
        for method in ("get", "post"):
            body = _problem(getattr(client, method)(path), 404, "not-found")
            assert path in body["detail"]


# --- cursors and one pagination style ------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["/api/v1/players/", "/api/v1/transactions/", "/api/v1/tables/", "/api/v1/operator-events/"],
)
def test_a_bad_cursor_is_a_400_naming_cursor(client_for, url):
    for cursor in ("garbage", "cD1hYmM="):  # undecodable; decodes to a position that is no pk
        body = _problem(client_for(OP).get(url, {"cursor": cursor}), 400, "validation-error")
        assert body["param"] == "cursor"


def test_the_operator_events_feed_pages_like_every_list(client_for, operator):
    player = funded_player(operator=operator)
    wallet = Account.objects.get(player=player)
    for n in range(3):
        client_for(OP).post(
            f"/api/v1/wallets/{wallet.pk}/deposits/",
            {"amount": 10 + n},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"feed-{n}",
        )
    client = client_for(OP)
    page = client.get("/api/v1/operator-events/", {"page_size": 2}).json()
    assert set(page) == {"next", "previous", "results"} and len(page["results"]) == 2
    assert "cursor=" in page["next"] and "page_size=2" in page["next"]
    rest = client.get(page["next"]).json()
    seen = [e["id"] for e in page["results"] + rest["results"]]
    assert len(seen) == len(set(seen)) >= 4  # the funding deposit and three more
    # The old parameters are not a second style: a 400 naming them (ignored, `after` would
    # have re-read the feed from its start).
    legacy = client.get("/api/v1/operator-events/", {"limit": 1, "after": 0})
    assert legacy.status_code == 400
    assert [e["field"] for e in legacy.json()["errors"]] == ["after", "limit"]


# --- currency beside every amount, one id per object ---------------------------------------

# The names of amounts (minor units) across the API's objects.
MONEY = {
    "amount",
    "amount_min",
    "amount_max",
    "balance",
    "balance_from_legs",
    "stake",
    "stakes",
    "staked_total",
    "insurance",
    "paid",
    "returned",
    "payout",
    "handle",
    "payouts",
    "bonuses",
    "win",
    "min_bet",
    "max_bet",
    "box_max",
    "min_unit",
    "total_stake",
    "total_returned",
    "total_paid",
}


def test_every_object_with_an_amount_carries_its_currency(client):
    """Every object the API answers with; a request names amounts in the currency of what it
    acts on (the wallet's, the table's), so inputs (``...Request``) carry none."""
    components = client.get("/api/v1/schema/", {"format": "json"}).json()["components"]
    checked, missing = 0, []
    for name, schema in components["schemas"].items():
        if name.endswith("Request"):
            continue
        props = schema.get("properties", {})
        amounts = sorted(
            p for p, s in props.items() if p in MONEY and s.get("type") in ("integer", "object")
        )
        if amounts:
            checked += 1
            if "currency" not in props:
                missing.append(f"{name}: {amounts}")
    assert checked > 10
    assert missing == [], "amounts without a currency beside them:\n" + "\n".join(missing)


def test_a_bet_has_one_id_and_its_stake_a_currency(client_for, table, operator):
    device, integration = client_for(roles.DEALER_DEVICE), client_for(OP)
    player = funded_player(operator=operator, currency="EUR")
    rid = device.post(f"/api/v1/tables/{table.pk}/rounds/", format="json").json()["id"]
    placed = integration.post(
        f"/api/v1/rounds/{rid}/bets/",
        {"player_id": player.pk, "box": 1, "stake": 1000},
        format="json",
        HTTP_IDEMPOTENCY_KEY="one-id",
    )
    assert placed.status_code == 201, placed.content
    bet = placed.json()
    assert "bet_id" not in bet and isinstance(bet["id"], str)
    assert bet["stake"] == 1000 and bet["currency"] == "EUR"
    state = integration.get(f"/api/v1/rounds/{rid}/", {"player_id": player.pk}).json()
    (listed,) = [b for box in state["boxes"] for b in box["bets"]]
    assert listed["bet_id"] == bet["id"]  # the same id, named as a reference
    assert listed["currency"] == state["currency"] == "EUR"
    assert all(a["currency"] == "EUR" for a in state["your_actions"])


# --- byte-identical replays ----------------------------------------------------------------


def test_a_replay_is_the_first_answer_byte_for_byte(client_for, operator):
    client = client_for(OP)
    wallet = Account.objects.get(player=funded_player(operator=operator))
    url = f"/api/v1/wallets/{wallet.pk}/deposits/"
    first = client.post(url, {"amount": 70}, format="json", HTTP_IDEMPOTENCY_KEY="bytes")
    # Another Accept (indented JSON) on the retry changes nothing: the stored bytes answer.
    again = client.post(
        url,
        {"amount": 70},
        format="json",
        HTTP_IDEMPOTENCY_KEY="bytes",
        HTTP_ACCEPT="application/json; indent=4",
    )
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert list(json.loads(again.content)) == ["transaction", "wallet"]
    assert Transaction.objects.filter(kind="deposit", legs__account=wallet).count() == 2


# --- problems: code, param, request id, a type that resolves -------------------------------


def test_a_problem_names_its_code_param_and_request_id(client_for, operator):
    client = client_for(OP)
    wallet = WalletFactory(player__operator=operator)
    response = client.post(
        f"/api/v1/wallets/{wallet.pk}/deposits/",
        {"amount": "12"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="p1",
        HTTP_X_REQUEST_ID="req-abc-123",
    )
    body = _problem(response, 400, "validation-error")
    assert body["param"] == "amount"
    assert body["request_id"] == response["X-Request-ID"] == "req-abc-123"
    header = _problem(
        client.post(f"/api/v1/wallets/{wallet.pk}/deposits/", {"amount": 1}, format="json"),
        400,
        "validation-error",
    )
    assert header["param"] == "Idempotency-Key"
    assert header["request_id"]  # generated when the client sent none
    domain = _problem(
        client.post(
            f"/api/v1/wallets/{wallet.pk}/withdrawals/",
            {"amount": 10**6},
            format="json",
            HTTP_IDEMPOTENCY_KEY="p2",
        ),
        422,
        "insufficient-funds",
    )
    assert "param" not in domain  # no one input is at fault


def test_every_problem_type_has_a_page_its_type_url_resolves_to(client):
    registry = problem_registry()
    assert {"validation-error", "insufficient-funds", "betting-closed", "not-found"} <= set(
        registry
    )
    index = client.get(TYPE_BASE)
    assert index.status_code == 200
    for code, problem in registry.items():
        page = client.get(reverse("problem-type", kwargs={"code": code}))
        assert page.status_code == 200, code
        text = page.content.decode()
        assert code in text and problem.description.split("`")[0][:40] in text.replace(
            "&#x27;", "'"
        )
        assert f"{TYPE_BASE}{code}" in index.content.decode()
    _problem(client.get(f"{TYPE_BASE}no-such-problem"), 404, "not-found")
    assert client.get(f"{TYPE_BASE}not-found/").status_code == 200  # either path form


def test_a_problems_type_url_is_served(client_for):
    response = client_for(OP).get("/api/v1/wallets/999999999/")
    body = _problem(response, 404, "not-found")
    assert body["type"].startswith("http://testserver/")
    page = client_for(OP).get(body["type"].removeprefix("http://testserver"))
    assert page.status_code == 200 and "not-found" in page.content.decode()


# --- FilterSets: strict ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "param"),
    [
        ("/api/v1/players/?external_ref=" + "x" * 65, "external_ref"),
        ("/api/v1/wallets/?player=abc", "player"),
        ("/api/v1/wallets/?player=0", "player"),
        ("/api/v1/wallets/?currency=eur", "currency"),
        ("/api/v1/transactions/?wallet=1.5", "wallet"),
        ("/api/v1/transactions/?round=99999999999999999999999", "round"),
        ("/api/v1/transactions/?table=-3", "table"),
        ("/api/v1/transactions/?kind=nonsense", "kind"),
        ("/api/v1/corrections/?status=nonsense", "status"),
        ("/api/v1/operator-events/?operator=abc", "operator"),
        ("/api/v1/tables/?status=nonsense", "status"),
        ("/api/v1/tables/?currency=euro", "currency"),
        ("/api/v1/audit/disputes/?round=abc", "round"),
        ("/api/v1/audit/disputes/?status=nonsense", "status"),
    ],
)
def test_a_bad_filter_value_is_a_400_naming_the_parameter(client_for, url, param):
    body = _problem(client_for(roles.AUDITOR).get(url), 400, "validation-error")
    assert body["param"] == param and [e["field"] for e in body["errors"]] == [param]


def test_the_filters_still_filter(client_for, operator):
    client = client_for(OP)
    a, b = funded_player(operator=operator), funded_player(operator=operator, currency="GBP")
    wallet_a = Account.objects.get(player=a)
    wallets = client.get("/api/v1/wallets/", {"currency": "GBP"}).json()["results"]
    assert [w["player_id"] for w in wallets] == [b.pk]
    txns = client.get("/api/v1/transactions/", {"wallet": wallet_a.pk, "kind": "deposit"})
    (txn,) = txns.json()["results"]
    assert {leg["account_id"] for leg in txn["legs"]} >= {wallet_a.pk}
    players = client.get("/api/v1/players/", {"external_ref": a.external_ref}).json()
    assert [p["id"] for p in players["results"]] == [a.pk]
