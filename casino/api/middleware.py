import logging
import re
import uuid

from django.db import DatabaseError, InterfaceError, OperationalError

from casino.api.problems import problem_response

logger = logging.getLogger(__name__)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class DatabaseUnavailableMiddleware:
    """Gives every request an id, and turns failures into problem details instead of HTML.

    A lost database connection becomes a clean 503 with Retry-After (the transaction was
    rolled back, so nothing is half-written); any other unhandled error under /api/ becomes a
    500 problem that names the request id to quote to support.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        supplied = request.headers.get("X-Request-ID", "")
        request.request_id = supplied if _REQUEST_ID.match(supplied) else uuid.uuid4().hex
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, (OperationalError, InterfaceError)):
            logger.warning("database unavailable: %s", exception)
            response = problem_response(
                status=503,
                code="database-unavailable",
                title="Service unavailable",
                detail="The database is unreachable; nothing was changed. Retry shortly.",
            )
            response["Retry-After"] = "2"
            return response
        if request.path.startswith("/api/"):
            logger.exception("unhandled error in %s", request.path, exc_info=exception)
            kind = "database" if isinstance(exception, DatabaseError) else "server"
            return problem_response(
                status=500,
                code="internal-error",
                title="Internal error",
                detail=f"Unexpected {kind} error; request id {request.request_id}.",
            )
        return None
