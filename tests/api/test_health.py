import time

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


def test_the_broker_is_connected_to_at_most_once_a_second_per_process(
    client, monkeypatch, settings
):
    """A load balancer probing every 50 ms costs the broker one connection per process and
    second; the outcome reported in between is the last one, per broker URL."""
    from casino import health

    settings.HEALTH_BROKER_CHECK_EVERY_S = 1
    monkeypatch.setattr(health, "_broker_seen", {})
    connects = []
    real = health._broker_connect
    monkeypatch.setattr(health, "_broker_connect", lambda: connects.append(1) or real())
    clock = [1000.0]
    monkeypatch.setattr(health, "_clock", lambda: clock[0])
    for _ in range(5):
        assert client.get("/api/v1/health/").status_code == 200
    assert len(connects) == 1
    clock[0] += 1.0
    assert client.get("/api/v1/health/").status_code == 200
    assert len(connects) == 2

    from casino.celery import app

    unreachable = "amqp://guest:guest@127.0.0.1:1//"  # another broker: checked at once
    monkeypatch.setattr(app.conf, "broker_url", unreachable)
    monkeypatch.setenv("CELERY_BROKER_URL", unreachable)
    for _ in range(3):
        response = client.get("/api/v1/health/")
        assert response.status_code == 503 and response.json()["broker"]["ok"] is False
    assert len(connects) == 3


def test_a_remembered_broker_check_reports_its_measured_latency_and_age(monkeypatch, settings):
    """Between connections the report is the last connection's: its latency as measured then
    (not the time it took to look the outcome up) and how many seconds ago it was made."""
    from casino import health

    settings.HEALTH_BROKER_CHECK_EVERY_S = 1
    monkeypatch.setattr(health, "_broker_seen", {})
    clock = [1000.0]
    monkeypatch.setattr(health, "_clock", lambda: clock[0])
    monkeypatch.setattr(health, "_broker_connect", lambda: time.sleep(0.05))
    first = health.readiness()["broker"]
    assert first["ok"] is True and first["latency_ms"] >= 50 and first["checked_s_ago"] == 0
    clock[0] += 0.75
    again = health.readiness()["broker"]
    assert again == {**first, "checked_s_ago": 0.75}
    assert health.readiness_public()["broker"] == {"ok": True}  # anonymous: only ok
