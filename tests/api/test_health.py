import pytest

pytestmark = pytest.mark.django_db


def test_health_reports_database_and_broker(client):
    response = client.get("/api/v1/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True and body["broker"]["ok"] is True


def test_health_is_503_when_broker_is_unreachable(client, monkeypatch):
    from casino.celery import app

    # A real broker URL nothing listens on. Celery reads CELERY_BROKER_URL from the
    # environment before its own configuration, so both are pointed there.
    unreachable = "amqp://guest:guest@127.0.0.1:1//"
    # (Order matters: undone last-first, the configuration is restored to its own value.)
    monkeypatch.setattr(app.conf, "broker_url", unreachable)
    monkeypatch.setenv("CELERY_BROKER_URL", unreachable)
    response = client.get("/api/v1/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False and body["database"]["ok"] is True
