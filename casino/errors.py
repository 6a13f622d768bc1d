"""Domain errors that every app raises and the API turns into RFC 9457 problem details.

Services raise these; views never build error responses by hand. ``status`` is the HTTP status
the problem maps to and ``code`` becomes the problem ``type`` (``/problems/<code>``).
"""

from contextlib import contextmanager

from django.db import IntegrityError, transaction


class DomainError(Exception):
    status = 400
    code = "bad-request"
    title = "Bad request"

    def __init__(self, detail: str, *, errors: dict[str, list[str]] | None = None):
        super().__init__(detail)
        self.detail = detail
        self.errors = errors or {}


class ValidationFailed(DomainError):
    status = 400
    code = "validation-error"
    title = "Invalid input"


class NotFound(DomainError):
    status = 404
    code = "not-found"
    title = "Not found"


class PermissionDenied(DomainError):
    status = 403
    code = "permission-denied"
    title = "Permission denied"


class FourEyesRequired(PermissionDenied):
    """The second person of a four-eyes rule is the first one (void approval, corrections)."""

    code = "four-eyes-required"
    title = "A second person must approve"


class Conflict(DomainError):
    """The request is valid but the current state forbids it (lost a race, wrong phase)."""

    status = 409
    code = "conflict"
    title = "Conflict"


class Unprocessable(DomainError):
    status = 422
    code = "unprocessable"
    title = "Unprocessable request"


def is_unique_violation(exc: BaseException) -> bool:
    """A database error raised by a unique index (SQLSTATE 23505): a check-then-insert that
    lost its race to a concurrent request."""
    return getattr(getattr(exc, "__cause__", None), "sqlstate", None) == "23505"


@contextmanager
def unique_or(conflict: Conflict):
    """Inserts that raise ``conflict`` when a unique index refuses them: the check before an
    insert cannot see a row a concurrent transaction has not committed yet (a savepoint, so
    the caller's transaction carries on to raise it)."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        if not is_unique_violation(exc):
            raise
        raise conflict from None
