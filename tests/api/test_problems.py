import pytest

from casino.api import roles

pytestmark = pytest.mark.django_db


def _assert_problem(response, status: int, code: str):
    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status
    assert body["type"].endswith(f"/problems/{code}")
    assert body["title"] and body["detail"]
    return body


def test_unauthenticated_request_is_a_401_problem(client_for):
    response = client_for("anonymous").get("/api/v1/api-keys/")
    _assert_problem(response, 401, "not-authenticated")


def test_bad_bearer_credential_is_401_with_challenge(client_for):
    from tests.conftest import bearer_client

    response = bearer_client("ck_000000000000_wrong").get("/api/v1/me/")
    _assert_problem(response, 401, "authentication-failed")
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_validation_errors_name_each_field(client_for):
    response = client_for(roles.FLOOR_SUPERVISOR).post(
        "/api/v1/api-keys/", {"operator_id": "abc"}, format="json"
    )
    body = _assert_problem(response, 400, "validation-error")
    fields = {error["field"] for error in body["errors"]}
    assert fields == {"operator_id", "label"}


def test_malformed_json_is_a_400_problem(client_for):
    response = client_for(roles.FLOOR_SUPERVISOR).post(
        "/api/v1/api-keys/", "{not json", content_type="application/json"
    )
    _assert_problem(response, 400, "malformed-request")


def test_unknown_api_path_is_a_404_problem(client):
    _assert_problem(client.get("/api/v1/no-such-thing/"), 404, "not-found")


def test_missing_object_is_a_404_problem(client_for):
    response = client_for(roles.FLOOR_SUPERVISOR).post(
        "/api/v1/api-keys/999999/revoke/", {"reason": "x"}, format="json"
    )
    _assert_problem(response, 404, "not-found")
