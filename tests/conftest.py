import pytest
from rest_framework.test import APIClient

from casino.actors import Actor
from casino.api import roles
from casino.api.services import api_key_issue, device_token_issue
from tests.factories import OperatorFactory, TableFactory, UserFactory
from tests.helpers.staff import login_verified

STAFF_ROLES = [roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.DEALER, roles.AUDITOR]


@pytest.fixture
def operator(db):
    return OperatorFactory()


@pytest.fixture
def table(db):
    return TableFactory()


@pytest.fixture
def api_key(operator):
    """An operator's API key and its raw secret."""
    return api_key_issue(actor=Actor.system("tests"), operator=operator, label="integration")


@pytest.fixture
def device_token(table):
    return device_token_issue(actor=Actor.system("tests"), table=table, device_id="reader-1")


def bearer_client(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def staff_client(role: str) -> APIClient:
    client = APIClient()
    login_verified(client, UserFactory(roles=[role]))
    return client


@pytest.fixture
def client_for(api_key, device_token):
    """An authenticated API client for a role name (staff roles, operator key, device)."""

    def make(role: str) -> APIClient:
        if role == roles.OPERATOR_INTEGRATION:
            return bearer_client(api_key[1])
        if role == roles.DEALER_DEVICE:
            return bearer_client(device_token[1])
        if role == "anonymous":
            return APIClient()
        return staff_client(role)

    return make
