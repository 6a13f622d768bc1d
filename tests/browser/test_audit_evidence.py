"""What an auditor checks in a real browser: the replay names who dealt each card and for whom
and carries the shoe's proof; the shoe page shows the hashes; the audit log lists newest first
to the second with linked ids; the reports' PDFs print formatted money, page numbers, who
generated them, the digest of their data and the public key that verifies its signature (read
back with pdftotext)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from audit import signing
from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from tables import selectors, services
from tables.models import Round, Shoe
from tests.browser.conftest import ARTIFACTS, admin_login
from tests.factories import UserFactory, funded_player, live_table
from tests.tables.conftest import DEVICE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

API_KEY = Actor(kind="api_key", id="41", label="demo integration (ck_demo)")
PASSWORD = "correct-horse-battery"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def _played_server_round(table, player) -> Round:
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=API_KEY, round_id=rnd.pk, player=player, box=1, stake=1250)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    rnd = Round.objects.get(pk=rnd.pk)
    while rnd.phase in Round.LIVE:
        state = selectors.round_state(rnd)
        legal = state.legal_actions()
        hit = "hit" in legal and ("stand" not in legal or state.value(state.hand(1, 0)).total < 15)
        services.decision_make(
            actor=API_KEY, round_id=rnd.pk, player=player, action="hit" if hit else "stand"
        )
        rnd = Round.objects.get(pk=rnd.pk)
    services.round_settle(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _pdf(page, live_server, path: str, name: str) -> str:
    """Download a report's PDF with the page's session, keep it and a PNG of its first page
    as artefacts, and return its text."""
    response = page.request.get(f"{live_server.url}{path}")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(  # noqa: S603 - our own file, fixed arguments
        [
            _tool("pdftoppm"),
            "-png",
            "-r",
            "70",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(ARTIFACTS / name),
        ],
        check=True,
    )
    return subprocess.run(  # noqa: S603 - our own file, fixed arguments
        [_tool("pdftotext"), "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} not found: install poppler-utils (apt-get install poppler-utils)")
    return path


def test_auditor_checks_attribution_shoe_proof_audit_log_and_signed_pdfs(
    page, live_server, screenshot
):
    table = live_table("online_2deck", card_source="server_shoe", name="Evidence (audit)")
    dealer = UserFactory(username="dealer-ana", roles=[roles.DEALER])
    services.table_dealer_assign(actor=Actor.system("tests"), table_id=table.pk, dealer=dealer)
    player = funded_player(100_000)
    rnd = _played_server_round(table, player)
    _played_server_round(table, player)  # a fresh shoe each round: the first one is revealed
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    assert shoe.retired_at is not None
    commitment = shoe.shuffles.get().commitment
    auditor = UserFactory(username="auditor-eve", roles=[roles.AUDITOR])
    admin_login(page, live_server, auditor.username, PASSWORD)
    page.wait_for_selector("#content")

    # the replay: who dealt each card, for whom, after what; the shoe's proof
    page.goto(f"{live_server.url}/admin/audit/replay/{rnd.pk}/")
    steps = page.locator("#steps tbody tr")
    card_rows = steps.filter(has_text="card_dealt")
    assert card_rows.count() >= 3
    for i in range(card_rows.count()):
        by = card_rows.nth(i).locator("td.by").inner_text()
        assert f"server shoe {shoe.pk} of table {table.code}" in by
        assert "for user dealer-ana" in by
        assert "✓" in card_rows.nth(i).inner_text()  # the card is at its position in the reveal
    placed = steps.filter(has_text="bet_placed").first.locator("td.by").inner_text()
    assert "demo integration" in placed and f"for player {player.external_ref}" in placed
    proof = page.locator(f"#shoe-proof-{shoe.pk}")
    assert commitment in proof.inner_text()
    assert "revealed order verified against the commitment" in proof.inner_text()
    assert "matches the commitment" in proof.locator(".shuffle-verified").inner_text()
    # the stake, by the currency's exponent
    assert re.search(r"12\.50\sEUR", page.inner_text("#lines"))
    screenshot("20-replay-attribution-and-shoe-proof")

    # the shoe page: the hashes, not a check mark
    page.goto(f"{live_server.url}/admin/tables/shoe/")
    assert commitment in page.inner_text("#result_list")
    screenshot("21-shoe-list-commitments")
    page.goto(f"{live_server.url}/admin/tables/shoe/{shoe.pk}/change/")
    text = page.inner_text("#content")
    assert commitment in text and shoe.shuffles.get().salt in text
    screenshot("22-shoe-proof")

    # the audit log: newest first, to the second, ids linked
    page.goto(f"{live_server.url}/admin/audit/auditevent/")
    ids = [
        int(t)
        for t in page.locator(
            "#result_list tbody th a, #result_list tbody td.field-id a"
        ).all_inner_texts()
        if t.isdigit()
    ]
    assert len(ids) >= 2 and ids == sorted(ids, reverse=True)
    first_when = page.locator("#result_list tbody td.field-when").first.inner_text()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}", first_when.strip())
    round_link = page.locator("#result_list tbody td.field-round_link a").first
    assert "/admin/audit/replay/" in round_link.get_attribute("href")
    screenshot("23-audit-log-newest-first")

    # reports: the HTML page with its digest and chart axes, then the PDFs' text
    page.goto(f"{live_server.url}/admin/audit/reports/game-performance/")
    assert (
        page.locator("svg .x-axis").count() == 1
        and "RTP (%)" in page.locator(".report-chart svg").text_content()
    )
    assert "not available" not in page.inner_text("#result_list")  # the preset's figure
    screenshot("24-game-performance-chart")
    page.goto(f"{live_server.url}/admin/audit/reports/table-shift/?table={table.pk}")
    assert HEX64.fullmatch(page.inner_text("#report-digest"))
    public_key = next(k for k in signing.public_keys() if k["active"])["public_key"]
    assert page.inner_text("#report-public-key") == public_key  # checkable without asking us
    assert re.search(r"\d\.\d\d\sEUR", page.inner_text("#result_list"))
    assert "hold_pct" not in page.content()
    screenshot("25-table-shift-report")

    text = _pdf(
        page,
        live_server,
        f"/admin/audit/reports/table-shift/?table={table.pk}&export=pdf",
        "26-table-shift-report-pdf",
    )
    recorded = AuditEvent.objects.filter(
        name="audit.viewed", payload__what="report.table-shift", payload__format="pdf"
    ).get()
    assert re.search(r"Page 1 of \d+", text)
    assert f"Data SHA-256 {recorded.payload['digest']}" in text
    assert "Generated by: auditor-eve" in text or "by auditor-eve" in text
    assert re.search(r"\d[\d,]*\.\d\d\sEUR", text) and "Hold %" in text and "hold_pct" not in text
    assert "Period: " in text
    assert f"(raw, base64; also at GET /api/v1/audit/keys/): {public_key}" in text

    text = _pdf(
        page,
        live_server,
        "/admin/audit/reports/game-performance/?export=pdf",
        "27-game-performance-pdf",
    )
    assert re.search(r"Page 1 of \d+", text) and "RTP (%)" in text
    assert "95% confidence band" in text and HEX64.search(text)
