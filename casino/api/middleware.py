import logging
import re
import uuid

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.urls import is_valid_path
from django.utils.cache import add_never_cache_headers
from django.views import defaults

from casino.api.problems import bad_request_problem, problem_response
from casino.errors import is_unique_violation

logger = logging.getLogger(__name__)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# Refusals Django answers itself (400, 403, 404 through the handlers in casino/urls.py); the
# catch-all below must not turn them into 500s.
_DJANGO_REFUSALS = (
    Http404,
    PermissionDenied,
    SuspiciousOperation,
    BadRequest,
    MultiPartParserError,
)


class ApiTrailingSlashMiddleware:
    """Either form of an API path: ``/api/v1/wallets/7/deposits`` is served as
    ``/api/v1/wallets/7/deposits/``, whatever the method.

    Django's APPEND_SLASH would answer a GET with a 301 to the slashed path and a POST with a
    301 and an empty body (a client following it re-sends the POST as a GET, its body lost).
    Under /api/ the request is routed to the slashed path instead, before CommonMiddleware
    looks at it; a path that resolves neither way is left to the 404 problem. Both forms are
    the same request to the idempotency fingerprint (it reads the rewritten path).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if (
            path.startswith("/api/")
            and not path.endswith("/")
            and not is_valid_path(path, getattr(request, "urlconf", None))
            and is_valid_path(f"{path}/", getattr(request, "urlconf", None))
        ):
            request.path_info = f"{path}/"
            request.path = f"{request.path}/"
            request.META["PATH_INFO"] = request.path_info
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """Gives every request an id, and turns failures into problem details instead of HTML.

    A NUL byte in the path, a query parameter, a header or a cookie is a 400 before anything
    reads it: PostgreSQL refuses NUL in text and jsonb, so a filter, a session lookup or the
    audit event recording the request would otherwise fail deep inside with a database error.
    Django's own refusals (a bad Host header, an oversized body, malformed multipart) are left
    to Django, whose handlers (casino/urls.py) answer them as problems under /api/.
    A lost database connection becomes a clean 503 with Retry-After (the transaction was
    rolled back, so nothing is half-written); a unique violation (a check-then-insert that lost
    its race) a 409 conflict; any other unhandled error under /api/ becomes a 500 problem that
    names the request id to quote to support.
    An answer under /api/ that sets no Cache-Control is never stored (``no-store``, as
    ``never_cache`` sends): nearly every one is money, a player's data or the audit log, and
    an endpoint left out of a per-view list would otherwise be kept by a browser or a proxy.
    One that wants another policy sets its own (the table event stream sends ``no-cache``).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        supplied = request.headers.get("X-Request-ID", "")
        request.request_id = supplied if _REQUEST_ID.match(supplied) else uuid.uuid4().hex
        if _has_nul(request):
            refusal = BadRequest(
                "The path, a query parameter, a header or a cookie has a NUL byte."
            )
            logger.warning("bad request %s: %s", request.path.replace("\x00", "\\0"), refusal)
            if request.path.startswith("/api/"):
                return bad_request_problem(refusal, request)
            return defaults.bad_request(request, refusal)
        response = self.get_response(request)
        if (
            response.status_code == 405
            and request.path.startswith("/api/")
            and not response.get("Content-Type", "").startswith("application/problem+json")
        ):
            # Django's own 405 (a plain view: the guide, the problem pages) is an empty body.
            allow = response.get("Allow", "")
            response = problem_response(
                status=405,
                code="method-not-allowed",
                title="Method not allowed",
                detail=f"{request.method} is not allowed here; use {allow or 'another method'}.",
                request=request,
            )
            response["Allow"] = allow
        if request.path.startswith("/api/") and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        response["X-Request-ID"] = request.request_id
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, _DJANGO_REFUSALS):
            return None
        if isinstance(exception, (OperationalError, InterfaceError)):
            logger.warning("database unavailable: %s", exception, exc_info=exception)
            response = problem_response(
                status=503,
                code="database-unavailable",
                title="Service unavailable",
                detail="The database is unreachable; nothing was changed. Retry shortly.",
                request=request,
            )
            response["Retry-After"] = "2"
            return response
        if request.path.startswith("/api/") and is_unique_violation(exception):
            # A check-then-insert that lost its race to a concurrent request: the state
            # forbids the second one, as the check would have said a moment later.
            logger.warning("unique violation in %s: %s", request.path, exception)
            return problem_response(
                status=409,
                code="conflict",
                title="Conflict",
                detail="A concurrent request created the same thing first; nothing was changed. "
                "Read it, or retry with other values.",
                request=request,
            )
        if request.path.startswith("/api/"):
            logger.exception("unhandled error in %s", request.path, exc_info=exception)
            kind = "database" if isinstance(exception, DatabaseError) else "server"
            return problem_response(
                status=500,
                code="internal-error",
                title="Internal error",
                detail=f"Unexpected {kind} error; request id {request.request_id}.",
                request=request,
            )
        return None


def _texts(request):
    yield request.path
    for key, values in request.GET.lists():
        yield key
        yield from values
    yield from (value for key, value in request.META.items() if key.startswith("HTTP_"))
    for key, value in request.COOKIES.items():
        yield key
        yield value


def _has_nul(request) -> bool:
    return any("\x00" in text for text in _texts(request))
