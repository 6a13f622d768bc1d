"""The floor as a control room: pits, urgency, attention alerts, this shift's money from the
ledger (as the reports), and a bounded number of queries however many tables."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.api import roles
from casino.console.selectors import floor_overview
from casino.sandbox.services import sandbox_table_create
from forensics.reports import Period, report_build
from tables import services
from tables.errors import RoundSuspended
from tables.models import Pit, RtpFigure
from tables.selectors import shift_at
from tests.audit.rounds import settled_round
from tests.console.helpers import ACTOR, DEVICE, round_with_bet, staff
from tests.factories import TableFactory, UserFactory, live_table

pytestmark = pytest.mark.django_db


def _row(floor, table):
    [row] = [r for r in floor.rows if r.table.pk == table.pk]
    return row


def _texts(floor, table) -> list[str]:
    return [a.text for a in _row(floor, table).alerts]


def test_open_without_dealer_and_idle_alerts_are_raised_and_cleared():
    table = live_table("crown")
    texts = _texts(floor_overview(), table)
    assert "Open without a dealer" in texts
    assert any(t.startswith("Open and idle") for t in texts)
    services.table_dealer_assign(
        actor=ACTOR, table_id=table.pk, dealer=UserFactory(roles=[roles.DEALER])
    )
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    assert _texts(floor_overview(), table) == []
    # The same round, six minutes on, is too old.
    [old] = _texts(floor_overview(now=timezone.now() + timedelta(minutes=6)), table)
    assert old.startswith(f"Round #{rnd.number} open for")
    # A closed table needs nothing.
    services.table_dealer_release(actor=ACTOR, table_id=table.pk)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    services.round_settle(round_id=rnd.pk)
    services.table_close(actor=ACTOR, table_id=table.pk)
    assert _texts(floor_overview(), table) == []


def test_a_sandbox_table_deals_itself_so_no_dealer_is_no_alert():
    sandbox = sandbox_table_create(actor=ACTOR, preset="crown", code="sandbox-crown")
    live = live_table("crown")
    floor = floor_overview()
    assert sandbox.dealer_id is None and live.dealer_id is None
    assert "Open without a dealer" not in _texts(floor, sandbox)
    assert "Open without a dealer" in _texts(floor, live)
    # still a table like any other: idle is idle
    assert any(t.startswith("Open and idle") for t in _texts(floor, sandbox))


def test_this_shifts_figures_equal_the_report_and_the_ledger_legs():
    table = live_table("crown")
    RtpFigure.objects.update_or_create(
        rule_set=table.rule_set,
        payout_schedule=table.payout_schedule,
        defaults={"rtp": Decimal("0.985"), "method": "test"},
    )
    rounds = [settled_round("crown", table)]
    _, held, _ = round_with_bet("crown")  # another table: a bet in play
    floor = floor_overview()
    figures = _row(floor, table).figures
    span = shift_at(casino_id=table.casino_id, instant=floor.generated_at)
    report = report_build(
        "table-shift",
        period=Period.of(span.gaming_day, span.gaming_day),
        table_id=table.pk,
        shift=span.shift,
    )
    [row] = report.rows
    assert (figures.handle, figures.win, figures.hold_pct) == (
        row["handle"],
        row["win"],
        row["hold_pct"],
    )
    stakes = sum(b.staked_total for r in rounds for b in r.bets.all())
    assert figures.handle == stakes > 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT -coalesce(sum(l.amount), 0) FROM ledger_leg l "
            "JOIN ledger_transaction t ON t.id = l.transaction_id "
            "JOIN ledger_account a ON a.id = l.account_id "
            "WHERE a.kind = 'wallet' AND t.table_id = %s",
            [table.pk],
        )
        assert figures.win == cursor.fetchone()[0]
    in_play = _row(floor, held.table).figures
    assert (in_play.bets_count, in_play.bets_in_play) == (1, 1000)
    assert figures.theoretical_hold_pct == Decimal("1.50")
    [total] = floor.totals
    assert total["handle"] == sum(r.figures.handle for r in floor.rows)
    assert total["bets_in_play"] == 1000


def test_tables_are_grouped_by_pit_and_sorted_by_urgency():
    casino = live_table("crown").casino
    east = Pit.objects.create(casino=casino, code="east", name="East")
    calm = live_table("crown", pit=east)
    services.table_pause(actor=ACTOR, table_id=calm.pk)  # paused: nothing to look at
    _, rnd, _ = round_with_bet("crown", pit=east)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    with pytest.raises(RoundSuspended):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="TS")  # refused: suspends
    floor = floor_overview()
    names = [p.name for p in floor.pits]
    assert names == ["East", "No pit"]  # the suspended round's pit first
    east_rows = floor.pits[0].rows
    assert [r.table.pk for r in east_rows] == [rnd.table_id, calm.pk]
    assert floor.pits[0].totals[0]["bets_in_play"] == 1000


def _floor_queries(client, url: str = "/admin/tables/table/floor/fragment/") -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


FULL_PAGE = "/admin/tables/table/floor/"


def test_the_floor_renders_fifty_tables_with_a_bounded_number_of_queries():
    client, _ = staff(roles.PIT_BOSS)
    casino = live_table("crown").casino
    pits = [Pit.objects.create(casino=casino, code=f"p{i}", name=f"Pit {i}") for i in range(3)]
    for i in range(4):
        settled_round("crown", live_table("crown", pit=pits[i % 3]))
    few, few_page = _floor_queries(client), _floor_queries(client, FULL_PAGE)
    for i in range(45):
        TableFactory(casino=casino, pit=pits[i % 3])
    for i in range(2):
        table = live_table("crown", pit=pits[i])
        services.table_dealer_assign(
            actor=ACTOR, table_id=table.pk, dealer=UserFactory(roles=[roles.DEALER])
        )
        settled_round("crown", table)
    page = client.get("/admin/tables/table/floor/fragment/").content.decode()
    assert page.count("data-table=") == 52
    assert _floor_queries(client) == few
    assert few <= 25
    # the full page (the floor computed once, with the console's frame) is bounded as well
    assert _floor_queries(client, FULL_PAGE) == few_page
