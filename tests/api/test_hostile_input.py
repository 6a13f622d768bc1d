"""The hostile-input corpus, run against every operation of the OpenAPI schema (so it grows by
itself as endpoints are added) as every role.

Each request carries one hostile element (NUL, a lone surrogate in a string or a key, deep
nesting, a 3 MB body, huge numbers, a non-integer amount, a tampered cursor, an extreme date,
a wrong content type...) in an otherwise plausible request. Whatever the operation ignores may
be accepted; nothing may answer >= 500, every refusal is a problem document, and a refused
request writes nothing (every table's row count and newest row version are compared around
each request; the only rows a refusal may add are the audit events recording refusals).

Body cases go to the operations that take a body; the rest to every operation. Each case is
sent as a role allowed to call the operation (in turn), and every other role gets one case
per operation, so every operation sees every case and every role.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import uuid
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator

from casino.actors import Actor
from casino.api import roles
from casino.api.services import api_key_issue, device_token_issue
from casino.console.models import OperatorStaff
from ledger import services as ledger_services
from ledger.models import OperatorEvent
from tables import services as table_services
from tests.factories import OperatorFactory, UserFactory, funded_player, live_table
from tests.helpers.staff import login_verified

ROLES = [
    roles.PIT_BOSS,
    roles.FLOOR_SUPERVISOR,
    roles.DEALER,
    roles.AUDITOR,
    roles.OPERATOR_STAFF,  # linked to the world's operator
    roles.OPERATOR_INTEGRATION,
    roles.DEALER_DEVICE,
    "anonymous",
]
ACTOR = Actor.system("tests")
# Audit events that record a refusal: the one write a refused request may make.
REFUSAL_RECORDS = ("auth.credential_refused", "tables.late_bet_refused", "tables.round_suspended")
# Credentials note their last use on any authenticated request, refused or not.
TOUCHED = {"api_apikey", "api_devicetoken"}

pytestmark = pytest.mark.django_db(transaction=True)


# --- the operations -------------------------------------------------------------------------


@dataclass
class Operation:
    method: str
    path: str  # with {name} placeholders
    query: dict[str, dict] = field(default_factory=dict)  # name -> schema
    body: dict[str, dict] | None = None  # property -> schema; None: takes no body
    idempotent: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def integers(self) -> list[str]:
        return [name for name, s in (self.body or {}).items() if s.get("type") == "integer"]

    @property
    def paginated(self) -> bool:
        return "cursor" in self.query

    def dates(self) -> list[tuple[str, str]]:
        return [
            (name, s["format"])
            for name, s in self.query.items()
            if s.get("format") in ("date", "date-time")
        ]


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def operations() -> list[Operation]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    ops = []
    for path, item in schema["paths"].items():
        for method, spec in item.items():
            op = Operation(method.upper(), path)
            for param in spec.get("parameters", []):
                if param["in"] == "query":
                    op.query[param["name"]] = param["schema"]
                elif param["in"] == "header" and param["name"] == "Idempotency-Key":
                    op.idempotent = True
            content = spec.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                body = _resolve(schema, content["application/json"]["schema"])
                op.body = {k: _resolve(schema, v) for k, v in body["properties"].items()}
            ops.append(op)
    # Reads first, and actions that end what the others use (closing, revoking, voiding) last.
    last = re.compile(r"/(close|pause|revoke|void-request|void-approve|resolve)/$")
    return sorted(ops, key=lambda op: (op.method != "GET", bool(last.search(op.path))))


def allowed_roles(op: Operation, world) -> list[str]:
    """The roles whose permissions cover what the operation's view requires."""
    func = resolve(op.path.format(**world.path_values(op))).func
    view = getattr(func, "cls", None) or func.view_class  # the stream is an async wrapper
    if getattr(view, "public", False):
        return ROLES
    needed = view.required_permissions.get(op.method)
    if needed is None:
        return []
    needed = {needed} if isinstance(needed, str) else set(needed)
    return [r for r in ROLES if r != "anonymous" and needed <= roles.role_permissions(r)]


# --- the world the requests act on ----------------------------------------------------------


class World:
    def __init__(self):
        self.operator = OperatorFactory()
        self.key, self.key_raw = api_key_issue(actor=ACTOR, operator=self.operator, label="k")
        self.table = live_table("crown")
        self.token, self.token_raw = device_token_issue(
            actor=ACTOR, table=self.table, device_id="reader-1"
        )
        # Revoked by some cases' valid remainder: not the credentials the requests use.
        self.spare_key, _ = api_key_issue(actor=ACTOR, operator=self.operator, label="spare")
        self.spare_token, _ = device_token_issue(actor=ACTOR, table=self.table, device_id="r2")
        self.player = funded_player(100_000, operator=self.operator)
        self.wallet = self.player.wallets.get()
        self.round = table_services.round_open(actor=ACTOR, table_id=self.table.pk)
        self.deposit = self.wallet.legs.first().transaction
        self.operator_event = OperatorEvent.objects.filter(operator=self.operator).first()
        self.staff = UserFactory(roles=[roles.PIT_BOSS])
        from casino.api.staff_tokens import staff_token_issue

        self.staff_token, _ = staff_token_issue(
            actor=ACTOR, user=self.staff, role=roles.PIT_BOSS, label="spare"
        )
        self.correction = ledger_services.correction_request(
            actor=ACTOR, user=self.staff, original=self.deposit, reason="r", replacement_legs=[]
        )
        from audit.models import AuditEvent
        from forensics.disputes import dispute_open

        self.dispute = dispute_open(actor=ACTOR, user=self.staff, round_id=self.round.pk, claim="c")
        self.event = AuditEvent.objects.order_by("-id").first()
        self.clients = {role: self._client(role) for role in ROLES}

    def path_values(self, op: Operation, *, ids: str | None = None) -> dict[str, str]:
        values = {}
        for name in re.findall(r"{(\w+)}", op.path):
            if name == "kind":
                values[name] = "dealer"
            else:
                values[name] = ids if ids is not None else str(self._id_for(op.path))
        return values

    def _id_for(self, path: str) -> int | str:
        segment = path.removeprefix("/api/v1/").split("/{")[0]
        return {
            "api-keys": self.spare_key.pk,
            "device-tokens": self.spare_token.pk,
            "staff-tokens": self.staff_token.pk,
            "audit/disputes": self.dispute.pk,
            "audit/events": self.event.pk,
            "audit/rounds": self.round.pk,
            "corrections": self.correction.pk,
            "operator-events": self.operator_event.public_id,
            "operators": self.operator.pk,
            "players": self.player.pk,
            "rounds": self.round.pk,
            "tables": self.table.pk,
            "transactions": self.deposit.pk,
            "wallets": self.wallet.pk,
        }[segment]

    def plausible_body(self, op: Operation) -> dict:
        ids = {
            "player_id": self.player.pk,
            "operator_id": self.operator.pk,
            "table_id": self.table.pk,
            "round_id": self.round.pk,
            "transaction_id": self.deposit.pk,
            "dealer_id": self.staff.pk,
        }
        body = {}
        for name, schema in (op.body or {}).items():
            kind = schema.get("type")
            if name in ids:
                body[name] = ids[name]
            elif "enum" in schema:
                body[name] = schema["enum"][0]
            elif kind == "integer":
                body[name] = 1
            elif kind == "boolean":
                body[name] = False
            elif kind == "array":
                body[name] = []
            elif kind == "object":
                body[name] = {}
            elif name == "currency":
                body[name] = "EUR"
            else:
                body[name] = "x"
        return body

    def _client(self, role: str) -> Client:
        client = Client()
        if role == roles.OPERATOR_INTEGRATION:
            client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {self.key_raw}"
        elif role == roles.DEALER_DEVICE:
            client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {self.token_raw}"
        elif role != "anonymous":
            user = UserFactory(roles=[role])
            if role == roles.OPERATOR_STAFF:
                OperatorStaff.objects.create(user=user, operator=self.operator)
            login_verified(client, user)
        return client


# --- the corpus -----------------------------------------------------------------------------


@dataclass
class Request:
    path: str
    body: bytes | None = None
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Case:
    name: str
    build: object  # (op, world) -> Request
    applies: object = lambda op: True
    expect: object = None  # (op, response) -> problem text or None; for allowed roles


def _path(op, world, query: dict | None = None, ids: str | None = None) -> str:
    path = op.path.format(**world.path_values(op, ids=ids))
    if query:
        path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return path


def _plain(op, world, query=None, ids=None, headers=None) -> Request:
    """The operation's plausible request (its body too), hostile only in the URL or headers."""
    body = json.dumps(world.plausible_body(op)).encode() if op.body is not None else None
    return Request(_path(op, world, query, ids), body, headers=headers or {})


def _body(op, world, *, extra: str = "", replace: dict | None = None) -> Request:
    """The plausible body as JSON text, with raw JSON members spliced in (escapes intact)."""
    body = world.plausible_body(op)
    for name in replace or {}:
        body[name] = f"@@{name}@@"
    text = json.dumps(body)
    for name, raw in (replace or {}).items():
        text = text.replace(f'"@@{name}@@"', raw)
    if extra:  # last, so that it wins over a plausible member of the same name
        text = text[:-1] + ("," if text != "{}" else "") + extra + "}"
    return Request(_path(op, world), text.encode("utf-8"))


def _status(*codes):
    def check(op, response):
        if response.status_code not in codes:
            return f"expected {codes}"
        return None

    return check


def _names(field_names):
    def check(op, response):
        if response.status_code != 400:
            return "expected 400"
        named = {e["field"].split(".")[0].split("[")[0] for e in response.json().get("errors", [])}
        wanted = field_names(op)
        if not named & set(wanted):
            return f"the problem names {sorted(named)}, not one of {wanted}"
        return None

    return check


def _with_body(op):
    return op.body is not None


def _with_integers(op):
    return bool(op.integers)


DEEP_ARRAY = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"a":' * 40 + "1" + "}" * 40
NON_INTEGERS = {
    "float": "100.0",
    "exponent": "1e2",
    "string": '"100"',
    "padded": '" 100 "',
    "underscored": '"1_000"',
    "arabic_indic": '"\\u0661\\u0660\\u0660"',
    "boolean": "true",
    "overflow_float": "1e309",
    "two_to_64": str(2**64),
    "below_bigint": str(-(2**63) - 1),
}
TAMPERED_CURSORS = {
    "p_abc": base64.b64encode(b"p=abc").decode(),
    "p_huge": base64.b64encode(b"p=" + b"9" * 30).decode(),
    "bad_padding": "cD1hYmM",
    "offset_junk": base64.b64encode(b"o=x&p=1").decode(),
}
EXTREME_DATES = {"date": ("9999-12-31", "0001-01-01"), "date-time": ("9999-12-31T23:59:59-15:00",)}

BODY_CASES = [
    Case(
        "surrogate_in_value",
        lambda op, w: _body(op, w, extra='"note":"\\ud800"'),
        _with_body,
        _status(400),
    ),
    Case(
        "surrogate_in_key",
        lambda op, w: _body(op, w, extra='"\\udfff":1'),
        _with_body,
        _status(400),
    ),
    Case(
        "nul_in_value",
        lambda op, w: _body(op, w, extra='"note":"a\\u0000b"'),
        _with_body,
        _status(400),
    ),
    Case("nul_in_key", lambda op, w: _body(op, w, extra='"\\u0000":1'), _with_body, _status(400)),
    Case(
        "nested_5000_deep",
        lambda op, w: _body(op, w, extra=f'"note":{DEEP_ARRAY}'),
        _with_body,
        _status(400),
    ),
    Case(
        "nested_40_deep",
        lambda op, w: _body(op, w, extra=f'"note":{DEEP_OBJECT}'),
        _with_body,
        _status(400),
    ),
    Case(
        "body_3_mb",
        lambda op, w: _body(op, w, extra='"note":"' + "x" * 3_000_000 + '"'),
        _with_body,
        _status(413),
    ),
    Case(
        "text_plain",
        lambda op, w: Request(_path(op, w), b"amount=100", "text/plain"),
        _with_body,
        _status(415),
    ),
    Case(
        "form_urlencoded",
        lambda op, w: Request(_path(op, w), b"amount=100", "application/x-www-form-urlencoded"),
        _with_body,
        _status(415),
    ),
    Case(
        "bad_multipart",
        lambda op, w: Request(_path(op, w), b"--x\r\njunk", "multipart/form-data; boundary=y"),
        _with_body,
        _status(415),
    ),
    Case(
        "invalid_utf8",
        lambda op, w: Request(_path(op, w), b'{"note": "\xff\xfe"}'),
        _with_body,
        _status(400),
    ),
    Case(
        "truncated_json",
        lambda op, w: Request(_path(op, w), b'{"amount": 1,'),
        _with_body,
        _status(400),
    ),
    Case("nan", lambda op, w: Request(_path(op, w), b'{"amount": NaN}'), _with_body, _status(400)),
    Case(
        "top_level_list", lambda op, w: Request(_path(op, w), b"[1, 2]"), _with_body, _status(400)
    ),
    Case("top_level_null", lambda op, w: Request(_path(op, w), b"null"), _with_body, _status(400)),
] + [
    Case(
        f"integer_as_{name}",
        lambda op, w, raw=raw: _body(op, w, replace=dict.fromkeys(op.integers, raw)),
        _with_integers,
        _names(lambda op: op.integers),
    )
    for name, raw in NON_INTEGERS.items()
]


def _integer_params(op) -> list[str]:
    return [name for name, schema in op.query.items() if schema.get("type") == "integer"]


def _extreme(op, index: int) -> dict:
    values = {n: EXTREME_DATES[f][min(index, len(EXTREME_DATES[f]) - 1)] for n, f in op.dates()}
    return {name: value.replace("+", "%2B") for name, value in values.items()}


QUERY_CASES = [
    Case("nul_in_unknown_param", lambda op, w: _plain(op, w, {"zzz": "%00"}), expect=_status(400)),
    Case(
        "nul_in_every_param",
        lambda op, w: _plain(op, w, dict.fromkeys(op.query or ["q"], "a%00b")),
        expect=_status(400),
    ),
    Case("nul_in_param_name", lambda op, w: _plain(op, w, {"a%00": "1"}), expect=_status(400)),
    Case(
        "nul_in_header",
        lambda op, w: _plain(op, w, headers={"HTTP_X_HOSTILE": "a\x00b"}),
        expect=_status(400),
    ),
    Case(
        "nul_in_cookie",  # an octal escape in a quoted cookie value decodes to NUL
        lambda op, w: _plain(op, w, headers={"HTTP_COOKIE": 'hostile="a\\000b"'}),
        expect=_status(400),
    ),
    Case("nul_in_path", lambda op, w: _plain(op, w, ids="%00"), lambda op: "{" in op.path),
    Case(
        "id_2_to_64_in_path",
        lambda op, w: _plain(op, w, ids=str(2**64)),
        lambda op: "{id}" in op.path,
        _status(400, 404),
    ),
    Case(
        "surrogate_bytes_in_params",
        lambda op, w: _plain(op, w, dict.fromkeys(op.query or ["q"], "%ED%A0%80")),
    ),
    Case(
        "1e309_in_integer_params",
        lambda op, w: _plain(op, w, dict.fromkeys(_integer_params(op), "1e309")),
        _integer_params,
    ),
    Case(
        "2_to_64_in_integer_params",
        lambda op, w: _plain(op, w, dict.fromkeys(_integer_params(op), str(2**64))),
        _integer_params,
    ),
    *(
        Case(
            f"cursor_{name}",
            lambda op, w, cursor=cursor: _plain(op, w, {"cursor": cursor}),
            lambda op: op.paginated,
            _names(lambda op: ["cursor"]),
        )
        for name, cursor in TAMPERED_CURSORS.items()
    ),
    # A read that does not page ignores a cursor (whatever it holds), but never fails on one.
    Case(
        "cursor_on_a_read_that_does_not_page",
        lambda op, w: _plain(op, w, {"cursor": TAMPERED_CURSORS["p_abc"]}),
        lambda op: op.method == "GET" and not op.paginated,
    ),
    *(
        Case(
            f"extreme_{kind}_{index}",
            lambda op, w, index=index: _plain(op, w, _extreme(op, index)),
            lambda op, kind=kind: any(f == kind for _, f in op.dates()),
            _status(400),
        )
        for kind, values in EXTREME_DATES.items()
        for index in range(len(values))
    ),
]

CORPUS = BODY_CASES + QUERY_CASES


# --- the writes a request made ----------------------------------------------------------------


def _state_sql() -> str:
    parts = []
    for model in apps.get_models():
        table = model._meta.db_table
        if model._meta.proxy or table == "django_session" or not model._meta.managed:
            continue
        if table == "audit_auditevent":
            names = ", ".join(f"'{name}'" for name in REFUSAL_RECORDS)
            parts.append(f"(SELECT count(*)::text FROM {table} WHERE name NOT IN ({names}))")
        elif table in TOUCHED:
            parts.append(f"(SELECT count(*)::text FROM {table})")
        else:
            parts.append(
                f"(SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0) FROM {table})"
            )
    return "SELECT " + ", ".join(parts)


class Writes:
    """Row counts and the newest row version (xmin) of every table: what a request changed."""

    def __init__(self):
        self.sql = _state_sql()
        self.state = self._read()

    def _read(self) -> tuple:
        with connection.cursor() as cursor:
            cursor.execute(self.sql)
            return cursor.fetchone()

    def changed(self) -> bool:
        before, self.state = self.state, self._read()
        return before != self.state


# --- the test ---------------------------------------------------------------------------------


def _send(world: World, op: Operation, role: str, case: Case):
    request = case.build(op, world)
    extra = dict(request.headers)
    if op.method != "GET":
        extra["HTTP_IDEMPOTENCY_KEY"] = uuid.uuid4().hex
    client = world.clients[role]
    if request.body is None:
        return client.generic(op.method, request.path, **extra)
    return client.generic(
        op.method, request.path, request.body, content_type=request.content_type, **extra
    )


def test_hostile_input_corpus_against_every_operation_as_every_role():
    world = World()
    writes = Writes()
    failures: list[str] = []
    sent = 0
    for op in operations():
        cases = [case for case in CORPUS if case.applies(op)]
        allowed = allowed_roles(op, world)
        plan = [(allowed[i % len(allowed)] if allowed else ROLES[i % len(ROLES)], case)
                for i, case in enumerate(cases)]  # fmt: skip
        others = [role for role in ROLES if role not in allowed]
        plan += [(role, case) for role, case in zip(others, itertools.cycle(cases), strict=False)]
        for role, case in plan:
            response = _send(world, op, role, case)
            sent += 1
            where = f"{op.label} as {role}, {case.name}: {response.status_code}"
            status = response.status_code
            if status >= 500:
                failures.append(f"{where} {response.content[:300]!r}")
            refused = status >= 400
            if writes.changed() and refused:
                failures.append(f"{where}: a refused request wrote to the database")
            if refused and response["Content-Type"] != "application/problem+json":
                failures.append(f"{where}: not a problem document ({response['Content-Type']})")
            if case.expect is not None and role in allowed:
                problem = case.expect(op, response)
                if problem:
                    failures.append(f"{where}: {problem} {response.content[:200]!r}")
    print(f"hostile-input corpus: {sent} requests, {len(failures)} failures")
    assert not failures, f"{len(failures)} of {sent} requests:\n" + "\n".join(failures)


@pytest.mark.parametrize(
    "kind",
    ["table-shift", "dealer", "player-statement", "game-performance", "exceptions", "shoe-log"],
)
def test_extreme_dates_on_the_admin_report_page(client, kind):
    from forensics.reports import REPORTS

    assert kind in REPORTS
    login_verified(client, UserFactory(roles=[roles.AUDITOR]))
    for query in ("date_to=9999-12-31", "date_from=0001-01-01", "date_from=9999-12-31"):
        response = client.get(f"/admin/audit/reports/{kind}/?{query}")
        assert response.status_code == 400, query
        assert b"between 1970-01-01 and 2999-12-31" in response.content
    for query in ("table=99999999999999999999", "shift=%ED%A0%80", "grouping=x"):
        assert client.get(f"/admin/audit/reports/{kind}/?{query}").status_code == 400, query


def test_every_report_kind_is_in_the_admin_page_test():
    from forensics.reports import REPORTS

    marks = test_extreme_dates_on_the_admin_report_page.pytestmark
    (kinds,) = [m.args[1] for m in marks if m.name == "parametrize"]
    assert sorted(kinds) == sorted(REPORTS)


@pytest.mark.parametrize(
    ("query", "status"),
    [("round=%C2%B2", 200), ("round=%D9%A1", 200), ("round=99999999999999999999", 302)],
)
def test_the_admin_replay_lookup_takes_ascii_digits_only(client, query, status):
    """'²' and Arabic-Indic digits pass str.isdigit(); the first made int() fail (a 500)."""
    login_verified(client, UserFactory(roles=[roles.AUDITOR]))
    response = client.get(f"/admin/audit/replay/?{query}")
    assert response.status_code == status
    if status == 302:  # a round id beyond bigint: no such round
        assert client.get(response["Location"]).status_code == 404
