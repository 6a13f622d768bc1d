"""Structured JSON logs (structlog): every line, from web and worker alike, carries the request
id, the actor, the operator, the table and the round it is about, when known.

- ``logging_config`` is the settings' LOGGING: the standard library's loggers (Django's,
  Celery's, ours) render through structlog's ``ProcessorFormatter``, so existing
  ``logging.getLogger(...)`` calls keep working and come out as JSON.
- ``RequestLogContextMiddleware`` binds the request id, the route's table or round and, at
  log time, the authenticated principal (DRF authenticates inside the view).
- Celery: the request id travels in a message header set on publish (``before_task_publish``)
  and is bound again in the worker before the task runs (``task_prerun``), with the task's
  round when its first argument is one (casino/celery.py connects these).
"""

from __future__ import annotations

import contextvars
from typing import Any

import structlog
from django.utils.functional import SimpleLazyObject, empty

REQUEST_ID_HEADER = "casino_request_id"
_request: contextvars.ContextVar[Any] = contextvars.ContextVar("casino_request", default=None)


def _principal(logger, method, event: dict) -> dict:
    """Actor and operator of the request being served, once something authenticated it
    (never triggers authentication or a session read itself)."""
    request = _request.get()
    if request is None or "actor" in event:
        return event
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        user = None if user._wrapped is empty else user._wrapped
    if user is None or not getattr(user, "is_authenticated", False):
        return event
    event["actor"] = user.get_username()
    operator_id = getattr(user, "operator_id", None)
    if operator_id is not None and "operator" not in event:
        event["operator"] = operator_id
    table_id = getattr(user, "table_id", None)
    if table_id is not None and "table" not in event:
        event["table"] = table_id
    return event


def _shared_processors() -> list:
    return [
        structlog.contextvars.merge_contextvars,
        _principal,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def logging_config(*, level: str, fmt: str) -> dict:
    """The LOGGING setting; ``fmt`` is ``json`` (default) or ``console`` (for a terminal)."""
    renderer = (
        structlog.dev.ConsoleRenderer(colors=False)
        if fmt == "console"
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *_shared_processors(),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": structlog.stdlib.ProcessorFormatter,
                "foreign_pre_chain": _shared_processors(),
                "processors": [
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.processors.format_exc_info,
                    renderer,
                ],
            }
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "WARNING"},
            "axes": {"level": "WARNING"},
            # the HTTP client (the generated API client: the demo's players, the tests) logs
            # every request at INFO, a copy of the server's access log
            "httpx": {"level": "WARNING"},
            "httpcore": {"level": "WARNING"},
        },
    }


_ROUTE_IDS = {"round": "round", "table": "table"}


class RequestLogContextMiddleware:
    """Binds the request's id (set by DatabaseUnavailableMiddleware, which runs first) and,
    from the URL, the table or round it is about, for every line logged while serving it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=getattr(request, "request_id", ""))
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)
            structlog.contextvars.clear_contextvars()

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        name = (match.url_name or "") if match else ""
        kind = name.split("-", 1)[0]
        if kind in _ROUTE_IDS and "pk" in view_kwargs:
            structlog.contextvars.bind_contextvars(**{_ROUTE_IDS[kind]: view_kwargs["pk"]})
        return None


def request_id_current() -> str:
    return structlog.contextvars.get_contextvars().get("request_id", "")


# --- Celery ---------------------------------------------------------------------------------


def on_task_publish(headers: dict | None = None, **kwargs) -> None:
    request_id = request_id_current()
    if headers is not None and request_id and REQUEST_ID_HEADER not in headers:
        headers[REQUEST_ID_HEADER] = request_id


def on_task_prerun(task_id: str = "", task=None, args=None, **kwargs) -> None:
    structlog.contextvars.clear_contextvars()
    request = getattr(task, "request", None)
    request_id = getattr(request, REQUEST_ID_HEADER, None) or task_id
    context: dict[str, Any] = {"request_id": request_id, "task": task.name, "task_id": task_id}
    if task.name.startswith("tables.round_") and args:
        context["round"] = args[0]
    structlog.contextvars.bind_contextvars(**context)


def on_task_postrun(**kwargs) -> None:
    structlog.contextvars.clear_contextvars()


def get_logger(name: str):
    return structlog.stdlib.get_logger(name)
