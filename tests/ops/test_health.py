"""Liveness, readiness and the protected detailed health."""

import pytest

from casino.api import roles
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db

UNREACHABLE = "amqp://guest:guest@127.0.0.1:1//"


def test_liveness_touches_nothing_and_says_nothing(client):
    response = client.get("/api/v1/health/live/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readiness_checks_database_broker_and_cache(client):
    response = client.get("/api/v1/health/ready/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": {"ok": True},
        "broker": {"ok": True},
        "cache": {"ok": True},
    }


def test_readiness_fails_without_the_broker_while_liveness_holds(client, monkeypatch):
    from casino.celery import app

    # Celery reads CELERY_BROKER_URL from the environment before its own configuration.
    monkeypatch.setattr(app.conf, "broker_url", UNREACHABLE)
    monkeypatch.setenv("CELERY_BROKER_URL", UNREACHABLE)
    ready = client.get("/api/v1/health/ready/")
    assert ready.status_code == 503
    assert ready.json() == {
        "status": "unavailable",
        "database": {"ok": True},
        "broker": {"ok": False},
        "cache": {"ok": True},
    }
    assert client.get("/api/v1/health/live/").status_code == 200


def test_detailed_health_and_metrics_refuse_anonymous_and_other_staff(client_for, settings):
    settings.METRICS_TOKEN = "the-scraper"
    anonymous = client_for("anonymous")
    for path in ("/api/v1/health/detail/", "/api/v1/metrics/"):
        refused = anonymous.get(path)
        assert refused.status_code == 401
        assert refused["Content-Type"] == "application/problem+json"
        assert anonymous.get(path, HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
        assert client_for(roles.PIT_BOSS).get(path).status_code == 403
        assert client_for(roles.OPERATOR_INTEGRATION).get(path).status_code == 401


def test_without_a_token_setting_no_bearer_token_is_accepted(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/api/v1/metrics/", HTTP_AUTHORIZATION="Bearer ").status_code == 401


def test_detailed_health_reports_heartbeats_and_lags_against_thresholds(client, settings):
    from django.contrib.auth.models import User

    from casino.health import heartbeat_write

    heartbeat_write("beat")
    heartbeat_write("worker:casino@node-1")
    login_verified(client, User.objects.create_superuser("ops", password="x"))
    body = client.get("/api/v1/health/detail/").json()
    assert body["beat"]["ok"] is True
    assert body["beat"]["max_s"] == settings.HEALTH_HEARTBEAT_MAX_AGE_S
    assert body["workers"]["casino@node-1"]["ok"] is True
    assert body["seal_lag"]["max_s"] == settings.HEALTH_SEAL_LAG_MAX_S
    assert body["settlement_backlog"]["rounds"] == 0
    assert {"database", "broker", "cache", "audit_verification", "queue_depth"} <= body.keys()

    settings.HEALTH_HEARTBEAT_MAX_AGE_S = -1  # every heartbeat is now too old
    stale = client.get("/api/v1/health/detail/")
    assert stale.status_code == 503 and stale.json()["status"] == "degraded"
    assert stale.json()["beat"]["ok"] is False


def test_another_method_is_a_405_problem(client):
    for path in ("/api/v1/health/live/", "/api/v1/health/ready/", "/api/v1/metrics/"):
        response = client.post(path)
        assert response.status_code == 405
        assert response.json()["type"].endswith("/method-not-allowed")
