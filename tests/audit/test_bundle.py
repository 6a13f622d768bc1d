"""The regulator's export bundle and the standalone verifier (forensics/verify_bundle.py).

The verifier is run as a separate Python process in isolated mode (no project on the path,
Django never imported): what a regulator runs on their own machine.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import shutil
import subprocess
import sys
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.utils import timezone

from audit import signing
from casino.api import roles
from forensics.bundles import audit_day_export, gaming_day_bounds, gaming_day_closed_last
from tables import engine as eng
from tables import services
from tables.models import Casino, Round, ShiftDefinition, ShiftPlan, Table
from tables.shifts import Plan, ShiftCalendar
from tests.audit.helpers import seal_everything
from tests.audit.rounds import settled_round
from tests.factories import CasinoFactory, UserFactory, funded_player, live_table
from tests.tables.conftest import ACTOR, DEVICE, bet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_log")]

VERIFIER = Path(__file__).resolve().parents[2] / "forensics" / "verify_bundle.py"


def verify(bundle: Path, *args: str) -> tuple[int, str]:
    """Run the standalone verifier in its own isolated interpreter; (exit status, output)."""
    probe = (
        "import runpy, sys; sys.argv = sys.argv[1:]; "
        "code = 0\ntry: runpy.run_path(sys.argv[0], run_name='__main__')\n"
        "except SystemExit as exit: code = exit.code\n"
        "assert 'django' not in sys.modules, 'the verifier imported Django'\nsys.exit(code)"
    )
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-I", "-c", probe, str(VERIFIER), str(bundle), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def _export_today(tmp_path: Path) -> Path:
    """Seal every event and export today's bundle."""
    seal_everything()
    out = tmp_path / "bundle"
    call_command("audit_export_day", "--date", timezone.now().date().isoformat(), "--out", str(out))
    return out


@pytest.fixture
def played_day(tmp_path):
    """A day with rounds played on reader tables and on a server shoe (retired and revealed),
    every event sealed, exported."""
    settled_round("crown")
    settled_round("online_8deck")
    server = live_table("online_8deck", card_source="server_shoe")
    empty = services.round_open(actor=DEVICE, table_id=server.pk)
    services.round_close_betting(actor=DEVICE, round_id=empty.pk)
    services.round_settle(round_id=empty.pk)  # a fresh shoe per round: retired and revealed
    return _export_today(tmp_path)


@pytest.fixture
def voided_day(tmp_path):
    """A day with one round voided while box 1 was to decide (as tests/tables/test_voids.py):
    requested by a pit boss, approved by a floor supervisor; both stakes returned."""
    table = live_table("british_casino")
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, funded_player(), 1, 1000)
    bet(rnd, funded_player(), 2, 1000)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["TS", "TC", "9H", "8C", "6D"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    boss = UserFactory(roles=[roles.PIT_BOSS])
    services.void_request(actor=ACTOR, user=boss, round_id=rnd.pk, reason="misdeal")
    supervisor = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    voided = services.void_approve(actor=ACTOR, user=supervisor, round_id=rnd.pk)
    assert voided.phase == "voided" and voided.ledger_transaction_id is not None
    return _export_today(tmp_path)


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def rewrite(path: Path, new_lines: list[bytes]) -> None:
    path.write_bytes(b"".join(new_lines))


def copy(bundle: Path, tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(bundle, target)
    return target


def test_the_verifier_passes_an_export_of_a_played_day(played_day, client):
    manifest = json.loads((played_day / "manifest.json").read_text())
    assert manifest["chain"]["day_events"] > 0
    assert manifest["files"]["rounds.jsonl"]["lines"] == 3
    assert {key["key_id"] for key in manifest["keys"]} == {signing.key_id()}
    shoes = [json.loads(line) for line in lines(played_day / "shoes.jsonl")]
    revealed = [s for shoe in shoes for s in shoe["shuffles"] if s["revealed_order"]]
    assert revealed and all(s["status"] == "verified" for s in revealed)
    status, output = verify(played_day)
    assert status == 0, output
    assert f"OK: {manifest['chain']['events']} events" in output
    assert f"{len(revealed)} revealed shuffles verified" in output
    [key] = client.get("/api/v1/audit/keys/").json()["keys"]  # anonymous: public by design
    assert key["active"] and key["key_id"] == signing.key_id()
    root = str(VERIFIER.parents[1])
    status, output = verify(played_day, "--trust-key", key["public_key"], "--engine", root)
    assert status == 0, output
    assert "3 rounds re-derived by the engine" in output


def test_a_round_whose_recorded_payouts_the_engine_does_not_give_is_named(tmp_path, monkeypatch):
    """A casino whose engine overpaid a bet: the settlement, the ledger and their sealed
    events agree with each other, so only re-deriving the round through the engine tells."""
    settle = eng.settle

    def overpaid(state):
        settlement = settle(state)
        first = dataclasses.replace(
            settlement.lines[0], winnings=settlement.lines[0].winnings + 100
        )
        return dataclasses.replace(settlement, lines=[first, *settlement.lines[1:]])

    monkeypatch.setattr(eng, "settle", overpaid)
    rnd = settled_round("online_8deck")
    monkeypatch.undo()
    bundle = _export_today(tmp_path)
    status, output = verify(bundle)
    assert status == 0, output
    status, output = verify(bundle, "--engine", str(VERIFIER.parents[1]))
    assert status == 1, output
    assert f"FAILED: rounds.jsonl line 1: round {rnd.pk}: the engine pays" in output, output


def _altered(bundle: Path, tmp_path: Path, name: str, file: str, number: int, change) -> Path:
    """A copy of the bundle with line ``number`` (1-based) of ``file`` changed by ``change``."""
    copied = copy(bundle, tmp_path, name)
    rows = lines(copied / file)
    record = json.loads(rows[number - 1])
    change(record)
    rows[number - 1] = (json.dumps(record, separators=(",", ":")) + "\n").encode()
    rewrite(copied / file, rows)
    return copied


def _refused(bundle: Path, tmp_path: Path, name: str, file: str, number: int, change) -> str:
    """The verifier's output for ``_altered(...)``, which it must refuse."""
    status, output = verify(_altered(bundle, tmp_path, name, file, number, change))
    assert status == 1, output
    return output


def test_the_unaltered_bundle_ties_its_rounds_and_ledger_totals_to_sealed_events(played_day):
    status, output = verify(played_day)
    assert status == 0, output
    assert "3 rounds' openings and 3 rounds' rule documents matched to sealed events" in output
    assert "3 rounds' engine events matched to sealed events" in output
    assert "3 rounds' settlements matched to sealed events" in output
    assert "2 of 2 ledger totals re-derived" in output
    assert "note:" not in output, output
    totals = [json.loads(line) for line in lines(played_day / "ledger_totals.jsonl")]
    assert all(line["transactions"] for line in totals)
    manifest = json.loads((played_day / "manifest.json").read_text())
    assert len(manifest["files"]["ledger_totals.jsonl"]["line_sha256"]) == len(totals)
    rounds = [json.loads(line) for line in lines(played_day / "rounds.jsonl")]
    assert {rnd["table_id"] for rnd in rounds} <= set(manifest["casino"]["tables"])


def test_a_changed_ledger_total_is_named_by_line_and_field(played_day, tmp_path):
    """The totals are re-derived from the sealed money events of the transactions the line
    lists: the report names the field with the value found and the one the events give."""
    line = json.loads(lines(played_day / "ledger_totals.jsonl")[1])

    def more_payouts(record):
        record["payouts"] += 100

    output = _refused(played_day, tmp_path, "payouts", "ledger_totals.jsonl", 2, more_payouts)
    assert (
        f"FAILED: ledger_totals.jsonl line 2: table {line['table']} {line['currency']}: "
        f"payouts is {line['payouts'] + 100} but the sealed money events of its "
        f"{len(line['transactions'])} transactions give {line['payouts']}"
    ) in output, output

    def other_hold(record):
        record["hold_pct"] = "12.50"

    output = _refused(played_day, tmp_path, "hold", "ledger_totals.jsonl", 2, other_hold)
    assert "FAILED: ledger_totals.jsonl line 2: " in output, output
    assert "hold_pct is '12.50' but " in output and repr(line["hold_pct"]) in output


def test_a_changed_engine_event_actor_is_named_by_line_and_field(played_day, tmp_path):
    """A round's engine events are tied to the sealed ``tables.round_event.*`` events that
    recorded them, the actor included."""
    rnd = json.loads(lines(played_day / "rounds.jsonl")[0])
    index = next(i for i, event in enumerate(rnd["engine_events"]) if event["seq"] is not None)
    sealed_actor = rnd["engine_events"][index]["actor"]

    def other_actor(record):
        record["engine_events"][index]["actor"] = "someone else"

    output = _refused(played_day, tmp_path, "actor", "rounds.jsonl", 1, other_actor)
    assert (
        f"FAILED: rounds.jsonl line 1: round {rnd['round_id']}: engine_events[{index}].actor is "
        "'someone else' but sealed event "
    ) in output, output
    assert f"says {sealed_actor!r}" in output and "(events.jsonl line " in output


def _sealed_event(
    bundle: Path, round_id: int | None, name: str = "tables.round_settled", **payload
) -> tuple[int, dict]:
    """The round's sealed event ``name`` (with those ``payload`` values) and its line in
    events.jsonl."""
    return next(
        (number, event)
        for number, event in enumerate(map(json.loads, lines(bundle / "events.jsonl")), 1)
        if event["name"] == name
        and event["round_id"] == round_id
        and all(event["payload"].get(key) == value for key, value in payload.items())
    )


def test_a_changed_settlement_is_named_by_line_and_field(played_day, tmp_path):
    """A settled round's settlement is tied to the digest its sealed ``tables.round_settled``
    event keeps: a bet's payout edited in the line is named without ``--engine``, with the
    total it changed."""
    rnd = json.loads(lines(played_day / "rounds.jsonl")[0])
    number, event = _sealed_event(played_day, rnd["round_id"])
    paid = event["payload"]["settlement"]["paid"]
    assert paid == sum(line["paid"] for line in rnd["settlement"]["lines"]) > 0

    def more_paid(record):
        record["settlement"]["lines"][0]["paid"] += 100

    output = _refused(played_day, tmp_path, "paid", "rounds.jsonl", 1, more_paid)
    assert (
        f"FAILED: rounds.jsonl line 1: round {rnd['round_id']}: settlement.lines is not the one "
        f"sealed in event {event['id']} (events.jsonl line {number}): they hash to "
    ) in output, output
    assert f"the sealed lines_sha256 is {event['payload']['settlement']['lines_sha256']} " in (
        output
    )
    assert f"(the lines' totals differ: paid {paid + 100} here, {paid} sealed)" in output


def test_a_changed_round_ledger_transaction_is_named_by_line_and_field(played_day, tmp_path):
    rnd = json.loads(lines(played_day / "rounds.jsonl")[1])
    number, event = _sealed_event(played_day, rnd["round_id"])
    txn = rnd["ledger_transaction_id"]
    assert txn is not None and event["payload"]["ledger_transaction_id"] == txn

    def other_transaction(record):
        record["ledger_transaction_id"] += 1

    output = _refused(played_day, tmp_path, "txn", "rounds.jsonl", 2, other_transaction)
    assert (
        f"FAILED: rounds.jsonl line 2: round {rnd['round_id']}: ledger_transaction_id "
        f"{txn + 1} is not the one sealed in event {event['id']} (events.jsonl line {number}), "
        f"which records {txn}"
    ) in output, output


def test_a_changed_voided_settlement_is_named_by_line_and_field(voided_day, tmp_path):
    """A voided round's settlement (stakes returned) and ledger transaction are tied to its
    sealed ``tables.round_voided`` event, which holds the whole void settlement."""
    status, output = verify(voided_day)
    assert status == 0, output
    assert "1 rounds' settlements matched to sealed events" in output
    assert "note:" not in output, output
    rnd = json.loads(lines(voided_day / "rounds.jsonl")[0])
    number, event = _sealed_event(voided_day, rnd["round_id"], "tables.round_voided")
    assert rnd["phase"] == "voided" and event["payload"]["settlement"] == rnd["settlement"]
    paid = sum(line["paid"] for line in rnd["settlement"]["lines"])

    def more_returned(record):
        record["settlement"]["lines"][0]["paid"] += 100

    output = _refused(voided_day, tmp_path, "void_paid", "rounds.jsonl", 1, more_returned)
    assert (
        f"FAILED: rounds.jsonl line 1: round {rnd['round_id']}: settlement.lines is not the one "
        f"sealed in event {event['id']} (events.jsonl line {number}): they hash to "
    ) in output, output
    assert f"(the lines' totals differ: paid {paid + 100} here, {paid} sealed)" in output

    def other_transaction(record):
        record["ledger_transaction_id"] += 1

    output = _refused(voided_day, tmp_path, "void_txn", "rounds.jsonl", 1, other_transaction)
    txn = rnd["ledger_transaction_id"]
    assert (
        f"FAILED: rounds.jsonl line 1: round {rnd['round_id']}: ledger_transaction_id "
        f"{txn + 1} is not the one sealed in event {event['id']} (events.jsonl line {number}), "
        f"which records {txn}"
    ) in output, output


def test_a_changed_round_limits_or_currency_is_named_by_line_and_field(played_day, tmp_path):
    """A round's table, number, versions, limits, currency and shoe are tied to its sealed
    ``tables.round_opened`` event."""
    rnd = json.loads(lines(played_day / "rounds.jsonl")[0])
    number, event = _sealed_event(played_day, rnd["round_id"], "tables.round_opened")
    sealed_as = f"sealed event {event['id']} (events.jsonl line {number}: tables.round_opened)"
    limits = event["payload"]["limits"]
    assert rnd["limits"] == limits and rnd["currency"] == event["payload"]["currency"] == "EUR"

    def higher_limit(record):
        record["limits"]["max_bet"] *= 10

    output = _refused(played_day, tmp_path, "limits", "rounds.jsonl", 1, higher_limit)
    assert (
        f"FAILED: rounds.jsonl line 1: round {rnd['round_id']}: limits is "
        f"{ {**limits, 'max_bet': limits['max_bet'] * 10}!r} but {sealed_as} says {limits!r}"
    ) in output, output

    def other_currency(record):
        record["currency"] = "GBP"

    output = _refused(played_day, tmp_path, "currency", "rounds.jsonl", 1, other_currency)
    assert (
        f"FAILED: rounds.jsonl line 1: round {rnd['round_id']}: currency is 'GBP' but "
        f"{sealed_as} says 'EUR'"
    ) in output, output


def test_a_changed_pinned_payout_schedule_is_named_by_line_and_field(played_day, tmp_path):
    """The rule-set and payout-schedule documents a line pins (what ``--engine`` folds its
    events under) are tied to those sealed when their versions were created: an edited
    payout is named before the engine would re-derive the round under it."""
    rnd = json.loads(lines(played_day / "rounds.jsonl")[1])
    assert [line["odds_kind"] for line in rnd["settlement"]["lines"]] == ["five_card_trick"]
    number, event = _sealed_event(
        played_day,
        None,  # a version belongs to no round
        "tables.rule_version_created",
        kind="payout_schedule",
        id=rnd["payout_schedule_id"],
    )

    def trick_pays_more(record):
        record["payout_schedule"]["five_card_trick"] = [3, 1]

    bundle = _altered(played_day, tmp_path, "schedule", "rounds.jsonl", 2, trick_pays_more)
    status, output = verify(bundle, "--engine", str(VERIFIER.parents[1]))
    assert status == 1
    assert (
        f"FAILED: rounds.jsonl line 2: round {rnd['round_id']}: payout_schedule.five_card_trick "
        f"is [3, 1] but sealed event {event['id']} (events.jsonl line {number}: "
        "tables.rule_version_created) says [2, 1]"
    ) in output, output


def test_a_changed_or_removed_round_id_is_named_by_line_and_field(played_day, tmp_path):
    """A line whose round_id was changed is no longer tied to its round's sealed events: the
    round it is about is found by its table and number, and the sealed events of a round
    finished within the day that no line holds are a finding."""
    rnd = json.loads(lines(played_day / "rounds.jsonl")[1])
    opened_line, opened = _sealed_event(played_day, rnd["round_id"], "tables.round_opened")
    settled_line, settled = _sealed_event(played_day, rnd["round_id"])
    other = rnd["round_id"] + 1000

    def other_round(record):
        record["round_id"] = other

    output = _refused(played_day, tmp_path, "round_id", "rounds.jsonl", 2, other_round)
    assert (
        f"FAILED: rounds.jsonl line 2: round {other}: round_id {other} has no sealed "
        f"tables.round_opened in the bundle, though its opened_at {rnd['opened_at']} is within "
        f"the day; sealed event {opened['id']} (events.jsonl line {opened_line}: "
        f"tables.round_opened) opens round {rnd['round_id']} with this line's table_id and number"
    ) in output, output

    # Opened (it now says) the day before, the line owes no sealed opening; the round it hides
    # still finished within the day.
    def other_earlier_round(record):
        other_round(record)
        record["opened_at"] = "2000-01-01T00:00:00+00:00"

    output = _refused(played_day, tmp_path, "earlier", "rounds.jsonl", 2, other_earlier_round)
    assert (
        f"FAILED: rounds.jsonl line 2: round {other}: round_id is {other} but sealed event "
        f"{settled['id']} (events.jsonl line {settled_line}: tables.round_settled) finishes "
        f"round {rnd['round_id']} within the day with this line's table_id and number, and no "
        f"line holds round {rnd['round_id']}"
    ) in output, output

    bundle = copy(played_day, tmp_path, "removed")
    rows = lines(bundle / "rounds.jsonl")
    rewrite(bundle / "rounds.jsonl", [rows[0], rows[2]])
    status, output = verify(bundle)
    assert status == 1
    assert (
        f"FAILED: events.jsonl line {settled_line}: sealed event {settled['id']} (events.jsonl "
        f"line {settled_line}: tables.round_settled) finishes round {rnd['round_id']} within "
        "the day (it was live at "
    ) in output, output
    assert f"but no line of rounds.jsonl holds round {rnd['round_id']}" in output


def _tampered(bundle: Path, tmp_path: Path, name: str, change) -> tuple[int, str]:
    copied = copy(bundle, tmp_path, name)
    events = lines(copied / "events.jsonl")
    change(events)
    rewrite(copied / "events.jsonl", events)
    return verify(copied)


def _byte(events: list[bytes]) -> None:
    at = events[4].index(b'"row":"') + 7  # the sealed row's first byte: a digit of the id
    changed = bytearray(events[4])
    changed[at] = ord("9") if changed[at] != ord("9") else ord("8")
    events[4] = bytes(changed)


def _field(events: list[bytes]) -> None:
    event = json.loads(events[2])
    event["actor_label"] += "x"
    events[2] = (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _swap(events: list[bytes]) -> None:
    events[3], events[4] = events[4], events[3]


def test_a_changed_removed_or_reordered_event_line_is_named(played_day, tmp_path):
    status, output = _tampered(played_day, tmp_path, "byte", _byte)
    assert status == 1 and "FAILED: events.jsonl line 5: " in output, output
    assert "was modified: its row is not the one sealed in seal" in output

    status, output = _tampered(played_day, tmp_path, "field", _field)
    assert status == 1 and "FAILED: events.jsonl line 3: " in output, output
    assert "actor_label" in output and "the sealed row says" in output

    missing = json.loads(lines(played_day / "events.jsonl")[6])["id"]
    status, output = _tampered(played_day, tmp_path, "removed", lambda events: events.pop(6))
    assert status == 1, output
    assert f"FAILED: events.jsonl line 7: event {missing} of seal" in output
    assert "is missing here" in output

    status, output = _tampered(played_day, tmp_path, "reordered", _swap)
    assert status == 1 and "FAILED: events.jsonl line 4: " in output, output

    status, output = _tampered(played_day, tmp_path, "cut", lambda events: events.pop())
    assert status == 1 and "FAILED: events.jsonl: it ends before event" in output, output


def _resign(seal: dict, key: Ed25519PrivateKey, key_id: str) -> dict:
    seal["header"]["sealed_at"] = "2020-01-01T00:00:00+00:00"  # the forger's change
    seal["chain_hash"] = hashlib.sha256(rfc8785.dumps(seal["header"])).hexdigest()
    seal["signature"] = key.sign(seal["chain_hash"].encode("ascii")).hex()
    seal["key_id"] = key_id
    return seal


def test_a_seal_resigned_with_a_foreign_key_names_the_line(played_day, tmp_path):
    foreign = Ed25519PrivateKey.generate()
    foreign_id = signing.key_id_of(foreign.public_key())
    for name, key_id, why in (
        ("foreign-id", foreign_id, "not one of the bundle's keys"),
        ("claimed-id", signing.key_id(), "signature does not verify"),
    ):
        bundle = copy(played_day, tmp_path, name)
        seals = lines(bundle / "seals.jsonl")
        seals[0] = (json.dumps(_resign(json.loads(seals[0]), foreign, key_id)) + "\n").encode()
        rewrite(bundle / "seals.jsonl", seals)
        status, output = verify(bundle)
        assert status == 1
        assert "FAILED: seals.jsonl line 1: seal " in output and why in output, output


def _forge_whole(played_day: Path, tmp_path: Path) -> Path:
    foreign = Ed25519PrivateKey.generate()
    public = base64.b64encode(signing.public_raw(foreign.public_key())).decode()
    foreign_id = signing.key_id_of(foreign.public_key())
    bundle = copy(played_day, tmp_path, "forged")
    seals, prev = [], None
    for raw in lines(bundle / "seals.jsonl"):
        seal = json.loads(raw)
        if prev is not None:
            seal["header"]["prev_hash"] = prev
        seal = _resign(seal, foreign, foreign_id)
        prev = seal["chain_hash"]
        seals.append((json.dumps(seal) + "\n").encode())
    rewrite(bundle / "seals.jsonl", seals)
    manifest = json.loads((bundle / "manifest.json").read_text())
    head = manifest["head"]["head"]
    head.update(chain_hash=prev, key_id=foreign_id)
    manifest["head"]["signature"] = foreign.sign(rfc8785.dumps(head)).hex()
    data = (bundle / "seals.jsonl").read_bytes()
    manifest["files"]["seals.jsonl"].update(
        sha256=hashlib.sha256(data).hexdigest(), bytes=len(data)
    )
    manifest["keys"] = [{"key_id": foreign_id, "algorithm": "Ed25519", "public_key": public}]
    manifest["key_id"] = foreign_id
    del manifest["signature"]
    manifest["signature"] = foreign.sign(rfc8785.dumps(manifest)).hex()
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    return bundle


def test_a_bundle_resigned_whole_with_a_foreign_key_fails_against_the_pinned_key(
    played_day, tmp_path
):
    """A forger re-signs every seal, the head and the manifest with a key of their own and
    lists it in the manifest: consistent in itself, refused against the key the regulator
    pinned. A tampered shoe reveal is named too."""
    bundle = _forge_whole(played_day, tmp_path)
    assert verify(bundle)[0] == 0  # consistent in itself: only a pinned key tells
    pinned = base64.b64encode(signing.public_raw(signing.key_ring().active.public_key()))
    status, output = verify(bundle, "--trust-key", pinned.decode())
    assert status == 1
    assert "FAILED: manifest.json: the manifest's signature is not valid" in output
    assert "not a key you pinned" in output

    bundle = copy(played_day, tmp_path, "shoe")
    shoes = lines(bundle / "shoes.jsonl")
    number, shoe = next(
        (n, json.loads(raw))
        for n, raw in enumerate(shoes)
        if any(s["revealed_order"] for s in json.loads(raw)["shuffles"])
    )
    shuffle = next(s for s in shoe["shuffles"] if s["revealed_order"])
    order = shuffle["revealed_order"]
    order[0], order[1] = order[1], order[0] if order[0] != order[1] else order[2]
    shoes[number] = (json.dumps(shoe) + "\n").encode()
    rewrite(bundle / "shoes.jsonl", shoes)
    status, output = verify(bundle)
    assert status == 1
    assert f"FAILED: shoes.jsonl line {number + 1}: " in output and "commitment" in output


def test_an_export_refuses_unsealed_events_and_a_used_directory(tmp_path):
    from casino.errors import ValidationFailed

    settled_round("crown")
    with pytest.raises(ValidationFailed, match="not sealed yet"):
        audit_day_export(day=timezone.now().date(), out=tmp_path / "early")
    seal_everything()
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("")
    with pytest.raises(ValidationFailed, match="not empty"):
        audit_day_export(day=timezone.now().date(), out=tmp_path / "used")


LONDON = ShiftCalendar(
    "Europe/London",
    [Plan(date(2026, 1, 1), time(6), (("day", time(6)), ("late", time(14)), ("night", time(22))))],
)


def test_gaming_days_are_the_casinos_local_days_across_clock_changes():
    """London's gaming day starts at 06:00 local: 23 hours across the spring change (29 March
    2026, 01:00 GMT -> 02:00 BST), 25 across the autumn one (25 October 2026)."""
    start, end = gaming_day_bounds(LONDON, date(2026, 3, 28))
    assert (start, end) == (
        datetime(2026, 3, 28, 6, tzinfo=UTC),  # 06:00 GMT
        datetime(2026, 3, 29, 5, tzinfo=UTC),  # 06:00 BST
    )
    start, end = gaming_day_bounds(LONDON, date(2026, 10, 24))
    assert (start, end) == (
        datetime(2026, 10, 24, 5, tzinfo=UTC),
        datetime(2026, 10, 25, 6, tzinfo=UTC),
    )
    assert gaming_day_bounds(LONDON, date(2026, 6, 1))[0] == datetime(2026, 6, 1, 5, tzinfo=UTC)
    # 05:30 BST on the 29th is still the 28th's gaming day; an hour later the 28th has closed
    assert gaming_day_closed_last(LONDON, datetime(2026, 3, 29, 4, 30, tzinfo=UTC)) == date(
        2026, 3, 27
    )
    assert gaming_day_closed_last(LONDON, datetime(2026, 3, 29, 5, 30, tzinfo=UTC)) == date(
        2026, 3, 28
    )
    utc = ShiftCalendar("UTC")  # a casino without a plan in UTC: UTC days, closed at midnight
    assert gaming_day_bounds(utc, date(2026, 3, 29))[0] == datetime(2026, 3, 29, tzinfo=UTC)
    assert gaming_day_closed_last(utc, datetime(2026, 3, 30, 0, 30, tzinfo=UTC)) == date(
        2026, 3, 29
    )


def test_a_bundle_is_the_casinos_gaming_day_across_the_spring_clock_change(tmp_path):
    """Two rounds finished an hour apart on the morning of 29 March 2026 in London fall in
    different gaming days (05:30 BST belongs to the 28th, 06:30 BST to the 29th), though both
    are on the same UTC date; each day's bundle holds its round, states its 23- or 24-hour
    period, and verifies."""
    early, late = settled_round("crown"), settled_round("online_8deck")
    casino = early.table.casino
    Casino.objects.filter(pk=casino.pk).update(time_zone="Europe/London")
    plan = ShiftPlan.objects.create(
        casino=casino, effective_from=date(2026, 1, 1), gaming_day_starts=time(6)
    )
    for name, starts in LONDON.plans[0].shifts:
        ShiftDefinition.objects.create(plan=plan, name=name, starts=starts)
    Round.objects.filter(pk=early.pk).update(finished_at=datetime(2026, 3, 29, 4, 30, tzinfo=UTC))
    Round.objects.filter(pk=late.pk).update(finished_at=datetime(2026, 3, 29, 5, 30, tzinfo=UTC))
    seal_everything()

    out = tmp_path / "28"
    call_command("audit_export_day", "--date", "2026-03-28", "--out", str(out), "--casino", "main")
    manifest = json.loads((out / "manifest.json").read_text())
    tables = list(Table.objects.filter(casino=casino).order_by("pk").values_list("pk", flat=True))
    assert manifest["casino"] == {
        "id": casino.pk,
        "code": "main",
        "time_zone": "Europe/London",
        "tables": tables,
    }
    assert manifest["period"] == {
        "start": "2026-03-28T06:00:00+00:00",
        "end": "2026-03-29T05:00:00+00:00",
        "local_start": "2026-03-28T06:00:00+00:00",
        "local_end": "2026-03-29T06:00:00+01:00",
        "hours": 23,
    }
    assert [json.loads(line)["round_id"] for line in lines(out / "rounds.jsonl")] == [early.pk]
    assert verify(out)[0] == 0, verify(out)[1]

    manifest = audit_day_export(day=date(2026, 3, 29), out=tmp_path / "29")
    assert manifest["period"]["start"] == "2026-03-29T05:00:00+00:00"
    assert manifest["period"]["hours"] == 24
    rounds = [json.loads(line)["round_id"] for line in lines(tmp_path / "29" / "rounds.jsonl")]
    assert rounds == [late.pk]
    assert verify(tmp_path / "29")[0] == 0


def test_a_bundle_names_its_casino_when_there_are_several_and_none_without_one(tmp_path):
    from casino.errors import ValidationFailed

    # no casino yet: a UTC day of the audit log alone
    manifest = audit_day_export(day=date(2026, 3, 28), out=tmp_path / "none")
    assert manifest["casino"] is None and manifest["period"]["hours"] == 24
    assert manifest["period"]["start"] == "2026-03-28T00:00:00+00:00"
    assert verify(tmp_path / "none")[0] == 0
    CasinoFactory(code="main")
    CasinoFactory(code="riverside", name="Riverside", time_zone="Australia/Sydney")
    with pytest.raises(ValidationFailed, match="name the casino"):
        audit_day_export(day=date(2026, 3, 28), out=tmp_path / "which")
    riverside = Casino.objects.get(code="riverside")
    manifest = audit_day_export(day=date(2026, 4, 4), out=tmp_path / "syd", casino_id=riverside.pk)
    # Sydney's clocks go back on 5 April 2026 (03:00 AEDT -> 02:00 AEST): a 25-hour day there
    start, end = gaming_day_bounds(ShiftCalendar("Australia/Sydney"), date(2026, 4, 5))
    assert (end - start).total_seconds() == 25 * 3600
    assert manifest["period"]["start"] == "2026-04-03T13:00:00+00:00"  # midnight AEDT
    assert manifest["casino"]["code"] == "riverside"


def test_the_daily_task_exports_the_closed_day_once(tmp_path, settings):
    """Beat runs ``audit.export_day`` after midnight; it seals, writes the bundle of the day
    asked for under AUDIT_EXPORT_DIR, and leaves an exported day alone."""
    from forensics.tasks import audit_export_day_task
    from tests.audit.helpers import record

    assert settings.CELERY_BEAT_SCHEDULE["audit-export-day"]["task"] == "audit.export_day"
    settings.AUDIT_EXPORT_DIR = str(tmp_path)
    CasinoFactory(code="main")  # in UTC without a shift plan: its gaming day is the UTC date
    record(3)
    seal_everything()  # the task seals too, but other test runs' transactions may delay it
    today = timezone.now().date().isoformat()
    [out] = map(Path, audit_export_day_task.run(day=today))
    assert out == tmp_path / "main" / today
    status, output = verify(out)
    assert status == 0 and "OK: 3 events in" in output, output
    written = (out / "manifest.json").read_bytes()
    record(1)
    assert audit_export_day_task.run(day=today) == [str(out)]
    assert (out / "manifest.json").read_bytes() == written
    yesterday = (timezone.now().date() - timedelta(days=1)).isoformat()
    assert audit_export_day_task.run() == [str(tmp_path / "main" / yesterday)]
