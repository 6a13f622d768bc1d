"""No API answer is stored by a browser or a proxy unless its endpoint says otherwise: the
API middleware sends what ``never_cache`` sends (``no-store``) on every /api/ response that
sets no Cache-Control, whichever app served it and whatever its status."""

import pytest

from casino.api import roles
from tests.audit.rounds import settled_round
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_audit_and_forensics_answers_are_never_stored(client_for):
    rnd = settled_round("crown")
    player = rnd.bets.first().player_id
    auditor, boss = client_for(roles.AUDITOR), client_for(roles.PIT_BOSS)
    case = boss.post(
        "/api/v1/audit/disputes/", {"round_id": rnd.pk, "claim": "short"}, format="json"
    )
    answers = [
        case,
        auditor.get("/api/v1/audit/reports/player-statement/", {"player": player}),
        auditor.get("/api/v1/audit/reports/game-performance/"),
        auditor.get("/api/v1/audit/reports/player-statement/"),  # a 400: no player
        auditor.get(f"/api/v1/audit/rounds/{rnd.pk}/replay/"),
        auditor.get("/api/v1/audit/events/", {"round": rnd.pk}),
        auditor.get("/api/v1/audit/head/"),
        auditor.get("/api/v1/audit/disputes/"),
        auditor.get(f"/api/v1/audit/disputes/{case.json()['id']}/"),
    ]
    assert [r.status_code for r in answers] == [201, 200, 200, 400, 200, 200, 200, 200, 200]
    for response in answers:
        assert _no_store(response), response.request["PATH_INFO"]


def test_every_other_app_and_every_status_defaults_to_no_store(client_for, table):
    staff = client_for(roles.FLOOR_SUPERVISOR)
    answers = [
        client_for("anonymous").get("/api/v1/health/"),
        staff.get("/api/v1/tables/"),
        staff.get(f"/api/v1/tables/{table.pk}/"),
        staff.get("/api/v1/me/"),
        staff.get("/api/v1/nowhere/"),  # the 404 problem
        client_for("anonymous").get("/api/v1/tables/"),  # the 401 problem
    ]
    assert [r.status_code for r in answers][-2:] == [404, 401]
    for response in answers:
        assert _no_store(response), response.request["PATH_INFO"]


def test_a_report_exported_from_the_console_is_never_stored(client):
    from tests.factories import UserFactory

    login_verified(client, UserFactory(roles=[roles.AUDITOR]))
    for export in ("csv", "pdf"):
        response = client.get("/admin/audit/reports/exceptions/", {"export": export})
        assert response.status_code == 200 and _no_store(response), export


def test_an_endpoint_that_sets_its_own_policy_keeps_it():
    from django.http import HttpResponse
    from django.test import RequestFactory

    from casino.api.middleware import DatabaseUnavailableMiddleware

    def view(request):
        response = HttpResponse("event: x\n\n")
        response["Cache-Control"] = "no-cache"
        return response

    response = DatabaseUnavailableMiddleware(view)(RequestFactory().get("/api/v1/stream/"))
    assert response["Cache-Control"] == "no-cache"
