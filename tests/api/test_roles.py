import pytest

from casino.api import roles

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "may_list", "may_issue"),
    [
        (roles.PIT_BOSS, True, False),
        (roles.FLOOR_SUPERVISOR, True, True),
        (roles.DEALER, False, False),
        (roles.AUDITOR, True, False),
        (roles.OPERATOR_INTEGRATION, False, False),
        (roles.DEALER_DEVICE, False, False),
    ],
)
def test_api_key_endpoints_enforce_roles(client_for, operator, role, may_list, may_issue):
    client = client_for(role)
    listing = client.get("/api/v1/api-keys/")
    assert listing.status_code == (200 if may_list else 403)
    issue = client.post(
        "/api/v1/api-keys/", {"operator_id": operator.pk, "label": "x"}, format="json"
    )
    assert issue.status_code == (201 if may_issue else 403)


def test_auditor_is_read_only_everywhere():
    perms = roles.role_permissions(roles.AUDITOR)
    assert perms, "the auditor role has permissions after migrate"
    assert all(p.split(".", 1)[1].startswith("view_") for p in perms)


def test_every_role_group_exists_with_exactly_its_listed_permissions():
    for role, listed in roles.ROLE_PERMISSIONS.items():
        assert roles.role_permissions(role) == frozenset(listed), role


def _dealer_world():
    from rest_framework.test import APIClient

    from tables import services
    from tests.factories import UserFactory, live_table
    from tests.helpers.staff import login_verified
    from tests.tables.conftest import ACTOR

    dealer, elsewhere = UserFactory(roles=[roles.DEALER]), UserFactory(roles=[roles.DEALER])
    table = live_table("traditional", dealer=dealer)
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    clients = {}
    for name, user in (("dealer", dealer), ("elsewhere", elsewhere)):
        clients[name] = APIClient()
        login_verified(clients[name], user)
    return table, rnd, clients


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/tables/{table}/rounds/", None),
        ("/api/v1/tables/{table}/shoes/", {"shuffle_method": "hand"}),
        ("/api/v1/rounds/{round}/close-betting/", None),
        ("/api/v1/rounds/{round}/cards/", {"card": "AS"}),
        ("/api/v1/rounds/{round}/dealer-decisions/", {"action": "stand"}),
    ],
)
def test_a_dealer_runs_rounds_at_their_own_table_only(path, body):
    """The dealer role deals; at a table whose dealer of record is someone else, a dealer is
    refused (it closed another table's betting early). Pit staff deal anywhere."""
    from tables.models import Round

    table, rnd, clients = _dealer_world()
    url = path.format(table=table.pk, round=rnd.pk)
    refused = clients["elsewhere"].post(url, body, format="json")
    assert refused.status_code == 403, refused.content
    assert "not the dealer of record" in refused.json()["detail"]
    assert Round.objects.get(pk=rnd.pk).phase == "open"
    # their own table's dealer gets past the check (to the round's own answer)
    assert clients["dealer"].post(url, body, format="json").status_code != 403


@pytest.mark.parametrize(
    ("role", "answer"),
    [
        (roles.FLOOR_SUPERVISOR, 200),  # may issue keys (POST), and list them (GET)
        (roles.AUDITOR, 200),  # may list them only
        (roles.DEALER, 403),  # may do neither
        (roles.OPERATOR_INTEGRATION, 403),
    ],
)
def test_options_answers_whoever_may_call_one_of_the_endpoints_methods(client_for, role, answer):
    response = client_for(role).options("/api/v1/api-keys/")
    assert response.status_code == answer
    if answer == 200:
        assert {"GET", "POST", "OPTIONS"} <= {m.strip() for m in response["Allow"].split(",")}


def test_options_on_a_post_only_endpoint_is_answered_to_the_role_that_posts(client_for, operator):
    """It was refused to everyone, though its Allow header lists OPTIONS."""
    url = f"/api/v1/operators/{operator.pk}/webhook/"
    answered = client_for(roles.FLOOR_SUPERVISOR).options(url)
    assert answered.status_code == 200, answered.json()
    assert [m.strip() for m in answered["Allow"].split(",")] == ["POST", "OPTIONS"]
    assert client_for(roles.AUDITOR).options(url).status_code == 403
    assert client_for(roles.AUDITOR).get(url).status_code == 405
