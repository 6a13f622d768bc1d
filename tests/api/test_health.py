import pytest

pytestmark = pytest.mark.django_db


def test_health_reports_database_and_broker(client):
    response = client.get("/api/v1/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True and body["broker"]["ok"] is True


def test_health_is_503_when_broker_is_unreachable(client, settings):
    from casino.celery import app

    original = app.conf.broker_url
    app.conf.broker_url = "amqp://guest:guest@127.0.0.1:1//"
    try:
        app.pool.force_close_all()
        response = client.get("/api/v1/health/")
    finally:
        app.conf.broker_url = original
        app.pool.force_close_all()
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False and body["database"]["ok"] is True
