"""The README's tour, taken in a real browser: the floor with the demo tables playing, a live
round, a round's replay, a report page and its PDF.

Each picture is checked before it is taken. ``make screenshots`` runs this file with
TOUR_SCREENSHOTS_DIR=docs/screenshots, so the README's images are regenerated from what the
product shows today; otherwise they go to artifacts/screenshots/tour/ like any test artefact.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from PIL import Image

from casino.actors import Actor
from casino.demo.players import players_start
from casino.demo.seed import demo_audit_verify, demo_seed
from casino.sandbox.services import sandbox_tables_drive
from conftest import ROOT, wait_until
from ledger.models import Player
from tables import services
from tables.models import Round, Table
from tests.browser.conftest import ARTIFACTS, admin_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTOR = Actor.system("browser-test")
SHOTS = Path(os.environ.get("TOUR_SCREENSHOTS_DIR") or ARTIFACTS / "tour")
if not SHOTS.is_absolute():
    SHOTS = ROOT / SHOTS


def _optimised(source: Path, name: str) -> Path:
    """A small PNG: a 256-colour palette is lossless enough for console pages."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    target = SHOTS / f"{name}.png"
    with Image.open(source) as image:
        image.convert("RGB").quantize(colors=256).save(target, optimize=True)
    return target


@pytest.fixture
def tour_shot(page, tmp_path):
    def shoot(name: str) -> Path:
        raw = tmp_path / f"{name}.png"
        page.screenshot(path=str(raw))
        return _optimised(raw, name)

    return shoot


def _logout(page, live_server):
    page.goto(f"{live_server.url}/admin/")
    page.click("#logout-form button")


def _live_round(table: Table, player_ids: list[int]) -> Round:
    """A round in play at a human-paced table: two bets, betting closed, cards dealt, the
    first box to decide (its decision timer is a minute long)."""
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    for box, player in enumerate(Player.objects.filter(pk__in=player_ids[:2]), start=1):
        services.bet_place(
            actor=ACTOR, round_id=rnd.pk, player=player, box=box, stake=table.min_bet * 5
        )
    services.round_close_betting(actor=ACTOR, round_id=rnd.pk)
    rnd.refresh_from_db()
    return rnd


@pytest.mark.worker
def test_tour_of_the_floor_a_live_round_a_replay_and_a_report(
    page, live_server, celery_worker, tour_shot, tmp_path
):
    credentials = demo_seed()
    assert demo_audit_verify().ok
    # The sandbox dealer's first pass (the demo's beat runs it every few seconds): each
    # sandbox table opens a round, as on the demo's floor, instead of standing idle.
    assert sandbox_tables_drive()["opened"] == len(credentials.sandbox_table_ids)
    fast = [pk for pk in credentials.device_tokens if pk not in credentials.human_paced]
    # Every table's device plays as in the demo (the human-paced ones open rounds and wait for
    # a person), but human-crown's: the test deals its live round itself, below.
    crown = Table.objects.get(code="human-crown")
    del credentials.device_tokens[crown.pk]
    stop = threading.Event()
    threads = players_start(base=live_server.url, credentials=credentials, stop=stop)
    try:
        # enough rounds for the report's confidence bands to mean something
        wait_until(
            lambda: Round.objects.filter(table_id__in=fast, phase="settled").count() >= 15,
            timeout=480,  # a loaded CI machine plays the five fast tables slower
            interval=1,
            message="the demo tables settled no rounds:\n" + "".join(celery_worker.output[-30:]),
        )
        live = _live_round(crown, credentials.player_ids)
        assert live.phase == Round.Phase.PLAYING

        # the floor, as the pit boss sees it, with the demo tables playing
        admin_login(page, live_server, "pitboss", credentials.staff["pitboss"])
        page.locator("#floor-table .console-settled").first.wait_for(timeout=30_000)
        floor = page.inner_text("#floor-table")
        assert "human-crown" in floor and "sandbox-crown" in floor
        # every table dealt as the demo deals it: no table stands idle or lacks its dealer
        assert "Open and idle" not in floor and "without a dealer" not in floor, floor
        assert "Audit chain verified" in page.inner_text("#content")
        tour_shot("floor")

        # a live round: the cards dealt, the first box to play
        page.goto(f"{live_server.url}/admin/tables/round/{live.pk}/change/")
        assert page.inner_text("#round-phase") == "playing"
        tour_shot("live-round")
    finally:
        stop.set()
        for thread in threads:
            thread.join(15)
    _logout(page, live_server)

    # an auditor replays a settled round...
    admin_login(page, live_server, "auditor", credentials.staff["auditor"])
    page.wait_for_selector("#floor-table")
    settled = Round.objects.filter(table_id__in=fast, phase="settled").order_by("-pk").first()
    page.goto(f"{live_server.url}/admin/audit/replay/{settled.pk}/")
    assert str(settled.pk) in page.inner_text("#content")
    tour_shot("replay")

    # ...and reads the game performance report, on the page and as the PDF
    page.goto(f"{live_server.url}/admin/audit/reports/game-performance/")
    assert page.locator("#content svg").count() >= 1
    assert "theoretical RTP not available" not in page.inner_text("#content"), "the figures"
    tour_shot("report")
    pdf = page.request.get(f"{live_server.url}/admin/audit/reports/game-performance/?export=pdf")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    (tmp_path / "report.pdf").write_bytes(pdf.body())
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm not found: `make test` installs poppler-utils when run as root"
    first_page = ["-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile"]
    subprocess.run(  # noqa: S603
        [pdftoppm, *first_page, str(tmp_path / "report.pdf"), str(tmp_path / "report-pdf")],
        check=True,
        timeout=60,
    )
    _optimised(tmp_path / "report-pdf.png", "report-pdf")
