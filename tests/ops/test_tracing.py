"""OpenTelemetry tracing: off by default, a span per request once enabled."""

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from casino import tracing

pytestmark = pytest.mark.django_db


def test_tracing_is_off_by_default(settings):
    assert settings.OTEL_ENABLED is False
    assert tracing.tracing_setup() is None


def test_enabled_tracing_records_a_span_per_request_named_by_route(client, settings):
    exporter = InMemorySpanExporter()
    settings.OTEL_ENABLED = True
    try:
        tracing.tracing_setup(exporter=exporter)
        response = client.get("/api/v1/health/live/", HTTP_X_REQUEST_ID="trace-me")
    finally:
        tracing.tracing_reset()
    assert response.status_code == 200
    (span,) = exporter.get_finished_spans()
    assert span.name == "GET api/v1/health/live/"
    assert span.attributes["http.response.status_code"] == 200
    assert span.attributes["casino.request_id"] == "trace-me"
