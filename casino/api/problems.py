"""RFC 9457 problem details: the single error format of every 4xx and 5xx the API returns."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import BadRequest, DisallowedHost, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import set_rollback

from casino.errors import DomainError

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "https://casino.example/problems/"


def problem_body(
    *, status: int, code: str, title: str, detail: str, errors: list[dict] | None = None
) -> dict:
    body = {"type": TYPE_BASE + code, "title": title, "status": status, "detail": detail}
    if errors:
        body["errors"] = errors
    return body


def _flatten(detail, path: str = "") -> list[dict]:
    """DRF's nested validation errors as a flat list of {field, message}."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            field = key if key != "non_field_errors" else ""
            out.extend(_flatten(value, f"{path}.{field}" if path and field else (field or path)))
        return out
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return [{"field": path, "message": str(item)} for item in detail]
        out = []
        for index, item in enumerate(detail):
            out.extend(_flatten(item, f"{path}[{index}]"))
        return out
    return [{"field": path, "message": str(detail)}]


_DRF_CODES = {
    drf.ValidationError: ("validation-error", "Invalid input"),
    drf.ParseError: ("malformed-request", "Malformed request"),
    drf.AuthenticationFailed: ("authentication-failed", "Authentication failed"),
    drf.NotAuthenticated: ("not-authenticated", "Authentication required"),
    drf.PermissionDenied: ("permission-denied", "Permission denied"),
    drf.NotFound: ("not-found", "Not found"),
    drf.MethodNotAllowed: ("method-not-allowed", "Method not allowed"),
    drf.NotAcceptable: ("not-acceptable", "Not acceptable"),
    drf.UnsupportedMediaType: ("unsupported-media-type", "Unsupported media type"),
    drf.Throttled: ("throttled", "Too many requests"),
}


def problem_exception_handler(exc, context):
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()

    if isinstance(exc, DomainError):
        set_rollback()
        errors = [
            {"field": field, "message": message}
            for field, messages in exc.errors.items()
            for message in messages
        ]
        body = problem_body(
            status=exc.status, code=exc.code, title=exc.title, detail=exc.detail, errors=errors
        )
        return Response(body, status=exc.status, content_type=PROBLEM_CONTENT_TYPE)

    if not isinstance(exc, drf.APIException):
        return None  # an unexpected error: the middleware answers it as a 500 problem

    code, title = next(
        (value for cls, value in _DRF_CODES.items() if isinstance(exc, cls)),
        ("error", "Error"),
    )
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    if isinstance(exc, drf.ValidationError):
        errors = _flatten(exc.detail)
        detail = "; ".join(
            f"{e['field']}: {e['message']}" if e["field"] else e["message"] for e in errors
        )
    else:
        errors = None
        detail = str(exc.detail)
    set_rollback()
    body = problem_body(
        status=exc.status_code, code=code, title=title, detail=detail, errors=errors
    )
    return Response(
        body, status=exc.status_code, headers=headers, content_type=PROBLEM_CONTENT_TYPE
    )


def problem_response(*, status: int, code: str, title: str, detail: str) -> JsonResponse:
    """A problem response outside DRF (middleware, Django's error handlers)."""
    return JsonResponse(
        problem_body(status=status, code=code, title=title, detail=detail),
        status=status,
        content_type=PROBLEM_CONTENT_TYPE,
    )


def bad_request_problem(exception) -> JsonResponse:
    """Django's own refusals of a request (``handler400``): an oversized body is 413, the rest
    (a bad Host header, malformed multipart, too many fields, a NUL byte...) are 400."""
    if isinstance(exception, RequestDataTooBig):
        return problem_response(
            status=413,
            code="request-too-large",
            title="Request too large",
            detail=f"The request body exceeds {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.",
        )
    if isinstance(exception, DisallowedHost):
        detail = "The Host header names a host this server does not serve."
    elif isinstance(exception, BadRequest):  # raised by our own code with a reason to show
        detail = str(exception)
    else:
        detail = "The request is malformed."
    return problem_response(status=400, code="bad-request", title="Bad request", detail=detail)
