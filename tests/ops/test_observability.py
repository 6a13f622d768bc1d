"""A round played through the API with a real worker: the metrics it leaves, and the JSON log
lines of the web request and of the worker that settled it."""

from __future__ import annotations

import io
import json
import logging

import pytest
import structlog

from casino.api import roles
from conftest import wait_until
from ledger.services import operator_webhook_set
from tables.models import Round
from tests.factories import funded_player, live_table
from tests.ledger.receivers import Receiver
from tests.tables.conftest import ACTOR

pytestmark = pytest.mark.django_db(transaction=True)
TOKEN = "scraper-token-for-tests"


@pytest.fixture
def table(db):
    return live_table("british_casino")


@pytest.fixture
def log_lines():
    """What the process logs, rendered by the configured JSON formatter."""
    root = logging.getLogger()
    formatter = next(
        h.formatter
        for h in root.handlers
        if isinstance(h.formatter, structlog.stdlib.ProcessorFormatter)
    )
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(formatter)
    root.addHandler(handler)
    yield lambda: _json_lines(buffer.getvalue().splitlines())
    root.removeHandler(handler)


def _json_lines(lines) -> list[dict]:
    parsed = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            parsed.append(value)
    return parsed


def _post(client, url, data=None, *, key="", request_id=""):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    if request_id:
        headers["HTTP_X_REQUEST_ID"] = request_id
    return client.post(url, data or {}, format="json", **headers)


def _samples(text: str) -> dict[str, float]:
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def test_a_played_round_leaves_metrics_and_correlated_logs(
    client_for, table, operator, settings, celery_worker, webhook_worker, log_lines
):
    settings.METRICS_TOKEN = TOKEN
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    device = client_for(roles.DEALER_DEVICE)
    integration = client_for(roles.OPERATOR_INTEGRATION)
    player = funded_player(operator=operator)
    with Receiver() as receiver:
        operator_webhook_set(actor=ACTOR, operator=operator, url=receiver.url)
        rid = _post(device, f"/api/v1/tables/{table.pk}/rounds/").json()["id"]
        bet = {"player_id": player.pk, "box": 1, "stake": 1000}
        placed = _post(
            integration, f"/api/v1/rounds/{rid}/bets/", bet, key="b1", request_id="bet-req-1"
        )
        assert placed.status_code == 201, placed.json()
        too_big = {**bet, "box": 2, "stake": 10**9}
        refused = _post(integration, f"/api/v1/rounds/{rid}/bets/", too_big, key="b2")
        assert refused.status_code >= 400
        reason = refused.json()["type"].rsplit("/", 1)[-1]
        assert _post(device, f"/api/v1/rounds/{rid}/close-betting/").status_code == 200
        # Box 1 gets 10 + 9 and stands; the dealer draws 9 and 8: 17, the box wins.
        for card in ["TS", "9C", "9H"]:
            assert _post(device, f"/api/v1/rounds/{rid}/cards/", {"card": card}).status_code == 200
        stand = {"player_id": player.pk, "action": "stand"}
        assert (
            _post(integration, f"/api/v1/rounds/{rid}/decisions/", stand, key="s").status_code
            == 200
        )
        last = _post(
            device, f"/api/v1/rounds/{rid}/cards/", {"card": "8S"}, request_id="deal-req-9"
        )
        assert last.status_code == 200, last.json()
        wait_until(
            lambda: Round.objects.get(pk=rid).phase == "settled", timeout=60,
            message="the worker did not settle the round",
        )  # fmt: skip
        wait_until(lambda: receiver.requests, timeout=60, message="no webhook delivered")

        anonymous = client_for("anonymous").get("/api/v1/metrics/")
        assert anonymous.status_code == 401
        assert client_for(roles.PIT_BOSS).get("/api/v1/metrics/").status_code == 403
        scraped = client_for("anonymous").get(
            "/api/v1/metrics/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}"
        )
        assert scraped.status_code == 200
        samples = _samples(scraped.content.decode())
        wait_until(
            lambda: _webhook_ok(client_for, operator.pk), timeout=30,
            message="the webhook attempt is not counted",
        )  # fmt: skip

    route = "api/v1/rounds/<int:pk>/bets/"
    assert samples[f'casino_http_requests_total{{method="POST",route="{route}",status="201"}}'] >= 1
    assert f'casino_http_request_duration_seconds_count{{method="POST",route="{route}"}}' in samples
    assert samples['casino_bets_total{outcome="accepted",reason=""}'] >= 1
    assert samples[f'casino_bets_total{{outcome="refused",reason="{reason}"}}'] >= 1
    assert samples["casino_settlement_latency_seconds_count"] >= 1
    assert samples["casino_settlement_backlog"] == 0
    assert samples['casino_timers_overdue{timer="decision"}'] == 0
    assert f'casino_celery_queue_depth{{queue="{celery_worker.queue}"}}' in samples
    assert "casino_audit_seal_lag_seconds" in samples
    assert "casino_audit_verification_ok" in samples
    assert "casino_stream_subscribers" in samples

    bet_line = next(line for line in log_lines() if line.get("event") == "bet accepted")
    assert bet_line["request_id"] == "bet-req-1"
    assert bet_line["round"] == rid and bet_line["operator"] == operator.pk
    assert bet_line["actor"].startswith("api_key:")
    settled_line = next(
        line for line in _json_lines(celery_worker.output) if line.get("event") == "round settled"
    )
    # The settlement task carries the request id of the request that ended the round, and
    # names the round the bet's line names.
    assert settled_line["request_id"] == "deal-req-9"
    assert settled_line["round"] == bet_line["round"] == rid
    assert settled_line["table"] == table.pk and settled_line["task"] == "tables.round_settle"


def _webhook_ok(client_for, operator_id: int) -> bool:
    scraped = client_for("anonymous").get("/api/v1/metrics/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    name = f'casino_webhook_attempts_total{{operator="{operator_id}",result="ok"}}'
    return _samples(scraped.content.decode()).get(name, 0) >= 1
