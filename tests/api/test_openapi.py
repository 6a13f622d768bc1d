"""The OpenAPI contract: the schema validates, and a fuzzer finds no 5xx and no schema breach.

The fuzz test exercises every operation of the schema as every role, so it grows by itself as
endpoints are added. FUZZ_EXAMPLES sets the examples per operation and role (default 15).
"""

import os
import secrets

import pytest
import schemathesis
from django.core.management import call_command
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from casino.api import roles
from casino.api.permissions import RolePermission
from casino.wsgi import application
from tests.factories import UserFactory
from tests.helpers.staff import session_mark_verified
from tests.helpers.streams import streamed_content

ROLES = [
    roles.PIT_BOSS,
    roles.FLOOR_SUPERVISOR,
    roles.DEALER,
    roles.AUDITOR,
    roles.OPERATOR_INTEGRATION,
    roles.DEALER_DEVICE,
    "anonymous",
]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def test_schema_validates_cleanly(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "/api/v1/health/" in out.read_text()


def test_docs_and_schema_are_served(client):
    assert client.get("/api/v1/schema/").status_code == 200
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_swagger_ui_is_served_from_here_without_a_cdn(client):
    """The docs page works on an isolated network: every asset it loads is ours, and served."""
    import re

    page = client.get("/api/v1/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets), assets
    assert not re.search(r"https?://", page.replace("http://www.w3.org", "")), "an external URL"
    for asset in assets:
        assert asset.startswith("/static/"), asset
        response = client.get(asset)
        assert response.status_code == 200, asset
        streamed_content(response)  # static files: read to the end


api_schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


@pytest.fixture
def keep_test_connection():
    """As django.test.Client does: the raw WSGI app must not close the test's connection."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def credentials(role, api_key, device_token):
    """Headers and cookies that authenticate the requests of one role."""
    if role == roles.OPERATOR_INTEGRATION:
        return {"Authorization": f"Bearer {api_key[1]}"}, {}
    if role == roles.DEALER_DEVICE:
        return {"Authorization": f"Bearer {device_token[1]}"}, {}
    if role == "anonymous":
        return {}, {}
    from django.contrib.sessions.backends.db import SessionStore

    user = UserFactory(roles=[role])
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session_mark_verified(session, user)
    session.create()
    csrf = secrets.token_hex(16)
    return {"X-CSRFToken": csrf}, {"sessionid": session.session_key, "csrftoken": csrf}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@api_schema.parametrize()
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "15")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_as_every_role(case, role, credentials, keep_test_connection):
    key = (case.operation.label, role)
    if _refusals.get(key, 0) >= REFUSALS_ENOUGH:
        return
    headers, cookies = credentials
    response = case.call_and_validate(headers=headers, cookies=cookies, checks=CHECKS)
    if _refused_by_role(response):
        _refusals[key] = _refusals.get(key, 0) + 1


# A role without the permission (or an anonymous caller) is refused before the input is read,
# whatever the input: after a few such answers (each validated against the schema) the
# remaining examples of that operation and role would only repeat them, so they are not sent.
REFUSALS_ENOUGH = 3
_refusals: dict[tuple[str, str], int] = {}


def _refused_by_role(response) -> bool:
    if response.status_code not in (401, 403):
        return False
    body = response.json()
    return response.status_code == 401 or body.get("detail") == RolePermission.message


@pytest.mark.parametrize("role", [roles.FLOOR_SUPERVISOR])
def test_fuzzer_credentials_reach_the_views(role, credentials, keep_test_connection, operator):
    """The fuzzer's staff session and CSRF token pass: its POSTs reach the views, not a 403."""
    from django.test import Client

    headers, cookies = credentials
    client = Client(enforce_csrf_checks=True)
    for name, value in cookies.items():
        client.cookies[name] = value
    response = client.post(
        "/api/v1/api-keys/",
        {"operator_id": operator.pk, "label": "fuzz"},
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 201, response.content
