"""Report parameters: a report applies every filter it accepts and refuses, by name, one it
does not take (never ignores it); its ``parameters`` and its ``audit.viewed`` event state
exactly what it applied; a period refused names the default it was compared with."""

from datetime import UTC, timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino.api import roles

from .rounds import settled_round

pytestmark = pytest.mark.django_db

FILTERS = ("table", "player", "shift", "grouping")


def _url(kind: str) -> str:
    return f"/api/v1/audit/reports/{kind}/"


def _viewed(kind: str) -> dict:
    return (
        AuditEvent.objects.filter(name="audit.viewed", payload__what=f"report.{kind}")
        .latest("id")
        .payload
    )


@pytest.fixture
def rounds():
    """Settled rounds on two tables, under two rule sets."""
    return settled_round("crown"), settled_round("british_casino")


def test_game_performance_applies_table_and_player_and_records_them(client_for, rounds):
    crown, british = rounds
    auditor = client_for(roles.AUDITOR)
    assert len(auditor.get(_url("game-performance")).json()["rows"]) == 2
    crown_game = f"{crown.rule_set} / {crown.payout_schedule}"

    by_table = auditor.get(_url("game-performance"), {"table": crown.table_id})
    assert by_table.status_code == 200, by_table.content
    body = by_table.json()
    assert [row["game"] for row in body["rows"]] == [crown_game]
    assert body["rows"][0]["bets"] == crown.bets.count()
    assert body["parameters"] == {"table": crown.table_id, "player": None}
    viewed = _viewed("game-performance")
    assert {k: viewed[k] for k in FILTERS if k in viewed} == body["parameters"]

    player = british.bets.get(box=2).player_id
    by_player = auditor.get(_url("game-performance"), {"player": player}).json()
    assert [(row["game"], row["bets"]) for row in by_player["rows"]] == [
        (f"{british.rule_set} / {british.payout_schedule}", 1)
    ]
    assert _viewed("game-performance")["player"] == player


# Each report with the parameters it does not take.
REFUSED = [
    ("table-shift", "player", "1"),
    ("dealer", "player", "1"),
    ("dealer", "grouping", "gaming_day"),
    ("player-statement", "table", "1"),
    ("player-statement", "shift", "day"),
    ("player-statement", "grouping", "shift"),
    ("game-performance", "shift", "day"),
    ("game-performance", "grouping", "gaming_day"),
    ("exceptions", "player", "1"),
    ("exceptions", "shift", "day"),
    ("exceptions", "grouping", "shift"),
    ("shoe-log", "player", "1"),
    ("shoe-log", "shift", "day"),
    ("shoe-log", "grouping", "shift"),
]


@pytest.mark.parametrize(("kind", "name", "value"), REFUSED)
def test_a_parameter_a_report_does_not_take_is_refused_by_name(client_for, kind, name, value):
    player = settled_round("online_8deck").bets.get().player_id
    query = {name: value, **({"player": player} if kind == "player-statement" else {})}
    refused = client_for(roles.AUDITOR).get(_url(kind), query)
    assert refused.status_code == 400, refused.content
    problem = refused.json()
    assert f"does not take {name}" in problem["detail"]
    assert problem["param"] == name and [e["field"] for e in problem["errors"]] == [name]
    assert not AuditEvent.objects.filter(
        name="audit.viewed", payload__what=f"report.{kind}"
    ).exists()


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("table-shift", {"table": "crown", "grouping": "gaming_day"}),
        ("dealer", {"table": "crown"}),
        ("player-statement", {"player": "crown"}),
        ("game-performance", {"table": "crown"}),
        ("exceptions", {"table": "crown"}),
        ("shoe-log", {"table": "crown"}),
    ],
)
def test_every_report_records_exactly_the_parameters_it_applied(client_for, rounds, kind, params):
    crown, _ = rounds
    ids = {"table": crown.table_id, "player": crown.bets.first().player_id}
    query = {k: ids.get(k, v) for k, v in params.items()}
    body = client_for(roles.AUDITOR).get(_url(kind), query).json()
    applied = body["parameters"]
    assert {k: v for k, v in applied.items() if v is not None} == {k: v for k, v in query.items()}
    viewed = _viewed(kind)
    assert {k: viewed[k] for k in FILTERS if k in viewed} == applied


def test_a_period_refused_names_the_defaulted_date_to(client_for):
    auditor = client_for(roles.AUDITOR)
    today = timezone.now().astimezone(UTC).date()
    later = today + timedelta(days=5)
    refused = auditor.get(_url("table-shift"), {"date_from": later.isoformat()})
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        f"date_from {later.isoformat()} is after date_to (today, {today.isoformat()})."
    )
    sent = auditor.get(_url("dealer"), {"date_from": "2030-01-02", "date_to": "2030-01-01"})
    assert sent.json()["detail"] == "date_from 2030-01-02 is after date_to 2030-01-01."
