"""Reports: each reconciles with the ledger's legs, states its period, generation time and
software version, exports as CSV and PDF, and every read of it is audited."""

import base64
import csv as csv_module
import re
from decimal import Decimal

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from django.contrib.auth import get_user_model
from django.db import connection

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from casino.version import software_version
from forensics.reports import Period, report_build, report_generate, rtp_band
from tables import services
from tables.engine import PayoutSchedule, RuleSet
from tables.errors import BettingClosed, RoundSuspended
from tables.models import Round, RtpFigure, Shuffle
from tables.rtp import rtp_precomputed
from tests.factories import UserFactory, funded_player, live_table
from tests.helpers.staff import login_verified
from tests.tables.conftest import ACTOR, DEVICE, bet

from .rounds import settled_round

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def floor():
    """Settled crown rounds on two tables, one British round, a voided round (crown table)
    with a late bet refused and an impossible card, and a server shoe retired."""
    crown = live_table("crown")
    settled = [settled_round("crown", crown), settled_round("crown")]
    settled.append(settled_round("british_casino"))
    rnd = services.round_open(actor=DEVICE, table_id=crown.pk)
    bet(rnd, funded_player(), 3, 500)  # box 1 stays with its seated player
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(BettingClosed) as late:
        bet(rnd, funded_player(), 2, 500)
    services.late_bet_record(actor=ACTOR, refusal=late.value)  # as the API does after rollback
    with pytest.raises(RoundSuspended):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="TS")  # no tens in Spanish decks
    services.void_request(
        actor=ACTOR, user=UserFactory(roles=[roles.PIT_BOSS]), round_id=rnd.pk, reason="misdeal"
    )
    services.void_approve(
        actor=ACTOR, user=UserFactory(roles=[roles.FLOOR_SUPERVISOR]), round_id=rnd.pk
    )
    server = live_table("online_8deck", card_source="server_shoe")
    empty = services.round_open(actor=DEVICE, table_id=server.pk)
    services.round_close_betting(actor=DEVICE, round_id=empty.pk)  # no bets: settles at once
    services.round_settle(round_id=empty.pk)  # a fresh shoe per round: retired and revealed
    return {"crown": crown, "settled": settled, "voided": rnd, "server": server}


def _legs_sum(where: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(l.amount), 0) FROM ledger_leg l "
            "JOIN ledger_transaction t ON t.id = l.transaction_id "
            f"JOIN ledger_account a ON a.id = l.account_id WHERE {where}"
        )
        return int(cursor.fetchone()[0])


def test_table_shift_report_reconciles_with_the_legs(floor):
    report = report_build("table-shift", period=Period.of())
    assert report.software_version == software_version() != "unknown"
    [total] = report.totals
    at_tables = "t.table_id IS NOT NULL"
    assert total["handle"] == -_legs_sum(f"{at_tables} AND a.kind = 'wallet' AND l.kind IN "
                                         "('stake', 'stake_refund')")  # fmt: skip
    assert total["win"] == -_legs_sum(f"{at_tables} AND a.kind = 'wallet'")
    assert total["win"] == _legs_sum(f"{at_tables} AND a.kind <> 'wallet'")  # house side
    assert total["rounds"] == Round.objects.filter(phase__in=["settled", "voided"]).count()
    assert total["voids"] == 1
    crown = [r for r in report.rows if r["table_code"] == floor["crown"].code]
    assert sum(r["rounds"] for r in crown) == 2 and sum(r["voids"] for r in crown) == 1
    assert total["hold_pct"] == (Decimal(total["win"]) * 100 / total["handle"]).quantize(
        Decimal("0.01")
    )


def test_dealer_report_reconciles_with_the_table_report(floor):
    period = Period.of()
    dealers = report_build("dealer", period=period).totals
    tables = report_build("table-shift", period=period).totals
    assert [(t["handle"], t["win"], t["rounds"]) for t in dealers] == [
        (t["handle"], t["win"], t["rounds"]) for t in tables
    ]


def test_player_statement_runs_from_opening_to_the_wallet_balance(floor):
    rnd = floor["settled"][0]
    player = rnd.bets.first().player
    report = report_build("player-statement", period=Period.of(), player_id=player.pk)
    [wallet] = report.totals
    assert wallet["opening"] == 0 and wallet["closing"] == wallet["balance_now"]
    assert [r["transaction_kind"] for r in report.rows][:2] == ["deposit", "stake"]
    assert wallet["closing"] == wallet["opening"] + wallet["credits"] + wallet["debits"]


def test_game_performance_band_from_per_bet_variance_and_flags():
    ratio, half = rtp_band(4, 4, 4, 4, 8, 4)  # x = 1 each, y = 2, 0, 2, 0
    assert ratio == 1.0 and half == pytest.approx(1.959964 * (16 / 3) ** 0.5 / 4)
    assert rtp_band(1, 10, 5, 100, 25, 50)[1] is None


def test_game_performance_flags_a_theoretical_rtp_outside_the_band(floor):
    rnd = floor["settled"][0]
    RtpFigure.objects.create(
        rule_set=rnd.rule_set, payout_schedule=rnd.payout_schedule, rtp=Decimal("0.5")
    )
    report = report_build("game-performance", period=Period.of())
    row = next(r for r in report.rows if r["game"].startswith("crown"))
    assert row["bets"] == 4 and row["rounds"] == 2  # the voided round is left out
    # both rounds: each bet doubled (or matched the double) and won 1:1 on the whole stake,
    # 3 units back per initial unit: no variance, a zero-width band at 300 %
    assert row["band_low_pct"] == row["actual_rtp_pct"] == row["band_high_pct"] == 300.0
    assert row["flag"] == "OUTSIDE 95% BAND"
    # a pair in use without a figure gets the shipped preset figure stored by the report
    british = next(r for r in report.rows if r["game"].startswith("british"))
    pair = floor["settled"][2]
    stored = RtpFigure.objects.get(rule_set=pair.rule_set, payout_schedule=pair.payout_schedule)
    shipped, _ = rtp_precomputed(
        rules=RuleSet.from_json(pair.rule_set.document),
        payouts=PayoutSchedule.from_json(pair.payout_schedule.document),
    )
    assert Decimal("1.0033") < shipped < Decimal("1.0034")  # tables/rtp_presets.json
    assert stored.rtp == shipped and stored.method.startswith("precomputed")
    assert british["theoretical_rtp_pct"] == round(float(shipped) * 100, 3)
    assert "not available" not in british["flag"]
    from forensics.exports import rtp_chart_svg

    svg = rtp_chart_svg(report.chart)
    assert svg.startswith("<svg") and "#c62828" in svg
    assert 'class="x-axis"' in svg and 'class="y-axis"' in svg and "RTP (%)" in svg
    assert "95% confidence band" in svg


def test_exceptions_report_lists_voids_late_bets_and_impossible_cards(floor):
    report = report_build("exceptions", period=Period.of())
    categories = {t["category"]: t["count"] for t in report.totals}
    assert categories["void"] == 1 and categories["void requested"] == 1
    assert categories["late bet refused"] == 1 and categories["impossible card"] == 1
    assert all(r["event_id"] for r in report.rows)
    void = next(r for r in report.rows if r["category"] == "void")
    approver = AuditEvent.objects.get(pk=void["event_id"]).payload["approved_by"]
    assert void["note"] == f"approved by {User.objects.get(pk=approver).username}"
    assert report.label("note") == "Decision note (approver's, rejecter's, resumer's)"


def test_a_correction_approvers_note_is_in_the_exceptions_report(floor):
    from ledger import services as ledger
    from ledger.models import Transaction

    rnd = floor["settled"][0]
    requester = UserFactory(roles=[roles.PIT_BOSS])
    approver = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    correction = ledger.correction_request(
        actor=ACTOR,
        user=requester,
        original=Transaction.objects.get(pk=rnd.ledger_transaction_id),
        reason="recount",
        replacement_legs=[],
    )
    ledger.correction_approve(
        actor=Actor.for_user(approver),
        user=approver,
        correction=correction,
        note="checked against the camera",
    )
    report = report_build("exceptions", period=Period.of())
    row = next(r for r in report.rows if r["category"] == "correction approved")
    assert row["note"] == "checked against the camera" and row["actor"] == approver.username


def test_reports_format_money_by_currency_and_carry_a_signed_digest(floor):
    from audit import signing
    from audit.canonical import canonical_json, sha256_hex
    from forensics.exports import report_csv, row_cells, total_cells
    from forensics.reports import report_data

    actor = Actor.system("auditor-tests")
    report = report_generate(
        actor=actor, kind="table-shift", period=Period.of(), table_id=floor["crown"].pk
    )
    assert report.generated_by == "auditor-tests"
    assert report.digest == sha256_hex(canonical_json(report_data(report)))
    assert report.signature["value"] == str(signing.sign(report.digest.encode("ascii")))
    assert report.signature["key_id"] == signing.key_id()
    viewed = AuditEvent.objects.filter(name="audit.viewed").order_by("-id").first()
    assert viewed.payload["digest"] == report.digest
    row = report.rows[0]
    cells = dict(zip([k for k, _ in report.columns], row_cells(report)[0], strict=True))
    handle = row["handle"]
    assert cells["handle"] == f"{handle // 100:,}.{handle % 100:02d}\u00a0EUR"
    assert cells["hold_pct"].endswith(" %")
    headers, _ = total_cells(report)
    assert "Hold %" in headers and "hold_pct" not in headers
    csv_text = report_csv(report).decode()
    assert f"{handle // 100}.{handle % 100:02d}" in csv_text and "hold_pct" not in csv_text
    # a third party checks the export with what it prints: the digest, the signature and the
    # public key (cryptography alone, none of our code)
    evidence = re.compile(r"^(Data digest|Signature|Public key)[^:]*: (\S+)$")
    lines = (line.strip('"').removeprefix("# ") for line in csv_text.splitlines())
    printed = dict(match.groups() for match in map(evidence.match, lines) if match)
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(printed["Public key"]))
    public.verify(bytes.fromhex(printed["Signature"]), printed["Data digest"].encode("ascii"))
    with pytest.raises(InvalidSignature):
        public.verify(bytes.fromhex(printed["Signature"]), b"0" * 64)
    # another report over the same data has another generation time: another digest
    again = report_generate(
        actor=actor, kind="table-shift", period=Period.of(), table_id=floor["crown"].pk
    )
    assert again.digest != report.digest
    assert report_data(again)["rows"] == report_data(report)["rows"]


def test_shoe_log_verifies_revealed_commitments_and_flags_a_mismatch(floor):
    def server_rows():
        report = report_build("shoe-log", period=Period.of(), table_id=floor["server"].pk)
        return report.rows

    [row] = server_rows()
    assert row["verification"] == "verified" and not row["flagged"]
    Shuffle.objects.filter(pk=Shuffle.objects.get(shoe_id=row["shoe_id"]).pk).update(
        commitment="0" * 64
    )
    [row] = server_rows()
    assert row["verification"] == "COMMITMENT MISMATCH" and row["flagged"]
    reader = report_build("shoe-log", period=Period.of(), table_id=floor["crown"].pk).rows
    assert reader and all(r["source"] == "reader" for r in reader)


def test_reading_reports_is_audited_and_exports_state_the_period_and_version(floor, client):
    actor = Actor.system("tests")
    report_generate(actor=actor, kind="dealer", period=Period.of(), rendering="json")
    viewed = AuditEvent.objects.filter(name="audit.viewed", payload__what="report.dealer")
    assert viewed.get().payload["format"] == "json"
    login_verified(client, UserFactory(roles=[roles.AUDITOR]))
    page = client.get("/admin/audit/reports/game-performance/")
    assert page.status_code == 200 and b"<svg" in page.content
    assert software_version().encode() in page.content
    csv = client.get("/admin/audit/reports/table-shift/", {"export": "csv"})
    assert csv["Content-Type"].startswith("text/csv")
    head = [row[0] for row in csv_module.reader(csv.content.decode().splitlines()[:4])]
    assert head[0] == "# Table and shift report" and head[1].startswith("# Period: ")
    assert head[2].startswith("# Generated: ")
    assert head[3] == f"# Software version: {software_version()}"
    pdf = client.get("/admin/audit/reports/exceptions/", {"export": "pdf"})
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert client.get("/admin/audit/reports/").status_code == 200
    formats = set(
        AuditEvent.objects.filter(
            name="audit.viewed", payload__what__startswith="report."
        ).values_list("payload__format", flat=True)
    )
    assert formats == {"json", "html", "csv", "pdf"}
    login_verified(client, UserFactory(roles=[roles.DEALER]))
    assert client.get("/admin/audit/reports/dealer/").status_code == 403


def test_report_api_by_role(floor, client_for):
    body = client_for(roles.AUDITOR).get(
        "/api/v1/audit/reports/table-shift/", {"table": floor["crown"].pk}
    )
    assert body.status_code == 200
    data = body.json()
    assert data["period"]["text"] and data["generated_at"] and data["software_version"]
    # anyone can recompute the digest from the response: canonical JSON without digest and
    # signature
    from audit.canonical import canonical_json, sha256_hex

    unsigned = {k: v for k, v in data.items() if k not in ("digest", "signature")}
    assert data["digest"] == sha256_hex(canonical_json(unsigned))
    assert data["signature"]["value"] and data["generated_by"]
    assert data["rows"][0]["hold_pct"] is None or isinstance(data["rows"][0]["hold_pct"], str)
    assert client_for(roles.DEALER).get("/api/v1/audit/reports/dealer/").status_code == 403
    assert (
        client_for(roles.OPERATOR_INTEGRATION).get("/api/v1/audit/reports/dealer/").status_code
        == 403
    )
    auditor = client_for(roles.AUDITOR)
    assert auditor.get("/api/v1/audit/reports/nope/").status_code == 404
    assert auditor.get("/api/v1/audit/reports/player-statement/").status_code == 400
    bad = auditor.get(
        "/api/v1/audit/reports/dealer/", {"date_from": "2030-01-02", "date_to": "2030-01-01"}
    )
    assert bad.status_code == 400
