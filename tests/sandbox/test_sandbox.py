"""The sandbox (casino/sandbox): test-mode operators and keys see only sandbox tables, which
deal themselves in play money; live keys never see them, and sandbox money stays apart."""

from __future__ import annotations

import json
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino.actors import Actor
from casino.api import roles
from casino.api.services import api_key_issue
from casino.money import PLAY_MONEY
from casino.sandbox import services as sandbox
from ledger.services import wallet_deposit, wallet_open
from tables import services as tables
from tables.models import Round, Table
from tables.selectors import round_public_state
from tests.conftest import staff_client
from tests.factories import OperatorFactory, PlayerFactory, live_table

pytestmark = pytest.mark.django_db
ACTOR = Actor.system("tests")


def bearer(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


@pytest.fixture
def world():
    """A live operator with a live table and round, a sandbox operator with a sandbox table
    and round, each with a funded player and a key."""
    live_op = OperatorFactory()
    sand_op = sandbox.sandbox_operator_create(actor=ACTOR, code="sbx", name="Sandbox op")
    live_player = PlayerFactory(operator=live_op)
    sand_player = PlayerFactory(operator=sand_op)
    for player, currency in ((live_player, "EUR"), (sand_player, PLAY_MONEY)):
        wallet, _ = wallet_open(actor=ACTOR, player=player, currency=currency)
        wallet_deposit(actor=ACTOR, wallet=wallet, amount=100_000)
    live = live_table("crown", card_source="server_shoe", betting_seconds=600)
    sand = sandbox.sandbox_table_create(
        actor=ACTOR, preset="crown", code="sbx-crown", betting_seconds=600
    )
    return {
        "live": {
            "key": api_key_issue(actor=ACTOR, operator=live_op, label="live")[1],
            "player": live_player,
            "table": live,
            "round": tables.round_open(actor=ACTOR, table_id=live.pk),
        },
        "sandbox": {
            "key": sandbox.sandbox_key_issue(actor=ACTOR, operator=sand_op, label="sbx")[1],
            "player": sand_player,
            "table": sand,
            "round": tables.round_open(actor=ACTOR, table_id=sand.pk),
        },
    }


def test_sandbox_table_is_open_on_the_server_shoe_in_play_money_with_fast_timers(world):
    table = world["sandbox"]["table"]
    assert table.status == Table.Status.OPEN
    assert table.card_source == Table.CardSource.SERVER_SHOE
    assert table.currency == PLAY_MONEY
    fresh = sandbox.sandbox_table_create(actor=ACTOR, preset="traditional", code="sbx-trad")
    assert (fresh.betting_seconds, fresh.decision_seconds) == (8, 5)


@pytest.mark.parametrize(("mine", "other"), [("live", "sandbox"), ("sandbox", "live")])
def test_a_key_lists_only_its_own_casinos_tables(world, mine, other):
    listed = bearer(world[mine]["key"]).get("/api/v1/tables/?page_size=100").json()["results"]
    ids = {t["id"] for t in listed}
    assert world[mine]["table"].pk in ids
    assert world[other]["table"].pk not in ids
    sandbox_ids = set(Table.objects.filter(sandbox__isnull=False).values_list("pk", flat=True))
    assert (ids <= sandbox_ids) if mine == "sandbox" else not (ids & sandbox_ids)


def _object_routes():
    """Every API route taking a table or round id, with each method an operator's key may
    call: new routes are covered as they are added."""
    allowed = set(roles.ROLE_PERMISSIONS[roles.OPERATOR_INTEGRATION])

    def walk(resolver, prefix=""):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern

    for path, pattern in walk(get_resolver()):
        view = getattr(pattern.callback, "cls", None)
        if not path.startswith("api/v1/") or "<int:pk>" not in path or view is None:
            continue
        kind = path.removeprefix("api/v1/").split("/")[0]
        if kind not in ("tables", "rounds"):
            continue
        for method, needed in getattr(view, "required_permissions", {}).items():
            needed = (needed,) if isinstance(needed, str) else needed
            if set(needed) <= allowed:
                yield pattern.name, method, kind


ROUTES = sorted(set(_object_routes()))


def test_the_routes_cover_what_an_integrator_reaches():
    names = {(name, method) for name, method, _ in ROUTES}
    assert {
        ("table-detail", "GET"),
        ("table-round", "GET"),
        ("table-events", "GET"),
        ("round-detail", "GET"),
        ("round-bets", "POST"),
        ("round-decisions", "POST"),
    } <= names


@pytest.mark.parametrize(("mine", "other"), [("live", "sandbox"), ("sandbox", "live")])
@pytest.mark.parametrize(("name", "method", "kind"), ROUTES)
def test_the_other_casinos_objects_do_not_exist_for_a_key(world, mine, other, name, method, kind):
    """A key asking for the other casino's table or round gets exactly what it gets for an id
    that exists nowhere: the object's existence does not show."""
    client = bearer(world[mine]["key"])
    target = world[other]["table" if kind == "tables" else "round"].pk
    player = world[mine]["player"].pk
    body = (
        {"player_id": player, "action": "stand"}
        if name == "round-decisions"
        else {"player_id": player, "box": 1, "stake": 100}
    )

    def send(pk):
        url = reverse(name, kwargs={"pk": pk})
        if method == "GET":
            return client.get(url)
        return client.generic(
            method,
            url,
            data=json.dumps(body),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )

    answer, nowhere = send(target), send(2_000_000_000)
    assert answer.status_code == nowhere.status_code == 404, answer.content
    same = ("type", "title", "code")  # the problem's kind (its detail names the id asked)
    assert {k: answer.json().get(k) for k in same} == {k: nowhere.json().get(k) for k in same}


def test_each_key_plays_its_own_casino(world):
    for mode in ("live", "sandbox"):
        mine = world[mode]
        answer = bearer(mine["key"]).post(
            f"/api/v1/rounds/{mine['round'].pk}/bets/",
            {"player_id": mine["player"].pk, "box": 1, "stake": 500},
            format="json",
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        assert answer.status_code == 201, answer.content


@pytest.mark.parametrize(("mode", "currency"), [("sandbox", "EUR"), ("live", PLAY_MONEY)])
def test_play_money_is_the_sandboxs_only_and_only_the_sandboxs(world, mode, currency):
    answer = bearer(world[mode]["key"]).post(
        "/api/v1/wallets/",
        {"player_id": world[mode]["player"].pk, "currency": currency},
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert answer.status_code == 422, answer.content
    assert answer.json()["type"].endswith("wrong-currency")


def test_a_sandbox_operator_cannot_take_a_live_operators_code():
    live = OperatorFactory(code="taken")
    with pytest.raises(Exception, match="live operator"):
        sandbox.sandbox_operator_ensure(actor=ACTOR, code=live.code, name="x")


def test_the_sandbox_dealer_opens_rounds_and_plays_the_banker(world):
    """At the banker's-choice game (traditional) the sandbox dealer plays the banker's hand
    out; everywhere it opens the next round once one has ended."""
    table = sandbox.sandbox_table_create(actor=ACTOR, preset="traditional", code="sbx-trad2")
    player = world["sandbox"]["player"]
    decisions = 0
    # A round may end before the banker's turn (a box's pontoon): play until the banker played.
    for _ in range(6):
        assert sandbox.sandbox_tables_drive()["opened"] == 1  # no live round: a new one
        rnd = Round.objects.get(table=table, phase=Round.Phase.OPEN)
        decisions += _play_round(rnd, player)
        rnd.refresh_from_db()
        assert rnd.phase not in Round.LIVE, rnd.phase
        if decisions:
            break
    assert decisions >= 1


def _play_round(rnd: Round, player) -> int:
    """One round with one staked box: the box stakes, its windows run out (the rule book's
    defaults), the sandbox dealer plays the banker. The sandbox dealer's decisions."""
    tables.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=1, stake=0, operator_id=None)
    tables.round_close_betting(actor=ACTOR, round_id=rnd.pk)
    decisions = 0
    for _ in range(40):
        rnd.refresh_from_db()
        if rnd.phase not in Round.LIVE:
            break
        seen = round_public_state(rnd, player_id=player.pk)
        if seen["turn"]["kind"] == "dealer":  # before the banker's own timer would
            decisions += sandbox.sandbox_tables_drive()["dealer_decisions"]
            continue
        stake = next((a for a in seen["your_actions"] if a["action"] == "stake"), None)
        if stake is not None:
            tables.decision_make(
                actor=ACTOR,
                round_id=rnd.pk,
                player=player,
                action="stake",
                amount=stake["amount_min"],
                bet_ref=stake["bet_id"],
            )
            continue
        Round.objects.filter(pk=rnd.pk).update(decision_deadline=timezone.now())
        tables.round_timeout_apply(round_id=rnd.pk, token=rnd.decision_token)
    return decisions


def _play_out(rnd: Round) -> None:
    """Close betting and let every window run out (the rule book's defaults) until the round
    settles (the settlement task's service, run here)."""
    tables.round_close_betting(actor=ACTOR, round_id=rnd.pk)
    for _ in range(40):
        rnd.refresh_from_db()
        if rnd.phase not in Round.LIVE:
            break
        if rnd.decision_token is None:
            sandbox.sandbox_tables_drive()
            continue
        Round.objects.filter(pk=rnd.pk).update(decision_deadline=timezone.now())
        tables.round_timeout_apply(round_id=rnd.pk, token=rnd.decision_token)
    tables.round_settle(round_id=rnd.pk, actor=ACTOR)
    rnd.refresh_from_db()
    assert rnd.phase == Round.Phase.SETTLED


def test_sandbox_money_is_accounted_apart_in_play_money(world):
    """Table accounting (the casino's and each operator's) shows sandbox play as play-money
    lines of the sandbox operator and tables only: no real-currency figure includes it."""
    for mode in ("live", "sandbox"):
        mine = world[mode]
        tables.bet_place(
            actor=ACTOR,
            round_id=mine["round"].pk,
            player=mine["player"],
            box=1,
            stake=500,
            operator_id=None,
        )
        _play_out(mine["round"])
    sand_op = world["sandbox"]["player"].operator_id
    rows = (
        staff_client(roles.PIT_BOSS).get("/api/v1/table-accounting/?group_by=operator,table").json()
    )
    rows = rows["results"] if isinstance(rows, dict) else rows
    sandbox_rows = [r for r in rows if r["operator"] == sand_op]
    assert sandbox_rows and {r["currency"] for r in sandbox_rows} == {PLAY_MONEY}
    assert {r["table"] for r in sandbox_rows} == {world["sandbox"]["table"].pk}
    assert sum(r["handle"] for r in sandbox_rows) >= 500
    real = [r for r in rows if r["currency"] != PLAY_MONEY]
    assert real and sand_op not in {r["operator"] for r in real}
    assert world["sandbox"]["table"].pk not in {r["table"] for r in real}
    # a live key's own accounting has none of it
    own = bearer(world["live"]["key"]).get("/api/v1/table-accounting/?group_by=table").json()
    own = own["results"] if isinstance(own, dict) else own
    assert own and {r["currency"] for r in own} == {"EUR"}


@pytest.mark.parametrize(("mine", "other"), [("live", "sandbox"), ("sandbox", "live")])
def test_the_other_casinos_players_do_not_exist_for_a_key(world, mine, other):
    client = bearer(world[mine]["key"])
    player = world[other]["player"]
    assert client.get(f"/api/v1/players/{player.pk}/").status_code == 404
    listed = client.get("/api/v1/players/?page_size=100").json()["results"]
    assert {p["id"] for p in listed} == {world[mine]["player"].pk}


def test_manage_sandbox_sets_up_an_integrator(capsys):
    call_command("sandbox", "--operator", "acme-test", "--preset", "crown")
    first = json.loads(capsys.readouterr().out)
    call_command("sandbox", "--operator", "acme-test", "--preset", "crown")
    second = json.loads(capsys.readouterr().out)
    assert first["operator"] == second["operator"] and first["api_key"] != second["api_key"]
    assert [t["code"] for t in second["tables"]] == ["sandbox-crown"]
    listed = bearer(second["api_key"]).get("/api/v1/tables/").json()["results"]
    assert [t["code"] for t in listed] == ["sandbox-crown"]
    live = OperatorFactory()
    with pytest.raises(CommandError, match="live operator"):
        call_command("sandbox", "--operator", live.code)
