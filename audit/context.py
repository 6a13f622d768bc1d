"""Who is acting, for audit events recorded by signal handlers that receive no request.

``AuditContextMiddleware`` remembers the current request for the duration of its handling;
handlers of Django's auth and m2m signals ask ``current_actor()``. The actor is resolved when
asked, so DRF authentication (API keys, device tokens) that runs after the middleware counts.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from casino.actors import Actor

_request: ContextVar = ContextVar("audit_request", default=None)
OUTSIDE_A_REQUEST = Actor.system("outside a request")


@contextmanager
def request_context(request):
    token = _request.set(request)
    try:
        yield
    finally:
        _request.reset(token)


def current_actor() -> Actor:
    request = _request.get()
    return Actor.from_request(request) if request is not None else OUTSIDE_A_REQUEST


def client_of(request) -> dict[str, str]:
    """Where a request came from, as recorded with logins (no secrets, bounded length)."""
    if request is None:
        return {}
    meta = getattr(request, "META", {})
    return {
        "ip": meta.get("REMOTE_ADDR", "")[:64],
        "user_agent": meta.get("HTTP_USER_AGENT", "")[:200],
    }


class AuditContextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with request_context(request):
            return self.get_response(request)
