"""Shifts and gaming days in local time, across the DST changes; accounting by real shift."""

from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from audit.models import AuditEvent
from casino.api import roles
from forensics.reports import Period, report_build
from ledger import services
from ledger.models import Leg
from ledger.selectors import AccountingFilter, table_accounting
from ledger.services import SettlementLine
from tables.models import Casino, Pit, RosterEntry, ShiftDefinition, ShiftPlan
from tables.selectors import shift_at, shift_grid, shift_interval
from tables.shifts import Plan, ShiftCalendar
from tests.console.helpers import staff
from tests.factories import CasinoFactory, TableFactory, UserFactory, WalletFactory
from tests.ledger.conftest import ACTOR, fund, stake

THREE = Plan(
    date(2000, 1, 1), time(6), (("day", time(6)), ("swing", time(14)), ("grave", time(22)))
)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def hours(span) -> float:
    return (span.end - span.start) / timedelta(hours=1)


@pytest.mark.parametrize(
    ("zone", "day", "grave_start", "grave_end", "grave_hours"),
    [
        # London springs forward 29 Mar 2026 01:00 GMT: the grave shift of the 28th is short.
        ("Europe/London", date(2026, 3, 28), utc(2026, 3, 28, 22), utc(2026, 3, 29, 5), 7),
        # ... and falls back 25 Oct 2026 02:00 BST: the grave shift of the 24th is long.
        ("Europe/London", date(2026, 10, 24), utc(2026, 10, 24, 21), utc(2026, 10, 25, 6), 9),
        # Sydney falls back 5 Apr 2026 03:00 AEDT (+11 -> +10).
        ("Australia/Sydney", date(2026, 4, 4), utc(2026, 4, 4, 11), utc(2026, 4, 4, 20), 9),
        # ... and springs forward 4 Oct 2026 02:00 AEST (+10 -> +11).
        ("Australia/Sydney", date(2026, 10, 3), utc(2026, 10, 3, 12), utc(2026, 10, 3, 19), 7),
    ],
)
def test_a_shift_across_a_dst_change_keeps_its_local_boundaries(
    zone, day, grave_start, grave_end, grave_hours
):
    calendar = ShiftCalendar(zone, [THREE])
    grave = calendar.span_of(day, "grave")
    assert (grave.start, grave.end, hours(grave)) == (grave_start, grave_end, grave_hours)
    # The next gaming day starts where the grave shift ends, at 06:00 local.
    day_shift = calendar.span_of(day + timedelta(days=1), "day")
    assert day_shift.start == grave.end
    assert day_shift.start.astimezone(calendar.zone).time() == time(6)
    assert sum(hours(s) for s in calendar.spans(day)) == 24 + grave_hours - 8
    # Just before 06:00 local is still the previous gaming day's grave shift.
    assert calendar.span_at(grave.end - timedelta(seconds=1)) == grave
    assert calendar.span_at(grave.end).gaming_day == day + timedelta(days=1)


def test_a_start_in_the_skipped_hour_is_read_before_the_change():
    plan = Plan(date(2000, 1, 1), time(1, 30), (("late", time(1, 30)), ("early", time(13))))
    calendar = ShiftCalendar("Europe/London", [plan])
    # 01:30 does not exist on 29 Mar 2026: read as 01:30 GMT (02:30 BST).
    assert calendar.day_start(date(2026, 3, 29)) == utc(2026, 3, 29, 1, 30)
    # 01:30 happens twice on 25 Oct 2026: the first (BST) one.
    assert calendar.day_start(date(2026, 10, 25)) == utc(2026, 10, 25, 0, 30)


def test_a_new_plan_takes_over_from_its_gaming_day_without_gap_or_overlap():
    later = Plan(date(2026, 6, 1), time(8), (("morning", time(8)), ("evening", time(20))))
    calendar = ShiftCalendar("Europe/Paris", [THREE, later])
    before = calendar.spans(date(2026, 5, 31))
    after = calendar.spans(date(2026, 6, 1))
    assert [s.shift for s in before] == ["day", "swing", "grave"]
    assert [s.shift for s in after] == ["morning", "evening"]
    assert before[-1].end == after[0].start == utc(2026, 6, 1, 6)  # 08:00 CEST
    assert hours(before[-1]) == 10  # grave ran on to the new day's start


def test_without_a_plan_the_gaming_day_is_the_local_calendar_day():
    calendar = ShiftCalendar("America/New_York")
    [span] = calendar.spans(date(2026, 7, 4))
    assert (span.shift, span.start, span.end) == ("day", utc(2026, 7, 4, 4), utc(2026, 7, 5, 4))


_times = st.builds(time, st.integers(0, 23), st.sampled_from([0, 30]))


@given(
    zone=st.sampled_from(["Europe/London", "Australia/Sydney", "America/Chicago", "UTC"]),
    offset=st.integers(min_value=0, max_value=3 * 366 * 24 * 3600),
    starts=st.lists(_times, min_size=1, max_size=4, unique=True),
    later_starts=st.lists(_times, min_size=1, max_size=4, unique=True),
    day_starts=_times,
    change_day=st.integers(min_value=0, max_value=3 * 366),
)
def test_shifts_tile_time_and_each_instant_lies_in_exactly_one(
    zone, offset, starts, later_starts, day_starts, change_day
):
    """Whatever the plans (even a gaming-day start that is no shift's start) and the zone."""
    first = Plan(date(2000, 1, 1), starts[0], tuple((f"a{i}", t) for i, t in enumerate(starts)))
    later = Plan(
        date(2025, 1, 1) + timedelta(days=change_day),
        day_starts,
        tuple((f"b{i}", t) for i, t in enumerate(later_starts)),
    )
    calendar = ShiftCalendar(zone, [first, later])
    instant = utc(2025, 1, 1) + timedelta(seconds=offset)
    span = calendar.span_at(instant)
    assert span.start <= instant < span.end
    local = instant.astimezone(calendar.zone).date()
    spans = calendar.spans_between(local - timedelta(days=2), local + timedelta(days=2))
    assert [s for s in spans if instant in s] == [span]
    assert all(a.end == b.start for a, b in pairwise(spans))


# --- The database side -------------------------------------------------------------------


@pytest.fixture
def london(db):
    casino = Casino.objects.create(code="ldn", name="London", time_zone="Europe/London")
    plan = ShiftPlan.objects.create(
        casino=casino, effective_from=date(2026, 1, 1), gaming_day_starts=time(6)
    )
    for name, starts in THREE.shifts:
        ShiftDefinition.objects.create(plan=plan, name=name, starts=starts)
    return casino


def test_selectors_answer_which_shift_and_its_interval(london):
    span = shift_at(casino_id=london.pk, instant=utc(2026, 3, 29, 4, 30))
    assert (span.gaming_day, span.shift) == (date(2026, 3, 28), "grave")
    assert shift_interval(casino_id=london.pk, gaming_day=date(2026, 3, 28), shift="grave") == span


def _play_at(monkeypatch, instant, wallet, table, round_id, amount, payout):
    """A stake and its settlement posted at ``instant`` (the ledger stamps ``timezone.now``)."""
    monkeypatch.setattr(timezone, "now", lambda: instant)
    ref = f"r{round_id}"
    stake(wallet, amount, table_id=table.pk, round_id=round_id, bet_ref=ref)
    services.round_settlement_post(
        actor=ACTOR, round_id=round_id, table_id=table.pk, currency="EUR",
        lines=[SettlementLine(ref, wallet.pk, stake=amount, payout=payout)],
    )  # fmt: skip


def test_gaming_day_accounting_equals_the_ledger_legs(london, monkeypatch):
    table = TableFactory(casino=london)
    wallet = WalletFactory()
    fund(wallet, 100_000)
    plays = [  # (UTC instant, stake, payout): around London's spring-forward night
        (utc(2026, 3, 28, 12), 100, 0),  # day shift of the 28th
        (utc(2026, 3, 28, 23, 30), 200, 400),  # grave of the 28th (UTC day 28)
        (utc(2026, 3, 29, 0, 30), 300, 0),  # grave of the 28th (UTC day 29)
        (utc(2026, 3, 29, 4, 59), 400, 800),  # grave of the 28th: 05:59 BST
        (utc(2026, 3, 29, 5, 0), 500, 0),  # day shift of the 29th: 06:00 BST
        (utc(2026, 3, 29, 15), 600, 0),  # swing of the 29th
    ]
    for n, (instant, amount, payout) in enumerate(plays, start=1):
        _play_at(monkeypatch, instant, wallet, table, n, amount, payout)
    monkeypatch.undo()

    grid = shift_grid(date_from=date(2026, 3, 28), date_to=date(2026, 3, 29))
    rows = table_accounting(
        group_by=["table", "gaming_day", "shift"], filters=AccountingFilter(), shifts=grid
    )
    by_shift = {(r["gaming_day"], r["shift"]): r for r in rows}
    assert {k: v["handle"] for k, v in by_shift.items()} == {
        (date(2026, 3, 28), "day"): 100,
        (date(2026, 3, 28), "grave"): 900,
        (date(2026, 3, 29), "day"): 500,
        (date(2026, 3, 29), "swing"): 600,
    }
    for (day, name), row in by_shift.items():
        span = shift_interval(casino_id=london.pk, gaming_day=day, shift=name)
        legs = Leg.objects.filter(
            transaction__posted_at__gte=span.start,
            transaction__posted_at__lt=span.end,
            transaction__table_id=table.pk,
        )
        wallet_legs = legs.filter(account__kind="wallet")
        assert row["win"] == -sum(wallet_legs.values_list("amount", flat=True))
        assert row["win"] == sum(
            legs.exclude(account__kind="wallet").values_list("amount", flat=True)
        )
    days = table_accounting(group_by=["gaming_day"], filters=AccountingFilter(), shifts=grid)
    assert [(r["gaming_day"], r["handle"]) for r in days] == [
        (date(2026, 3, 28), 1000),
        (date(2026, 3, 29), 1100),
    ]
    # One shift only.
    grave = shift_grid(date_from=date(2026, 3, 28), date_to=date(2026, 3, 29), shift="grave")
    [row] = table_accounting(group_by=["shift"], filters=AccountingFilter(), shifts=grave)
    assert (row["shift"], row["handle"], row["win"]) == ("grave", 900, 900 - 1200)


def test_reports_group_by_the_casinos_gaming_day_and_shift(london, monkeypatch, client_for):
    table = TableFactory(casino=london)
    wallet = WalletFactory()
    fund(wallet, 100_000)
    _play_at(monkeypatch, utc(2026, 3, 28, 23, 30), wallet, table, 1, 200, 0)
    _play_at(monkeypatch, utc(2026, 3, 29, 0, 30), wallet, table, 2, 300, 0)
    _play_at(monkeypatch, utc(2026, 3, 29, 5, 0), wallet, table, 3, 500, 0)
    monkeypatch.undo()
    period = Period.of(date(2026, 3, 28), date(2026, 3, 29))

    shifts = report_build("table-shift", period=period, table_id=table.pk)
    assert [(r["gaming_day"], r["shift"], r["handle"]) for r in shifts.rows] == [
        (date(2026, 3, 28), "grave", 500),
        (date(2026, 3, 29), "day", 500),
    ]
    days = report_build("table-shift", period=period, table_id=table.pk, grouping="gaming_day")
    assert [(r["gaming_day"], r["handle"]) for r in days.rows] == [
        (date(2026, 3, 28), 500),
        (date(2026, 3, 29), 500),
    ]
    assert "shift" not in dict(days.columns)

    api = client_for(roles.AUDITOR)
    url = "/api/v1/audit/reports/table-shift/"
    query = {"date_from": "2026-03-28", "date_to": "2026-03-29", "table": table.pk}
    graves = api.get(url, {**query, "shift": "grave"})
    assert graves.status_code == 200
    assert [(r["gaming_day"], r["handle"]) for r in graves.json()["rows"]] == [("2026-03-28", 500)]
    dealer = api.get("/api/v1/audit/reports/dealer/", {**query, "shift": "grave"})
    assert [t["handle"] for t in dealer.json()["totals"]] == [500]
    bad = api.get(url, {**query, "grouping": "utc_day"})
    assert bad.status_code == 400
    assert [e["field"] for e in bad.json()["errors"]] == ["grouping"]


def test_the_api_table_accounting_groups_by_the_casinos_gaming_day_and_shift(
    london, monkeypatch, client_for
):
    """As the reports do: the shift plan's shifts and gaming days, not the UTC day and an
    empty shift (what the API answered before)."""
    table = TableFactory(casino=london)
    wallet = WalletFactory()
    fund(wallet, 100_000)
    _play_at(monkeypatch, utc(2026, 3, 28, 12), wallet, table, 1, 100, 0)
    _play_at(monkeypatch, utc(2026, 3, 28, 23, 30), wallet, table, 2, 200, 0)
    _play_at(monkeypatch, utc(2026, 3, 29, 0, 30), wallet, table, 3, 300, 0)
    monkeypatch.undo()
    api = client_for(roles.AUDITOR)
    url = "/api/v1/table-accounting/"

    answer = api.get(url, {"group_by": "day,shift", "table": table.pk})
    assert answer.status_code == 200, answer.json()
    assert [(r["day"], r["shift"], r["handle"]) for r in answer.json()] == [
        ("2026-03-28", "day", 100),
        ("2026-03-28", "grave", 500),  # 23:30 and 00:30 UTC: one gaming day, one shift
    ]
    assert set(answer.json()[0]) == {
        "day",
        "shift",
        "currency",
        "handle",
        "payouts",
        "bonuses",
        "win",
        "hold_pct",
    }  # fmt: skip  (no dealer: the rows are not grouped by dealer)
    graves = api.get(url, {"group_by": "shift", "shift": "grave", "date_from": "2026-03-28"})
    assert [(r["shift"], r["handle"]) for r in graves.json()] == [("grave", 500)]
    later = api.get(url, {"date_from": "2026-03-29", "table": table.pk}).json()
    assert later == []  # the 00:30 UTC stake belongs to the 28th's gaming day

    reversed_days = api.get(url, {"date_from": "2026-03-29", "date_to": "2026-03-28"})
    assert reversed_days.status_code == 400
    assert [e["field"] for e in reversed_days.json()["errors"]] == ["date_from"]
    basic = api.get(url, {"date_from": "20260328"})
    assert basic.status_code == 400
    assert [e["field"] for e in basic.json()["errors"]] == ["date_from"]


def test_the_roster_admin_refuses_a_foreign_pit_and_an_unknown_shift(london):
    pit = Pit.objects.create(casino=london, code="east", name="East")
    other = Pit.objects.create(casino=CasinoFactory(), code="west", name="West")
    client, _ = staff(roles.PIT_BOSS)
    dealer = UserFactory(roles=[roles.DEALER])
    url = "/admin/tables/rosterentry/add/"
    entry = {"casino": london.pk, "user": dealer.pk, "gaming_day": "2026-03-28", "role": "dealer"}
    refused = client.post(url, {**entry, "pit": other.pk, "shift": "night"})
    assert refused.status_code == 200
    errors = refused.context["adminform"].form.errors
    assert "not a pit of" in errors["pit"][0] and "day, swing, grave" in errors["shift"][0]
    assert not RosterEntry.objects.exists()
    client.post(url, {**entry, "pit": pit.pk, "shift": "swing"})
    assert RosterEntry.objects.get().shift == "swing"
    assert AuditEvent.objects.filter(
        name="admin.added", payload__model="tables.rosterentry"
    ).exists()
