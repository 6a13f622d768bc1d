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
