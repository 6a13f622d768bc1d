"""Dealer rotation: one table per dealer at a time, breaks, rotation-due alerts, dealer figures."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.models import AuditEvent
from casino.api import roles
from casino.console.selectors import floor_overview
from tables import services
from tables.models import DealerAssignment, DealerBreak, Pit, Round
from tables.selectors import dealer_figures, shift_at
from tables.services.rotation import DealerElsewhere
from tests.audit.rounds import settled_round
from tests.console.helpers import ACTOR, act, messages_of, staff
from tests.factories import UserFactory, live_table

pytestmark = pytest.mark.django_db


def _dealer():
    return UserFactory(roles=[roles.DEALER])


def _alerts(table, **kw) -> list[str]:
    """The table's dealer alerts (break, rotation) on the floor."""
    [row] = [r for r in floor_overview(**kw).rows if r.table.pk == table.pk]
    return [a.text for a in row.alerts if "break" in a.text or "Rotation" in a.text]


def test_a_dealer_is_refused_a_second_table_until_relieved():
    first, second = live_table("crown"), live_table("crown")
    dealer, relief = _dealer(), _dealer()
    services.table_dealer_assign(actor=ACTOR, table_id=first.pk, dealer=dealer)
    with pytest.raises(DealerElsewhere, match=f"dealing at table {first.code}"):
        services.table_dealer_assign(actor=ACTOR, table_id=second.pk, dealer=dealer)
    second.refresh_from_db()
    assert second.dealer is None
    assert DealerAssignment.objects.filter(dealer=dealer, ended_at__isnull=True).count() == 1
    # Assigning them again where they are is a no-op rotation, not a refusal.
    services.table_dealer_assign(actor=ACTOR, table_id=first.pk, dealer=dealer)
    # Relieved at the first table, they may take the second.
    services.table_dealer_assign(actor=ACTOR, table_id=first.pk, dealer=relief)
    services.table_dealer_assign(actor=ACTOR, table_id=second.pk, dealer=dealer)
    current = DealerAssignment.objects.filter(ended_at__isnull=True)
    assert sorted(current.values_list("table_id", "dealer_id")) == sorted(
        [(first.pk, relief.pk), (second.pk, dealer.pk)]
    )


def test_the_database_refuses_two_current_tables_for_one_dealer():
    """The backstop for two assignments racing past the service's check."""
    first, second = live_table("crown"), live_table("crown")
    dealer = _dealer()
    services.table_dealer_assign(actor=ACTOR, table_id=first.pk, dealer=dealer)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealerAssignment.objects.create(
            table=second, dealer=dealer, started_at=timezone.now(), assigned_by="race"
        )


def test_the_api_and_the_console_refuse_a_dealer_a_second_table(client_for):
    first, second = live_table("crown"), live_table("crown")
    dealer = _dealer()
    api = client_for(roles.PIT_BOSS)
    url = "/api/v1/tables/{}/dealer/"
    body = {"dealer_id": dealer.pk}
    assert api.post(url.format(first.pk), body, format="json").status_code == 200
    refused = api.post(url.format(second.pk), body, format="json")
    assert refused.status_code == 409
    assert refused.json()["type"].endswith("dealer-elsewhere")
    assert first.code in refused.json()["detail"]

    client, _ = staff(roles.PIT_BOSS)
    page = client.post(
        f"/admin/tables/table/{second.pk}/do/dealer/",
        {"_action_page": "1", "dealer": dealer.pk, "reason": "rotation"},
        follow=True,
    )
    assert any("one table per dealer" in m for m in messages_of(page))
    second.refresh_from_db()
    assert second.dealer is None


def test_a_break_raises_the_dealer_away_alert_until_the_dealer_is_back():
    table = live_table("crown")
    dealer = _dealer()
    services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=dealer)
    assert _alerts(table) == []
    services.dealer_break_start(actor=ACTOR, dealer=dealer)
    assert DealerBreak.objects.get(dealer=dealer).table == table
    assert any("on break" in a and "table open" in a for a in _alerts(table))
    assert AuditEvent.objects.filter(name="tables.dealer_break", table_id=table.pk).count() == 1
    services.dealer_break_end(actor=ACTOR, dealer=dealer)
    assert _alerts(table) == []
    # A break ends when its dealer is assigned (back at the table, or elsewhere).
    services.dealer_break_start(actor=ACTOR, dealer=dealer)
    services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=dealer)
    assert not DealerBreak.objects.filter(ended_at__isnull=True).exists()


def test_the_console_sends_the_dealer_on_break_and_releases_them():
    table = live_table("crown")
    dealer = _dealer()
    services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=dealer)
    client, _ = staff(roles.PIT_BOSS)
    act(client, f"/admin/tables/table/{table.pk}/do/dealer_break/")
    assert DealerBreak.objects.filter(dealer=dealer, ended_at__isnull=True).exists()
    back = client.post(f"/admin/tables/table/{table.pk}/do/dealer_back/", follow=True)
    assert "back from break" in " ".join(messages_of(back))
    act(client, f"/admin/tables/table/{table.pk}/do/dealer_release/")
    table.refresh_from_db()
    assert table.dealer is None
    assert not DealerAssignment.objects.filter(dealer=dealer, ended_at__isnull=True).exists()


def test_rotation_is_due_after_the_pits_interval_on_an_open_table():
    pit = Pit.objects.create(
        casino=live_table("crown").casino, code="east", name="East", rotation_minutes=20
    )
    table = live_table("crown", pit=pit)
    services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=_dealer())
    now = timezone.now()
    assert _alerts(table, now=now + timedelta(minutes=19)) == []
    [due] = _alerts(table, now=now + timedelta(minutes=21))
    assert due.startswith("Rotation due:")
    services.table_pause(actor=ACTOR, table_id=table.pk)
    assert _alerts(table, now=now + timedelta(minutes=21)) == []  # paused: nobody to relieve


def test_dealer_figures_per_shift():
    table, other = live_table("crown"), live_table("crown")
    dealer = _dealer()
    services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=dealer)
    rounds = [settled_round("crown", table)]
    services.table_dealer_release(actor=ACTOR, table_id=table.pk)
    services.table_dealer_assign(actor=ACTOR, table_id=other.pk, dealer=dealer)
    rounds.append(settled_round("crown", other))
    assert {r.dealer_id for r in rounds} == {dealer.pk}
    span = shift_at(casino_id=table.casino_id, instant=timezone.now())
    [figures] = dealer_figures(
        casino_id=table.casino_id, gaming_day=span.gaming_day, shift=span.shift
    )
    hands = sum(r.hands.count() for r in Round.objects.filter(pk__in=[r.pk for r in rounds]))
    assert (figures["dealer"], figures["rounds"], figures["hands"]) == (
        dealer.username,
        2,
        hands,
    )
    assert figures["voids"] == 0 and figures["reader_errors"] == 0
    assert figures["rounds_per_hour"] > 2  # two rounds in well under an hour
