"""RFC 9457 problem details: the single error format of every 4xx and 5xx the API returns.

Every problem carries its ``type`` (a URL the product serves: a page documenting that problem,
``/api/v1/problems/<code>``), ``title``, ``status`` and ``detail``, and besides them the
machine ``code`` (the type's last segment), the ``request_id`` to quote to support (the
``X-Request-ID`` header's value) and, where one input is at fault, ``param``: the body field,
query parameter or header that is (``errors`` lists every one).

The registry (``problem_registry``) is every problem type the API can answer with: the
platform's own (``PLATFORM_PROBLEMS``) and every ``DomainError`` subclass of every app. The
problem pages and the OpenAPI schema are generated from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from inspect import cleandoc

from django.conf import settings
from django.core.exceptions import BadRequest, DisallowedHost, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import set_rollback

from casino.errors import DomainError

PROBLEM_CONTENT_TYPE = "application/problem+json"
# Where the problem pages are served (casino/urls.py): a problem's ``type`` is this plus its
# code, made absolute against the request's own origin.
TYPE_BASE = "/api/v1/problems/"


@dataclass(frozen=True)
class ProblemType:
    code: str
    status: int
    title: str
    description: str
    # The type an operation's documentation shows for its status when nothing more specific
    # applies (one per status).
    generic: bool = False


PLATFORM_PROBLEMS = (
    ProblemType(
        "validation-error",
        400,
        "Invalid input",
        "A body field, query parameter or header is missing or invalid. `param` names the "
        "first; `errors` lists each one with its message.",
        generic=True,
    ),
    ProblemType(
        "malformed-request",
        400,
        "Malformed request",
        "The body is not JSON the API accepts (not JSON at all, or nested too deep).",
    ),
    ProblemType(
        "bad-request",
        400,
        "Bad request",
        "The request itself is refused before any endpoint reads it: a NUL byte in the path, "
        "a query parameter, a header or a cookie; a bad Host header; malformed multipart.",
    ),
    ProblemType(
        "not-authenticated",
        401,
        "Authentication required",
        "No credentials were sent: an operator's API key or a device token as a Bearer token, "
        "or a staff session that passed its second factor.",
        generic=True,
    ),
    ProblemType(
        "authentication-failed",
        401,
        "Authentication failed",
        "The credentials sent are unknown, revoked, expired or used from an address they are "
        "not allowed from.",
    ),
    ProblemType(
        "permission-denied",
        403,
        "Permission denied",
        "The caller is authenticated, but its role or its credential's scope does not allow "
        "this operation. Each operation's description names the roles allowed.",
        generic=True,
    ),
    ProblemType(
        "not-found",
        404,
        "Not found",
        "No such endpoint, or no such object visible to this caller (another operator's "
        "objects do not exist for an operator's key).",
        generic=True,
    ),
    ProblemType(
        "method-not-allowed",
        405,
        "Method not allowed",
        "The endpoint does not offer this HTTP method; the `Allow` header lists the ones it "
        "does. Checked after authentication and before the caller's role.",
        generic=True,
    ),
    ProblemType(
        "not-acceptable",
        406,
        "Not acceptable",
        "The Accept header asks for a format the API does not produce (JSON only).",
        generic=True,
    ),
    ProblemType(
        "conflict",
        409,
        "Conflict",
        "The request is valid, but the current state forbids it (a duplicate, a phase, a "
        "request with the same Idempotency-Key still in flight). Retrying the same request "
        "later may succeed.",
        generic=True,
    ),
    ProblemType(
        "request-too-large",
        413,
        "Request too large",
        "The request body exceeds the size the API accepts.",
        generic=True,
    ),
    ProblemType(
        "unsupported-media-type",
        415,
        "Unsupported media type",
        "The body is not sent as application/json.",
        generic=True,
    ),
    ProblemType(
        "unprocessable",
        422,
        "Unprocessable request",
        "A rule forbids the request (or its Idempotency-Key was already used for a different "
        "request).",
        generic=True,
    ),
    ProblemType(
        "throttled",
        429,
        "Too many requests",
        "Rate limited: wait the number of seconds the Retry-After header gives.",
        generic=True,
    ),
    ProblemType(
        "internal-error",
        500,
        "Internal error",
        "An unexpected error; nothing was half-written (the work ran in one transaction). "
        "Quote the `request_id` to support.",
        generic=True,
    ),
    ProblemType(
        "database-unavailable",
        503,
        "Service unavailable",
        "The database is unreachable; nothing was changed. Retry after the seconds the "
        "Retry-After header gives.",
        generic=True,
    ),
)


def _domain_errors(cls=DomainError):
    yield cls
    for sub in cls.__subclasses__():
        yield from _domain_errors(sub)


@cache
def problem_registry() -> dict[str, ProblemType]:
    """Every problem type, by code: the platform's and every app's ``DomainError``s (the URL
    configuration is loaded first, so every app's errors module is imported)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view, so every errors module
    registry = {problem.code: problem for problem in PLATFORM_PROBLEMS}
    for cls in _domain_errors():
        if cls.code in registry:
            continue
        doc = cls.__doc__ if "__doc__" in vars(cls) and cls.__doc__ else ""
        registry[cls.code] = ProblemType(
            code=cls.code,
            status=cls.status,
            title=cls.title,
            description=" ".join(cleandoc(doc).split()) or f"{cls.title}.",
        )
    return registry


def generic_problem(status: int) -> ProblemType:
    """The problem type documented for ``status`` when nothing more specific applies."""
    return next(p for p in PLATFORM_PROBLEMS if p.status == status and p.generic)


def problem_type_url(code: str, request=None) -> str:
    path = f"{TYPE_BASE}{code}"
    if request is None:
        return path
    try:
        return request.build_absolute_uri(path)
    except DisallowedHost:  # the problem is that very Host header: a path on its own then
        return path


def problem_body(
    *,
    status: int,
    code: str,
    title: str,
    detail: str,
    errors: list[dict] | None = None,
    param: str | None = None,
    request=None,
) -> dict:
    body = {
        "type": problem_type_url(code, request),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if param is None and errors:
        param = next((e["field"] for e in errors if e["field"]), None)
    if param:
        body["param"] = param
    request_id = getattr(request, "request_id", None)
    if request_id:
        body["request_id"] = request_id
    if errors:
        body["errors"] = errors
    return body


def _flatten(detail, path: str = "") -> list[dict]:
    """DRF's nested validation errors as a flat list of {field, message}."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            if isinstance(key, int):  # a ListField's errors are keyed by the item's index
                out.extend(_flatten(value, f"{path}[{key}]"))
                continue
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
            status=exc.status,
            code=exc.code,
            title=exc.title,
            detail=exc.detail,
            errors=errors,
            request=context.get("request"),
        )
        return Response(body, status=exc.status, content_type=PROBLEM_CONTENT_TYPE)

    if not isinstance(exc, drf.APIException):
        return None  # an unexpected error: the middleware answers it as a 500 problem

    code, title = next(
        (value for cls, value in _DRF_CODES.items() if isinstance(exc, cls)), (None, None)
    )
    if code is None:  # an APIException of no class above: the generic type of its status
        generic = next((p for p in PLATFORM_PROBLEMS if p.status == exc.status_code), None)
        code, title = (generic.code, generic.title) if generic else ("internal-error", "Error")
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
        status=exc.status_code,
        code=code,
        title=title,
        detail=detail,
        errors=errors,
        request=context.get("request"),
    )
    return Response(
        body, status=exc.status_code, headers=headers, content_type=PROBLEM_CONTENT_TYPE
    )


def problem_response(
    *, status: int, code: str, title: str, detail: str, request=None, param: str | None = None
) -> JsonResponse:
    """A problem response outside DRF (middleware, Django's error handlers)."""
    return JsonResponse(
        problem_body(
            status=status, code=code, title=title, detail=detail, request=request, param=param
        ),
        status=status,
        content_type=PROBLEM_CONTENT_TYPE,
    )


def bad_request_problem(exception, request=None) -> JsonResponse:
    """Django's own refusals of a request (``handler400``): an oversized body is 413, the rest
    (a bad Host header, malformed multipart, too many fields, a NUL byte...) are 400."""
    if isinstance(exception, RequestDataTooBig):
        return problem_response(
            status=413,
            code="request-too-large",
            title="Request too large",
            detail=f"The request body exceeds {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.",
            request=request,
        )
    if isinstance(exception, DisallowedHost):
        detail = "The Host header names a host this server does not serve."
    elif isinstance(exception, BadRequest):  # raised by our own code with a reason to show
        detail = str(exception)
    else:
        detail = "The request is malformed."
    return problem_response(
        status=400, code="bad-request", title="Bad request", detail=detail, request=request
    )
