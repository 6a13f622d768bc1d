"""Endpoints for orchestrators and the metrics scraper (README "Operating it").

- ``health/live/``: anonymous, no dependency touched: the process answers.
- ``health/ready/``: anonymous, database, broker and cache reachable (503 otherwise); says
  which part failed, never why (no error text, no internals).
- ``health/detail/`` and ``metrics/``: a staff superuser's session or the scraper's bearer
  token (``METRICS_TOKEN``); anyone else gets a 401 or 403 problem.
"""

from __future__ import annotations

import functools
import hmac

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from casino import health
from casino.api.problems import problem_response


def get_only(view):
    """GET and HEAD only; another method is a 405 problem like the rest of the API's (no
    CSRF check first: nothing here changes anything)."""

    @csrf_exempt
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            response = problem_response(
                status=405, code="method-not-allowed", title="Method not allowed",
                detail=f"{request.method} is not allowed here; use GET.",
                request=request,
            )  # fmt: skip
            response["Allow"] = "GET, HEAD"
            return response
        return view(request, *args, **kwargs)

    return wrapper


def _allowed(request) -> HttpResponse | None:
    """None when the caller may read operational detail, else the refusal."""
    token = settings.METRICS_TOKEN
    supplied = request.headers.get("Authorization", "")
    presented = supplied.removeprefix("Bearer ").encode()
    if token and supplied.startswith("Bearer ") and hmac.compare_digest(presented, token.encode()):
        return None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        if user.is_active and user.is_staff and user.is_superuser:
            return None
        return problem_response(
            status=403, code="permission-denied", title="Permission denied",
            detail="Operational detail is for superusers and the metrics scraper.",
            request=request,
        )  # fmt: skip
    return problem_response(
        status=401, code="not-authenticated", title="Authentication required",
        detail="Send the metrics token as a bearer token, or sign in as a superuser.",
        request=request,
    )  # fmt: skip


@get_only
def live(request):
    return JsonResponse({"status": "ok"})


@get_only
def ready(request):
    report = health.readiness_public()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


@get_only
def detail(request):
    refusal = _allowed(request)
    if refusal is not None:
        return refusal
    report = health.detailed()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


@get_only
def metrics(request):
    refusal = _allowed(request)
    if refusal is not None:
        return refusal
    from casino.metrics import metrics_exposition

    body, content_type = metrics_exposition()
    return HttpResponse(body, content_type=content_type)
