"""Issue 14 defects 2 and 9, case by case: each is a clear 4xx problem naming the problem, and
writes nothing (the corpus in test_hostile_input.py runs them against every operation)."""

import base64
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from ledger.models import Account, Correction, Player, Transaction
from tables.models import Round, Table
from tables.services import preset_versions_ensure, table_open
from tests.factories import PlayerFactory, funded_player

pytestmark = pytest.mark.django_db


def _problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["type"].endswith(f"/problems/{code}") and body["detail"]
    return body


@pytest.fixture
def wallet(operator):
    return Account.objects.get(player=funded_player(10_000, operator=operator))


@pytest.fixture
def deposit(client_for, wallet):
    client = client_for(roles.OPERATOR_INTEGRATION)
    keys = iter(range(10**6))

    def post(raw: str | bytes, content_type: str = "application/json"):
        return client.post(
            f"/api/v1/wallets/{wallet.pk}/deposits/",
            raw,
            content_type=content_type,
            HTTP_IDEMPOTENCY_KEY=f"k{next(keys)}",
        )

    return post


@pytest.fixture
def unchanged(wallet):
    """Nothing was written: no transaction, no audit event, the same balance."""
    before = (Transaction.objects.count(), AuditEvent.objects.count(), wallet.balance)
    yield
    wallet.refresh_from_db()
    assert (Transaction.objects.count(), AuditEvent.objects.count(), wallet.balance) == before


@pytest.mark.parametrize(
    "amount",
    ["100.0", "1e2", '"100"', '" 100 "', '"1_000"', '"\\u0661\\u0660\\u0660"', "true", "1e309"],
)
def test_money_is_a_json_integer_and_nothing_else(deposit, unchanged, amount):
    body = _problem(deposit(f'{{"amount": {amount}}}'), 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["amount"]
    assert "JSON integer" in body["errors"][0]["message"]


@pytest.fixture
def pit_boss(client_for):
    return client_for(roles.PIT_BOSS)  # logged in before ``unchanged`` counts audit events


LENIENT_AMOUNTS = ["100.0", "1e2", '"100"', '" 100 "', '"1_000"', '"\\u0661\\u0660\\u0660"']


@pytest.mark.parametrize("amount", LENIENT_AMOUNTS)
def test_a_correction_legs_amounts_are_json_integers_too(pit_boss, wallet, unchanged, amount):
    """The legs are nested in a list (the corpus replaces only top-level integers); the
    problem names the leg by its index."""
    original = Transaction.objects.filter(legs__account=wallet).first()
    cash = Account.objects.get(kind="operator_cash", operator=wallet.operator)
    legs = (
        f'[{{"account_id": {wallet.pk}, "amount": {amount}, "kind": "deposit"}},'
        f' {{"account_id": {cash.pk}, "amount": -100, "kind": "deposit"}}]'
    )
    if amount == "1e2":  # the second leg's, too: named by its own index
        legs = legs.replace("-100", "-1e2")
    response = pit_boss.post(
        "/api/v1/corrections/",
        f'{{"transaction_id": {original.pk}, "reason": "x", "replacement_legs": {legs}}}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=f"legs-{amount}",
    )
    body = _problem(response, 400, "validation-error")
    named = [e["field"] for e in body["errors"]]
    second = ["replacement_legs[1].amount"] if amount == "1e2" else []
    assert named == ["replacement_legs[0].amount", *second]
    assert not Correction.objects.exists()


def test_a_json_integer_amount_is_accepted(deposit, wallet):
    assert deposit('{"amount": 100}').status_code == 201
    wallet.refresh_from_db()
    assert wallet.balance == 10_100


def test_ids_in_bodies_are_json_integers_too(client_for, operator):
    response = client_for(roles.FLOOR_SUPERVISOR).post(
        "/api/v1/api-keys/", {"operator_id": f"{operator.pk}", "label": "x"}, format="json"
    )
    body = _problem(response, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["operator_id"]


def test_a_lone_surrogate_is_refused_before_the_idempotency_fingerprint(deposit, unchanged):
    body = _problem(deposit('{"amount":100,"note":"\\ud800"}'), 400, "validation-error")
    assert body["errors"] == [
        {"field": "note", "message": "contains a NUL character or a lone surrogate"}
    ]
    _problem(deposit('{"amount":100,"\\ud800x":1}'), 400, "validation-error")
    _problem(deposit('{"amount":100,"note":"\\u0000"}'), 400, "validation-error")


def test_json_nested_5000_deep_is_a_400(deposit, unchanged):
    body = _problem(deposit('{"amount":' + "[" * 5000 + "]" * 5000 + "}"), 400, "malformed-request")
    assert "nested" in body["detail"]


def test_a_3_mb_body_is_a_413(deposit, unchanged):
    body = _problem(deposit('{"note":"' + "x" * 3_000_000 + '"}'), 413, "request-too-large")
    assert "1048576 bytes" in body["detail"]


@pytest.mark.parametrize(
    ("role", "path"),
    [
        (roles.OPERATOR_INTEGRATION, "/api/v1/players/?external_ref=%00"),
        (roles.OPERATOR_INTEGRATION, "/api/v1/wallets/?currency=%00"),
        (roles.OPERATOR_INTEGRATION, "/api/v1/transactions/?kind=%00"),
        (roles.FLOOR_SUPERVISOR, "/api/v1/corrections/?status=%00"),
        (roles.AUDITOR, "/api/v1/audit/events/?zzz=%00"),
        ("anonymous", "/api/v1/health/?x%00=1"),
    ],
)
def test_a_nul_byte_in_a_query_parameter_is_a_400(client_for, role, path):
    client = client_for(role)
    before = AuditEvent.objects.count()
    body = _problem(client.get(path), 400, "bad-request")
    assert "NUL" in body["detail"]
    assert AuditEvent.objects.count() == before


@pytest.mark.parametrize(
    ("role", "path"),
    [
        (roles.OPERATOR_INTEGRATION, "/api/v1/players/"),
        (roles.OPERATOR_INTEGRATION, "/api/v1/wallets/"),
        (roles.OPERATOR_INTEGRATION, "/api/v1/transactions/"),
        (roles.DEALER_DEVICE, "/api/v1/tables/"),
        (roles.FLOOR_SUPERVISOR, "/api/v1/corrections/"),
        (roles.FLOOR_SUPERVISOR, "/api/v1/api-keys/"),
        (roles.AUDITOR, "/api/v1/audit/events/"),
        (roles.AUDITOR, "/api/v1/audit/disputes/"),
    ],
)
@pytest.mark.parametrize(
    "cursor",
    [
        "cD1hYmM=",  # p=abc
        "cD05OTk5OTk5OTk5OTk5OTk5OTk5OTk5",
        "cD1hYmM",
        "cj0x",  # r=1: well formed, but a feed read backwards
        "eD0x",  # x=1
        "bz05OTk5OTk5OTk5OTk5OTk5OTk5OQ==",  # o=99999999999999999999
        "cD0x:forged-signature",
    ],
)
def test_a_tampered_cursor_is_a_400_naming_cursor(client_for, role, path, cursor):
    body = _problem(client_for(role).get(f"{path}?cursor={cursor}"), 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["cursor"]


def test_a_genuine_cursor_still_pages(client_for, operator):
    for _ in range(3):
        funded_player(operator=operator)
    client = client_for(roles.OPERATOR_INTEGRATION)
    first = client.get("/api/v1/players/?page_size=2").json()
    second = client.get(first["next"]).json()
    assert len(first["results"]) == 2 and len(second["results"]) == 1
    back = client.get(second["previous"]).json()
    assert [p["id"] for p in back["results"]] == [p["id"] for p in first["results"]]


def test_a_cursor_is_opaque_and_valid_on_its_own_list_only(client_for, operator):
    """A players cursor on the wallets list was accepted (and a transactions cursor on the
    events feed silently skipped the feed up to that position); and a cursor was base64 of
    the last row's database key."""
    for _ in range(3):
        funded_player(operator=operator)
    client = client_for(roles.OPERATOR_INTEGRATION)
    first = client.get("/api/v1/players/?page_size=2").json()
    cursor = parse_qs(urlsplit(first["next"]).query)["cursor"][0]
    # A Fernet token (version byte 0x80, then ciphertext), not base64 of "p=<last row's id>".
    assert base64.urlsafe_b64decode(cursor)[0] == 0x80
    elsewhere = client.get("/api/v1/wallets/", {"cursor": cursor})
    body = _problem(elsewhere, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["cursor"]
    assert client.get("/api/v1/players/", {"cursor": cursor}).status_code == 200


@pytest.mark.parametrize("size", ["0", "-1", "abc", "1.5", "", "9" * 40])
def test_a_bad_page_size_is_a_400_naming_it(client_for, size):
    """It was ignored: the default page came back."""
    response = client_for(roles.OPERATOR_INTEGRATION).get(f"/api/v1/players/?page_size={size}")
    body = _problem(response, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["page_size"]


def test_a_page_size_beyond_the_largest_page_gives_the_largest(client_for, operator):
    for _ in range(3):
        funded_player(operator=operator)
    page = client_for(roles.OPERATOR_INTEGRATION).get("/api/v1/players/?page_size=9999").json()
    assert len(page["results"]) == 3


@pytest.mark.parametrize(
    "query", ["date_to=9999-12-31", "date_from=0001-01-01", "date_to=1969-12-31"]
)
@pytest.mark.parametrize("kind", ["dealer", "table-shift", "exceptions"])
def test_reports_refuse_days_out_of_range(client_for, kind, query):
    response = client_for(roles.AUDITOR).get(f"/api/v1/audit/reports/{kind}/?{query}")
    body = _problem(response, 400, "validation-error")
    assert "between 1970-01-01 and 2999-12-31" in body["detail"]


def test_table_accounting_refuses_days_out_of_range(client_for):
    response = client_for(roles.AUDITOR).get("/api/v1/table-accounting/?date_to=9999-12-31")
    _problem(response, 400, "validation-error")


def test_djangos_own_refusals_are_400_problems_not_500s(client_for):
    """Django refuses a Host header outside ALLOWED_HOSTS and more than 1,000 query fields
    itself (SuspiciousOperation): problems under /api/, never the catch-all's 500."""
    body = _problem(Client(HTTP_HOST="evil.example").get("/api/v1/health/"), 400, "bad-request")
    assert "evil" not in body["detail"]
    fields = "&".join(f"f{n}=1" for n in range(1001))
    client = client_for(roles.OPERATOR_INTEGRATION)
    _problem(client.get(f"/api/v1/players/?{fields}"), 400, "bad-request")


def test_the_admin_keeps_its_html_400(client):
    response = client.get("/admin/?q=%00")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


# --- every body parsed strictly: no field DRF would drop, no value it would coerce ----------


def test_a_field_the_operation_does_not_take_is_refused_not_ignored(deposit, unchanged):
    """A currency sent with a deposit into a wallet of another currency was ignored and the
    deposit made in the wallet's currency."""
    body = _problem(deposit('{"amount": 100, "currency": "USD"}'), 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["currency"]
    assert "Unknown field" in body["errors"][0]["message"]


def test_a_key_given_twice_is_refused(deposit, unchanged):
    """Which of the two counts differs between JSON parsers (a proxy may have checked 100)."""
    body = _problem(deposit('{"amount": 100, "amount": 200}'), 400, "malformed-request")
    assert "'amount' is given more than once" in body["detail"]


@pytest.mark.parametrize("reference", ["5", "true", "[]"])
def test_a_string_field_takes_a_json_string_only(deposit, unchanged, reference):
    body = _problem(
        deposit(f'{{"amount": 100, "reference": {reference}}}'), 400, "validation-error"
    )
    assert body["errors"] == [{"field": "reference", "message": "Must be a JSON string."}]


@pytest.mark.parametrize("flag", ['"no"', "0", '"false"', "null"])
def test_a_boolean_field_takes_true_or_false_only(client_for, operator, flag):
    """``"no"`` and ``0`` were read as false (and ``"yes"`` and ``1`` as true)."""
    before = (operator.webhook_url, AuditEvent.objects.count())
    response = client_for(roles.OPERATOR_INTEGRATION).put(
        "/api/v1/operator/webhook/",
        f'{{"webhook_url": "", "rotate_secret": {flag}}}',
        content_type="application/json",
    )
    body = _problem(response, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["rotate_secret"]
    operator.refresh_from_db()
    assert (operator.webhook_url, AuditEvent.objects.count()) == before


@pytest.mark.parametrize("ref", [" p-1", "p-1 ", "p\t1", "p\n1", "p\u202e1", 7])
def test_a_players_reference_is_kept_exactly_or_refused(client_for, ref):
    """DRF trimmed " p-1 " to "p-1" (another player's reference) and kept tabs, newlines
    and a right-to-left override, which make a report show something else than is stored."""
    response = client_for(roles.OPERATOR_INTEGRATION).post(
        "/api/v1/players/", {"external_ref": ref}, format="json"
    )
    body = _problem(response, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["external_ref"]
    assert not Player.objects.exists()


def test_a_clean_reference_with_inner_spaces_and_letters_of_any_script_is_kept(client_for):
    answer = client_for(roles.OPERATOR_INTEGRATION).post(
        "/api/v1/players/", {"external_ref": "Zoë Ångström 7"}, format="json"
    )
    assert answer.status_code == 201 and answer.json()["external_ref"] == "Zoë Ångström 7"


@pytest.mark.parametrize("currency", ["ZZZ", "XAU", "XXX", "DEM"])
def test_a_wallet_is_opened_in_a_currency_in_use_only(client_for, operator, currency):
    player = PlayerFactory(operator=operator)
    response = client_for(roles.OPERATOR_INTEGRATION).post(
        "/api/v1/wallets/", {"player_id": player.pk, "currency": currency}, format="json"
    )
    body = _problem(response, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["currency"]
    assert not Account.objects.filter(player=player, currency=currency).exists()
    ok = client_for(roles.OPERATOR_INTEGRATION).post(
        "/api/v1/wallets/", {"player_id": player.pk, "currency": "JPY"}, format="json"
    )
    assert ok.status_code == 201


def test_an_operation_that_takes_no_body_refuses_a_field_and_does_nothing(client_for, table):
    """A pause "for 10 minutes" or a close-betting "at 20:00" would otherwise be done at once,
    the field ignored. (``table``: the table the dealer device's token is bound to.)"""
    actor = Actor.system("tests")
    rule_set, payouts = preset_versions_ensure(actor=actor, preset="crown")
    Table.objects.filter(pk=table.pk).update(rule_set=rule_set, payout_schedule=payouts)
    table_open(actor=actor, table_id=table.pk)
    pit = client_for(roles.PIT_BOSS)
    pause = pit.post(f"/api/v1/tables/{table.pk}/pause/", {"minutes": 10}, format="json")
    body = _problem(pause, 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == ["minutes"]
    assert Table.objects.get(pk=table.pk).status == "open"
    assert pit.post(f"/api/v1/tables/{table.pk}/pause/", {}, format="json").status_code == 200
    assert pit.post(f"/api/v1/tables/{table.pk}/resume/").status_code == 200

    device = client_for(roles.DEALER_DEVICE)
    opened = device.post(f"/api/v1/tables/{table.pk}/rounds/", {"number": 7}, format="json")
    assert [e["field"] for e in _problem(opened, 400, "validation-error")["errors"]] == ["number"]
    assert not Round.objects.filter(table=table).exists()
    opened = device.post(f"/api/v1/tables/{table.pk}/rounds/")
    assert opened.status_code == 201, opened.json()
    rid = opened.json()["id"]
    closing = device.post(f"/api/v1/rounds/{rid}/close-betting/", {"at": "20:00"}, format="json")
    assert [e["field"] for e in _problem(closing, 400, "validation-error")["errors"]] == ["at"]
    assert Round.objects.get(pk=rid).phase == "open"  # still taking bets


@pytest.mark.parametrize(
    ("role", "path", "parameter"),
    [
        (roles.OPERATOR_INTEGRATION, "/api/v1/transactions/", "date_from"),
        (roles.OPERATOR_INTEGRATION, "/api/v1/operator-events/", "kind"),
        (roles.OPERATOR_INTEGRATION, "/api/v1/players/", "external_reff"),
        (roles.AUDITOR, "/api/v1/audit/disputes/", "round_id"),
    ],
)
def test_a_query_parameter_a_list_does_not_take_is_a_400_naming_it(
    client_for, role, path, parameter
):
    """It was ignored: the whole list came back, reading as the filtered one."""
    body = _problem(client_for(role).get(path, {parameter: "1"}), 400, "validation-error")
    assert [e["field"] for e in body["errors"]] == [parameter]
    assert client_for(role).get(path, {"page_size": 1}).status_code == 200


def test_a_stored_feed_link_still_works_after_the_secret_key_is_rotated(
    client_for, operator, settings
):
    """The events feed's `next` is kept between polls; Django's own signing honours
    SECRET_KEY_FALLBACKS, and so do the sealed cursors."""
    for _ in range(2):
        funded_player(operator=operator)
    client = client_for(roles.OPERATOR_INTEGRATION)
    stored = client.get("/api/v1/operator-events/?page_size=1").json()["next"]
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "rotated-" + settings.SECRET_KEY
    assert client.get(stored).status_code == 200
    settings.SECRET_KEY_FALLBACKS = []
    assert client.get(stored).status_code == 400  # once the old key is dropped
