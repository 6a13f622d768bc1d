"""Display fixes on the tables pages: money by currency, no N+1 on the table list, and no
report links for a role that can't open them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.api import roles
from tables import services
from tests.audit.rounds import settled_round
from tests.console.helpers import ACTOR, DEVICE, round_with_bet, staff
from tests.factories import UserFactory, live_table

pytestmark = pytest.mark.django_db


def _list_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/admin/tables/table/").status_code == 200
    return len(queries)


def test_the_table_list_reads_rounds_in_one_query_and_shows_limits_in_major_units():
    client, _ = staff(roles.PIT_BOSS)
    settled_round("crown", live_table("crown", min_bet=250, max_bet=100_000))
    few = _list_queries(client)
    for _ in range(5):
        settled_round("crown", live_table("crown"))
    assert _list_queries(client) == few
    page = client.get("/admin/tables/table/").content.decode()
    assert "2.50\xa0EUR - 1,000.00\xa0EUR" in page and "250-100000" not in page


def test_the_table_page_shows_limits_by_currency():
    client, _ = staff(roles.PIT_BOSS)
    table = live_table("crown", currency="JPY", min_bet=500, max_bet=50_000)
    page = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "Limits 500\xa0JPY - 50,000\xa0JPY" in page


def test_a_dealer_sees_no_report_or_audit_link_they_cannot_open():
    table = live_table("crown")
    dealer, _ = staff(roles.DEALER)
    boss, _ = staff(roles.PIT_BOSS)
    for url in ("/admin/tables/table/floor/", f"/admin/tables/table/{table.pk}/change/"):
        assert "/admin/audit/reports/" not in dealer.get(url).content.decode()
        assert "/admin/audit/reports/" in boss.get(url).content.decode()


def test_a_voided_round_names_no_turn():
    _, rnd, _ = round_with_bet(close=True)
    client, _ = staff(roles.PIT_BOSS)
    panel = f"/admin/tables/round/{rnd.pk}/panel/"
    for card in ("2H", "3C", "4D", "5S"):  # dealt until a hand's turn
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
        if "Turn: " in client.get(panel).content.decode():
            break
    assert "Turn: " in client.get(panel).content.decode()
    services.void_request(
        actor=ACTOR, user=UserFactory(roles=[roles.PIT_BOSS]), round_id=rnd.pk, reason="misdeal"
    )
    services.void_approve(
        actor=ACTOR, user=UserFactory(roles=[roles.FLOOR_SUPERVISOR]), round_id=rnd.pk
    )
    page = client.get(panel).content.decode()
    assert "voided" in page and "Turn: " not in page
