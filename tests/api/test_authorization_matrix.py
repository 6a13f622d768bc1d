"""The authorization matrix: every API operation x every principal x own / other tenant.

Generated from the URL configuration: every route under /api/v1/ and every HTTP method its
view implements must be declared in ``OPERATIONS`` (an undeclared operation, or a declared one
that no longer exists, fails the test), and every method a view does not implement is sent too
and must be refused. Each operation declares which tenant dimension its object belongs to
(an operator, a table, or the casino as a whole), how to build its URL and body for a given
tenant, and which principals may perform it on their own objects.

For each principal, each operation is sent for the principal's own tenant and for another
tenant (operator A's principals against operator B's objects, table X's device against table
Y's, the unlinked member of an operator's staff against operator A's). The rules checked:
- own: a principal the operation lists gets its declared answer (2xx, or the state check's
  409 where the fixture's state can't let it succeed: the request got past authorization and
  scoping); any other principal gets 401/403;
- other: never 2xx (401, 403 or 404), except a listing, which may answer 200 with nothing of
  the other tenant in it;
- a refused request writes nothing (a digest of every business table is unchanged);
- no answer to a scoped principal holds another tenant's data: not its operator, players,
  wallets or tables by id (``operator_id``, ``player_id``, ``controller``, ``wallet_id``,
  ``account_id``, ``table_id`` anywhere in the JSON), nor its names and references (markers).

Each request runs in a savepoint rolled back afterwards, so every case sees the same world.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from casino.api.services import api_key_issue, device_token_issue
from casino.api.staff_tokens import staff_token_issue
from casino.console.models import OperatorStaff
from forensics import disputes
from ledger import services as ledger
from ledger.models import OperatorEvent
from tables import services as tables
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

ACTOR = Actor.system("matrix")
ALL, NONE = "*", "-"  # a principal's home: every tenant of a dimension, or none


@dataclass(frozen=True)
class Principal:
    operator: str  # "A", "B", ALL or NONE
    table: str  # "X", ALL or NONE


PRINCIPALS = {
    roles.PIT_BOSS: Principal(ALL, ALL),
    roles.FLOOR_SUPERVISOR: Principal(ALL, ALL),
    roles.DEALER: Principal(ALL, ALL),
    roles.AUDITOR: Principal(ALL, ALL),
    "staff_A": Principal("A", ALL),
    "staff_B": Principal("B", ALL),
    "staff_unlinked": Principal(NONE, ALL),
    "key_A": Principal("A", ALL),
    "key_B": Principal("B", ALL),
    "device_X": Principal(NONE, "X"),
    "anonymous": Principal(NONE, ALL),
}
OTHER = {"A": "B", "B": "A", "X": "Y"}

# Who may do what on their own objects (the roles of casino/api/roles.py, written out).
CASINO_READERS = {roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.AUDITOR}
TABLE_READERS = CASINO_READERS | {roles.DEALER, "key_A", "key_B", "device_X"}
OPERATOR_STAFF = {"staff_A", "staff_B"}
KEYS = {"key_A", "key_B"}
OPERATOR_READERS = CASINO_READERS | OPERATOR_STAFF | KEYS
PIT = {roles.PIT_BOSS, roles.FLOOR_SUPERVISOR}
DEALERS = {roles.DEALER, "device_X"}
EVERYONE = set(PRINCIPALS)
STAFF_AND_CREDENTIALS = EVERYONE - {"anonymous"}
# Who may hold personal staff API tokens (the auditor changes nothing, not even that).
STAFF = {roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.DEALER} | OPERATOR_STAFF | {"staff_unlinked"}


@dataclass(frozen=True)
class Op:
    """One operation: ``dimension`` ("operator", "table" or "casino") says whose object it
    acts on; ``url(world, tenant)`` gives the route's kwargs, ``body(world, tenant)`` the
    JSON body; ``ok`` the principals allowed on their own objects, answered ``reached``;
    ``listing``: a list answer, or one that names no object (it acts on the caller's own),
    which may be 2xx for another tenant's principal if nothing of that tenant is in it."""

    dimension: str
    ok: set[str]
    url: Callable = lambda w, t: {}
    body: Callable | None = None
    reached: frozenset[int] = frozenset({200, 201})
    listing: bool = False
    public: bool = False


def _pk(attr):
    return lambda w, t: {"pk": getattr(w, attr)[t].pk}


CONFLICT = frozenset({409})  # the state check answered: authorization and scoping passed

OPERATIONS: dict[tuple[str, str], Op] = {
    # --- the platform
    ("health", "GET"): Op("casino", EVERYONE, public=True),
    ("health-live", "GET"): Op("casino", EVERYONE, public=True),
    ("health-ready", "GET"): Op("casino", EVERYONE, public=True),
    # a superuser's session or the scraper's METRICS_TOKEN: none of the matrix's principals
    ("health-detail", "GET"): Op("casino", set()),
    ("metrics", "GET"): Op("casino", set()),
    ("audit-keys", "GET"): Op("casino", EVERYONE, public=True),  # public keys
    ("me", "GET"): Op("casino", STAFF_AND_CREDENTIALS),
    ("api-key-list", "GET"): Op("casino", CASINO_READERS),
    ("api-key-list", "POST"): Op(
        "casino",
        {roles.FLOOR_SUPERVISOR},
        body=lambda w, t: {"operator_id": w.operator["A"].pk, "label": "matrix"},
    ),
    ("api-key-revoke", "POST"): Op(
        "casino",
        {roles.FLOOR_SUPERVISOR},
        url=lambda w, t: {"pk": w.key["A"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    ("api-key-rotate", "POST"): Op(
        "casino",
        {roles.FLOOR_SUPERVISOR},
        url=lambda w, t: {"pk": w.key["A"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    ("device-token-list", "GET"): Op("casino", CASINO_READERS),
    ("device-token-list", "POST"): Op(
        "casino", PIT, body=lambda w, t: {"table_id": w.table["X"].pk, "device_id": "matrix"}
    ),
    ("device-token-rotate", "POST"): Op(
        "casino",
        PIT,
        url=lambda w, t: {"pk": w.device["X"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    ("device-token-revoke", "POST"): Op(
        "casino",
        PIT,
        url=lambda w, t: {"pk": w.device["X"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    # Staff API tokens: a staff member lists its own (nothing of anyone else's) and mints
    # one from its verified session for a role it holds (here pit_boss); only the owner (the
    # pit boss's session) revokes it.
    ("staff-token-list", "GET"): Op("casino", STAFF, listing=True),
    ("staff-token-list", "POST"): Op(
        "casino", {roles.PIT_BOSS}, body=lambda w, t: {"label": "matrix", "role": roles.PIT_BOSS}
    ),
    ("staff-token-revoke", "POST"): Op(
        "casino", {roles.PIT_BOSS}, url=lambda w, t: {"pk": w.staff_token.pk}
    ),
    ("schema", "GET"): Op("casino", EVERYONE, public=True),
    ("docs", "GET"): Op("casino", EVERYONE, public=True),
    # --- tables
    ("table-list", "GET"): Op("table", TABLE_READERS, listing=True),
    ("table-detail", "GET"): Op("table", TABLE_READERS, url=_pk("table")),
    ("table-round", "GET"): Op("table", TABLE_READERS, url=_pk("table")),
    ("table-events", "GET"): Op("table", TABLE_READERS, url=_pk("table")),
    ("table-open", "POST"): Op("table", PIT, url=_pk("table"), reached=CONFLICT),
    ("table-pause", "POST"): Op("table", PIT, url=_pk("table")),
    ("table-resume", "POST"): Op("table", PIT, url=_pk("table"), reached=CONFLICT),
    ("table-close", "POST"): Op("table", PIT, url=_pk("table"), reached=CONFLICT),
    ("table-list", "POST"): Op(
        "casino",
        PIT,
        body=lambda w, t: {
            "casino_id": w.table["X"].casino_id,
            "code": f"m-{uuid.uuid4().hex[:8]}",
            "name": "matrix",
            "rule_set_id": w.table["X"].rule_set_id,
            "payout_schedule_id": w.table["X"].payout_schedule_id,
        },
    ),
    ("table-clone", "POST"): Op(
        "table",
        PIT,
        url=_pk("table"),
        body=lambda w, t: {"code": f"m-{uuid.uuid4().hex[:8]}", "name": "matrix"},
    ),
    # an open table is refused (409) by the state check, after authorization and scoping
    ("table-retire", "POST"): Op("table", PIT, url=_pk("table"), reached=CONFLICT | {200}),
    ("table-setup", "POST"): Op(
        "table", PIT, url=_pk("table"), body=lambda w, t: {"name": "matrix", "pit_id": None}
    ),
    ("table-limits", "POST"): Op(
        "table", PIT, url=_pk("table"), body=lambda w, t: {"min_bet": 100, "max_bet": 5_000}
    ),
    ("table-rules", "GET"): Op("table", TABLE_READERS, url=_pk("table")),
    ("table-rules", "POST"): Op(
        "table",
        PIT,
        url=_pk("table"),
        body=lambda w, t: {
            "rule_set_id": w.table[t].rule_set_id,
            "payout_schedule_id": w.table[t].payout_schedule_id,
        },
    ),
    ("table-dealer", "POST"): Op(
        "table", PIT, url=_pk("table"), body=lambda w, t: {"dealer_id": w.dealer.pk}
    ),
    ("table-rounds", "POST"): Op("table", DEALERS, url=_pk("table"), reached=CONFLICT),
    ("table-shoes", "POST"): Op(
        "table",
        DEALERS,
        url=_pk("table"),
        body=lambda w, t: {"shuffle_method": "matrix"},
        reached=frozenset({201, 409}),
    ),
    ("round-detail", "GET"): Op("table", TABLE_READERS, url=_pk("round")),
    ("round-close-betting", "POST"): Op("table", DEALERS, url=_pk("round")),
    ("round-cards", "POST"): Op(
        "table", DEALERS, url=_pk("round"), body=lambda w, t: {"card": "AS"}, reached=CONFLICT
    ),
    ("round-dealer-decisions", "POST"): Op(
        "table",
        DEALERS,
        url=_pk("round"),
        body=lambda w, t: {"action": "hit"},
        reached=frozenset({409, 422}),  # not now, and not in this game
    ),
    ("round-void-request", "POST"): Op(
        "casino",
        {roles.PIT_BOSS},
        url=lambda w, t: {"pk": w.round["X"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    ("round-void-request", "GET"): Op(
        "casino", CASINO_READERS, url=lambda w, t: {"pk": w.round["Y"].pk}
    ),
    ("round-void-approve", "POST"): Op(
        "casino", {roles.FLOOR_SUPERVISOR}, url=lambda w, t: {"pk": w.round["Y"].pk}
    ),
    ("round-void-reject", "POST"): Op(
        "casino",
        {roles.FLOOR_SUPERVISOR},
        url=lambda w, t: {"pk": w.round["Y"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    ("round-void-cancel", "POST"): Op(
        "casino",
        {roles.PIT_BOSS},
        url=lambda w, t: {"pk": w.round["Y"].pk},
        body=lambda w, t: {"reason": "matrix"},
    ),
    ("round-resume", "POST"): Op("table", PIT, url=_pk("round"), reached=CONFLICT),
    # Bets and decisions: the round is any table's, the player is the operator's.
    ("round-bets", "POST"): Op(
        "operator",
        KEYS,
        url=lambda w, t: {"pk": w.round["X"].pk},
        body=lambda w, t: {"player_id": w.bettor[t].pk, "box": 3, "stake": 100},
    ),
    ("round-decisions", "POST"): Op(
        "operator",
        KEYS,
        url=lambda w, t: {"pk": w.round["X"].pk},
        body=lambda w, t: {"player_id": w.player[t].pk, "action": "hit"},
        reached=CONFLICT,
    ),
    # --- audit (casino staff only)
    ("audit-event-list", "GET"): Op("casino", CASINO_READERS),
    ("audit-event-detail", "GET"): Op(
        "casino", CASINO_READERS, url=lambda w, t: {"pk": w.audit_event.pk}
    ),
    ("audit-verification", "GET"): Op("casino", CASINO_READERS),
    ("audit-head", "GET"): Op("casino", CASINO_READERS),
    ("audit-round-replay", "GET"): Op(
        "casino", CASINO_READERS, url=lambda w, t: {"pk": w.round["X"].pk}
    ),
    ("dispute-list", "GET"): Op("casino", CASINO_READERS),
    ("dispute-list", "POST"): Op(
        "casino", PIT, body=lambda w, t: {"round_id": w.round["X"].pk, "claim": "matrix"}
    ),
    ("dispute-detail", "GET"): Op("casino", CASINO_READERS, url=lambda w, t: {"pk": w.case.pk}),
    ("dispute-notes", "POST"): Op(
        "casino", PIT, url=lambda w, t: {"pk": w.case.pk}, body=lambda w, t: {"text": "matrix"}
    ),
    ("dispute-investigate", "POST"): Op("casino", PIT, url=lambda w, t: {"pk": w.case.pk}),
    ("dispute-resolve", "POST"): Op(
        "casino",
        {roles.FLOOR_SUPERVISOR},
        url=lambda w, t: {"pk": w.case.pk},
        body=lambda w, t: {"outcome": "rejected", "resolution": "matrix"},
        reached=CONFLICT,  # the case is open, not yet investigated
    ),
    ("audit-report", "GET"): Op("casino", CASINO_READERS, url=lambda w, t: {"kind": "dealer"}),
    # --- ledger
    ("player-list", "GET"): Op("operator", OPERATOR_READERS | {"staff_unlinked"}, listing=True),
    ("player-list", "POST"): Op(
        "operator",
        KEYS,
        body=lambda w, t: {"external_ref": "matrix-new", "operator_id": w.operator[t].pk},
    ),
    ("player-detail", "GET"): Op("operator", OPERATOR_READERS, url=_pk("player")),
    ("wallet-list", "GET"): Op("operator", OPERATOR_READERS | {"staff_unlinked"}, listing=True),
    ("wallet-list", "POST"): Op(
        "operator", KEYS, body=lambda w, t: {"player_id": w.player[t].pk, "currency": "USD"}
    ),
    ("wallet-detail", "GET"): Op("operator", OPERATOR_READERS, url=_pk("wallet")),
    ("wallet-balance", "GET"): Op("operator", OPERATOR_READERS, url=_pk("wallet")),
    ("wallet-deposit", "POST"): Op(
        "operator", KEYS, url=_pk("wallet"), body=lambda w, t: {"amount": 100}
    ),
    ("wallet-withdraw", "POST"): Op(
        "operator", KEYS, url=_pk("wallet"), body=lambda w, t: {"amount": 100}
    ),
    ("transaction-list", "GET"): Op(
        "operator", OPERATOR_READERS | {"staff_unlinked"}, listing=True
    ),
    ("transaction-detail", "GET"): Op("operator", OPERATOR_READERS, url=_pk("deposit")),
    ("house-account-list", "GET"): Op("casino", CASINO_READERS),
    ("correction-list", "GET"): Op("casino", CASINO_READERS),
    ("correction-list", "POST"): Op(
        "casino",
        PIT,
        body=lambda w, t: {"transaction_id": w.deposit["B"].pk, "reason": "matrix"},
    ),
    ("correction-detail", "GET"): Op(
        "casino", CASINO_READERS, url=lambda w, t: {"pk": w.correction.pk}
    ),
    ("correction-approve", "POST"): Op(
        "casino", {roles.FLOOR_SUPERVISOR}, url=lambda w, t: {"pk": w.correction.pk}
    ),
    ("correction-reject", "POST"): Op(
        "casino", {roles.FLOOR_SUPERVISOR}, url=lambda w, t: {"pk": w.correction.pk}
    ),
    ("table-accounting", "GET"): Op("operator", CASINO_READERS | KEYS, listing=True),
    ("operator-event-feed", "GET"): Op(
        "operator", OPERATOR_READERS | {"staff_unlinked"}, listing=True
    ),
    # The caller's own operator's webhook: no object named, so "other" is the same request.
    ("own-webhook", "GET"): Op("operator", OPERATOR_STAFF | KEYS, listing=True),
    ("own-webhook", "PUT"): Op(
        "operator", KEYS, body=lambda w, t: {"webhook_url": ""}, listing=True
    ),
    ("operator-webhook", "POST"): Op(
        "operator",
        {roles.FLOOR_SUPERVISOR},
        url=lambda w, t: {"pk": w.operator[t].pk},
        body=lambda w, t: {"url": ""},
    ),
    # The world's operators have no webhook URL: the state check's 409 once allowed.
    ("operator-event-redeliver", "POST"): Op(
        "operator",
        {roles.FLOOR_SUPERVISOR} | KEYS,
        url=lambda w, t: {"event_id": w.event[t].public_id},
        reached=CONFLICT,
    ),
    ("docs-guide", "GET"): Op("casino", EVERYONE, public=True),
    ("problem-index", "GET"): Op("casino", EVERYONE, public=True),
    ("problem-type", "GET"): Op(
        "casino", EVERYONE, public=True, url=lambda w, t: {"code": "not-found"}
    ),
}

IMPLEMENTED = ("get", "post", "put", "patch", "delete")


class _GetOnly:
    def get(self): ...


def _api_routes() -> dict[str, tuple[str, type]]:
    """Every named route under /api/v1/: name -> (route, view class)."""
    found: dict[str, tuple[str, type]] = {}

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and route.startswith("api/v1/"):
                view = (
                    getattr(entry.callback, "cls", None)
                    or getattr(entry.callback, "view_class", None)
                    or _GetOnly  # the operational endpoints (casino/ops_views.py: get_only)
                )
                assert entry.name not in found, f"two API routes named {entry.name}"
                found[entry.name] = (route, view)

    walk(get_resolver().url_patterns, "")
    return found


def test_every_api_operation_is_declared_in_the_matrix():
    routes = _api_routes()
    operations = {
        (name, method.upper())
        for name, (_, view) in routes.items()
        for method in IMPLEMENTED
        if hasattr(view, method)
    }
    undeclared = sorted(operations - OPERATIONS.keys())
    stale = sorted(OPERATIONS.keys() - operations)
    assert undeclared == [], f"declare these operations in OPERATIONS: {undeclared}"
    assert stale == [], f"these declared operations no longer exist: {stale}"


# --- the world -----------------------------------------------------------------------------


@dataclass
class World:
    operator: dict = field(default_factory=dict)
    player: dict = field(default_factory=dict)
    bettor: dict = field(default_factory=dict)
    wallet: dict = field(default_factory=dict)
    deposit: dict = field(default_factory=dict)
    event: dict = field(default_factory=dict)
    key: dict = field(default_factory=dict)
    table: dict = field(default_factory=dict)
    round: dict = field(default_factory=dict)
    device: dict = field(default_factory=dict)
    clients: dict = field(default_factory=dict)
    markers: dict = field(default_factory=dict)
    ids: dict = field(default_factory=dict)
    dealer: object = None
    correction: object = None
    case: object = None
    audit_event: object = None
    staff_token: object = None


def _world() -> World:
    w = World()
    for t in "AB":
        operator = w.operator[t] = OperatorFactory(code=f"matrix-op-{t}", name=f"Matrix Op {t}")
        player = w.player[t] = PlayerFactory(
            operator=operator, external_ref=f"matrix-player-{t}", display_name=f"Matrix {t}"
        )
        wallet = w.wallet[t] = WalletFactory(player=player)
        w.bettor[t] = funded_player(operator=operator)
        w.deposit[t], _ = ledger.wallet_deposit(
            actor=ACTOR, wallet=wallet, amount=100_000, reference=f"matrix-ref-{t}"
        )
        w.event[t] = OperatorEvent.objects.filter(operator=operator).first()
        w.key[t], raw = api_key_issue(actor=ACTOR, operator=operator, label=f"matrix-key-{t}")
        w.clients[f"key_{t}"] = _bearer(raw)
        staff = UserFactory(roles=[roles.OPERATOR_STAFF])
        OperatorStaff.objects.create(user=staff, operator=operator)
        w.clients[f"staff_{t}"] = _session(staff)
        w.markers[t] = [f"matrix-op-{t}", f"Matrix Op {t}", f"matrix-player-{t}", f"Matrix {t}"]
    w.dealer = UserFactory(roles=[roles.DEALER])
    for t in "XY":
        # Betting stays open for the whole matrix however slow the machine (bets come late).
        # The dealer deals at both tables (a dealer elsewhere: tests/api/test_roles.py).
        table = w.table[t] = live_table(
            "crown", code=f"matrix-table-{t}", betting_seconds=3600, dealer=w.dealer
        )
        w.device[t], raw = device_token_issue(actor=ACTOR, table=table, device_id=f"dev-{t}")
        if t == "X":
            w.clients["device_X"] = _bearer(raw)
        rnd = w.round[t] = tables.round_open(actor=ACTOR, table_id=table.pk)
        # Both operators' players bet at both tables (the bettors of "round-bets" are others:
        # a player plays one box).
        for box, o in ((1, "A"), (2, "B")):
            tables.bet_place(actor=ACTOR, round_id=rnd.pk, player=w.player[o], box=box, stake=100)
        w.markers[t] = [f"matrix-table-{t}"]
    for role in (roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.DEALER, roles.AUDITOR):
        user = w.dealer if role == roles.DEALER else UserFactory(roles=[role])
        w.clients[role] = _session(user)
        if role == roles.PIT_BOSS:
            w.staff_token, _ = staff_token_issue(
                actor=ACTOR, user=user, role=role, label="matrix-token"
            )
    w.clients["staff_unlinked"] = _session(UserFactory(roles=[roles.OPERATOR_STAFF]))
    w.clients["anonymous"] = APIClient()
    requester = UserFactory(roles=[roles.PIT_BOSS])
    small, _ = ledger.wallet_deposit(actor=ACTOR, wallet=w.wallet["A"], amount=50)
    w.correction = ledger.correction_request(
        actor=ACTOR, user=requester, original=small, reason="matrix", replacement_legs=[]
    )
    tables.void_request(actor=ACTOR, user=requester, round_id=w.round["Y"].pk, reason="matrix")
    w.case = disputes.dispute_open(
        actor=ACTOR,
        user=requester,
        round_id=w.round["X"].pk,
        bet_ref="",
        claim="matrix",
        claimant="",
        evidence=[],
    )
    w.audit_event = AuditEvent.objects.order_by("pk").first()
    wallets = {t: w.wallet[t].pk for t in "AB"}
    w.ids = {
        "A": {"operator_id": {w.operator["A"].pk}, "player_id": {w.player["A"].pk}},
        "B": {"operator_id": {w.operator["B"].pk}, "player_id": {w.player["B"].pk}},
        "X": {"table_id": {w.table["X"].pk}},
        "Y": {"table_id": {w.table["Y"].pk}},
    }
    for t in "AB":
        w.ids[t]["controller"] = w.ids[t]["player_id"]
        w.ids[t]["wallet_id"] = w.ids[t]["account_id"] = {wallets[t]}
    return w


def _bearer(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def _session(user) -> APIClient:
    client = APIClient()
    login_verified(client, user)
    return client


# --- what a request wrote, and what an answer shows ----------------------------------------

# Rows written to every business table in this database transaction, rolled back or not
# (PostgreSQL's per-transaction counters keep a rolled-back savepoint's writes): a refused
# request must not move it. Left out: the audit log (refusals are audited on purpose) and
# the updates of credentials (authentication touches their last_used_at, whatever the answer).
_UNWATCHED = {"audit_auditevent", "audit_auditseal"}
_INSERTS_ONLY = {"api_apikey", "api_devicetoken"}


def _writes_sql() -> str:
    from django.apps import apps

    watched = [
        model._meta.db_table
        for label in ("api", "audit", "console", "ledger", "tables")
        for model in apps.get_app_config(label).get_models()
        if model._meta.db_table not in _UNWATCHED
    ]
    names = ", ".join(f"'{name}'" for name in watched)
    inserts_only = ", ".join(f"'{name}'" for name in _INSERTS_ONLY)
    return (
        "SELECT coalesce(sum(n_tup_ins + n_tup_del"
        f" + CASE WHEN relname IN ({inserts_only}) THEN 0 ELSE n_tup_upd END), 0)"
        f" FROM pg_stat_xact_user_tables WHERE relname IN ({names})"
    )


def _writes(sql: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def _leaks(payload, ids: dict[str, set]) -> list[str]:
    """Keys of ``payload`` (any depth) whose value is one of ``ids[key]``."""
    found = []
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in ids and value in ids[key]:
                found.append(f"{key}={value}")
            found += _leaks(value, ids)
    elif isinstance(payload, list):
        for item in payload:
            found += _leaks(item, ids)
    return found


def _others(principal: Principal) -> list[str]:
    """The tenants whose data the principal must never see."""
    out = []
    if principal.operator != ALL:
        out += [t for t in "AB" if t != principal.operator]
    if principal.table != ALL:
        out += [t for t in "XY" if t != principal.table]
    return out


def _variants(op: Op, principal: Principal) -> list[tuple[str, str]]:
    """(own | other, tenant) pairs to send: a casino-wide principal has no "other"."""
    if op.dimension == "casino":
        return [("own", "A")]
    home = principal.operator if op.dimension == "operator" else principal.table
    first = "A" if op.dimension == "operator" else "X"
    if home == ALL:
        return [("own", first)]
    if home == NONE:
        return [("other", first)]
    return [("own", home), ("other", OTHER[home])]


def _send(client: APIClient, method: str, url: str, body):
    headers = {"HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex}
    if method in ("GET", "DELETE"):
        return client.generic(method, url, **headers)
    return client.generic(
        method, url, json.dumps(body or {}), content_type="application/json", **headers
    )


def test_no_read_or_write_crosses_a_tenant_boundary(settings):
    settings.TABLES_STREAM_SECONDS = 0
    w = _world()
    routes = _api_routes()
    writes_sql = _writes_sql()
    writes = _writes(writes_sql)
    failures: list[str] = []
    sent = 0
    for (name, method), op in sorted(OPERATIONS.items()):
        _, view = routes[name]
        for who, principal in PRINCIPALS.items():
            if op.public and who != "anonymous":
                continue  # the same public answer for everyone (the schema takes a second)
            for variant, tenant in _variants(op, principal):
                url = reverse(name, kwargs=op.url(w, tenant))
                body = op.body(w, tenant) if op.body else {}
                case = f"{method} {url} as {who} ({variant} {tenant})"
                with transaction.atomic():
                    response = _send(w.clients[who], method, url, body)
                    content = streamed_content(response)
                    status = response.status_code
                    wrote, writes = (now := _writes(writes_sql)) != writes, now
                    if wrote and not 200 <= status < 300:
                        failures.append(f"{case}: refused with {status} but wrote")
                    transaction.set_rollback(True)
                sent += 1
                failures += _judge(case, op, who, principal, variant, status, content, w)
    # Methods a view does not implement are refused, writing nothing, even to the staff
    # member with the most permissions and to a bearer credential: a 405 problem once
    # authenticated (the methods a path offers are public in the schema and the same for
    # every object), before the role is looked at; 401 for an anonymous caller, who learns
    # nothing (casino/api/permissions.py, the order of refusals).
    for name, (_, view) in sorted(routes.items()):
        op = next(op for (n, _), op in OPERATIONS.items() if n == name)
        url = reverse(name, kwargs=op.url(w, "X" if op.dimension == "table" else "A"))
        for missing in ("GET", "POST", "PUT", "PATCH", "DELETE"):
            if hasattr(view, missing.lower()):
                continue
            for who in (roles.FLOOR_SUPERVISOR, "key_A", "anonymous"):
                # The operational endpoints check their own token after the method.
                anonymous_401 = not op.public and name not in ("health-detail", "metrics")
                expected = 401 if who == "anonymous" and anonymous_401 else 405
                with transaction.atomic():
                    response = _send(w.clients[who], missing, url, {})
                    status = response.status_code
                    wrote, writes = (now := _writes(writes_sql)) != writes, now
                    transaction.set_rollback(True)
                sent += 1
                problem = response.get("Content-Type") == "application/problem+json"
                if status != expected or wrote or not problem:
                    failures.append(
                        f"{missing} {url} as {who}: {status} (expected {expected} problem), "
                        f"{response.get('Content-Type')}, wrote={wrote}"
                    )
    print(f"authorization matrix: {sent} requests, {len(failures)} failures")
    assert sent > 900
    assert failures == [], "\n".join(failures)


def _judge(case, op, who, principal, variant, status, content, w) -> list[str]:
    out = []
    if variant == "own":
        if who in op.ok and status not in op.reached:
            out.append(f"{case}: {status}, expected {sorted(op.reached)}: {content[:200]!r}")
        if who not in op.ok and status not in (401, 403):
            out.append(f"{case}: {status}, expected 401/403: {content[:200]!r}")
    else:
        allowed = op.reached if op.listing and who in op.ok else set()
        if status not in allowed | {401, 403, 404}:
            out.append(f"{case}: {status} for another tenant's object: {content[:200]!r}")
    if 200 <= status < 300:
        text = content.decode("utf-8", "replace")
        for other in _others(principal):
            for marker in w.markers[other]:
                if marker in text:
                    out.append(f"{case}: shows {marker!r} of {other}")
            try:
                payload = json.loads(text)
            except ValueError:
                payload = [
                    json.loads(line[6:]) for line in text.split("\n") if line[:6] == "data: "
                ]
            out += [f"{case}: shows {leak} of {other}" for leak in _leaks(payload, w.ids[other])]
    return out
