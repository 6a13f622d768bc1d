"""OpenTelemetry tracing, off unless ``OTEL_ENABLED`` (requirements-otel.txt installs the SDK;
nothing here imports it otherwise).

A span per HTTP request (named by its route, with the request id) and per Celery task, the
task's span a child of the request's through the W3C ``traceparent`` message header. The
exporter is the console's (``OTEL_EXPORTER=console``) or OTLP (``otlp``, when
``opentelemetry-exporter-otlp`` is installed); tests pass an in-memory one.
"""

from __future__ import annotations

from django.conf import settings

_provider = None


def tracing_setup(exporter=None):
    """Install the tracer provider once per process; returns it (None when disabled)."""
    global _provider
    if _provider is not None or not (settings.OTEL_ENABLED or exporter is not None):
        return _provider
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    provider = TracerProvider(
        resource=Resource.create({"service.name": settings.OTEL_SERVICE_NAME})
    )
    if exporter is not None:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    elif settings.OTEL_EXPORTER == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    trace.set_tracer_provider(provider)
    _provider = provider
    _celery_connect()
    return provider


def tracing_reset() -> None:
    """Forget the provider (tests)."""
    global _provider
    _provider = None


def _tracer():
    return _provider.get_tracer("casino")


class TracingMiddleware:
    """A server span per request when tracing is on; a no-op otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response
        tracing_setup()

    def __call__(self, request):
        if _provider is None:
            return self.get_response(request)
        from opentelemetry.propagate import extract
        from opentelemetry.trace import SpanKind

        with _tracer().start_as_current_span(
            f"{request.method} {request.path}",
            context=extract(request.headers),
            kind=SpanKind.SERVER,
        ) as span:
            response = self.get_response(request)
            match = request.resolver_match
            if match is not None:
                span.update_name(f"{request.method} {match.route}")
                span.set_attribute("http.route", match.route)
            span.set_attribute("http.request.method", request.method)
            span.set_attribute("http.response.status_code", response.status_code)
            span.set_attribute("casino.request_id", getattr(request, "request_id", ""))
            return response


_task_spans: dict[str, object] = {}


def _celery_connect() -> None:
    from celery import signals

    signals.before_task_publish.connect(_inject, weak=False)
    signals.task_prerun.connect(_task_start, weak=False)
    signals.task_postrun.connect(_task_end, weak=False)


def _inject(headers=None, **kwargs):
    from opentelemetry.propagate import inject

    if headers is not None and _provider is not None:
        inject(headers)


def _task_start(task_id=None, task=None, **kwargs):
    from opentelemetry import context, trace
    from opentelemetry.propagate import extract
    from opentelemetry.trace import SpanKind

    if _provider is None:
        return
    carrier = {k: getattr(task.request, k) for k in ("traceparent", "tracestate")
               if getattr(task.request, k, None)}  # fmt: skip
    span = _tracer().start_span(task.name, context=extract(carrier), kind=SpanKind.CONSUMER)
    token = context.attach(trace.set_span_in_context(span))
    _task_spans[task_id] = (span, token)


def _task_end(task_id=None, **kwargs):
    from opentelemetry import context

    entry = _task_spans.pop(task_id, None)
    if entry is not None:
        span, token = entry
        span.end()
        context.detach(token)
