"""Login lockout (django-axes): at most ``STAFF_LOCKOUT_FAILURES`` failed logins per username,
then a cool-off that doubles with each further lockout of that username within a day.

Password failures (Django's ``user_login_failed``) and second-factor failures
(``mfa_failure_record``) count alike; a full login (password and second factor) resets the
count. A locked-out username is refused before its password is checked, so attempts during a
lockout neither extend it nor write audit events (the lockout itself is audited once).
"""

from __future__ import annotations

from datetime import timedelta

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.utils import timezone

from audit.models import AuditEvent
from casino.staff import events

PENDING_SESSION_KEY = "staff_mfa_pending"
# The longest cool-off however often a username is locked out.
MAX_COOL_OFF = timedelta(hours=24)


def login_username(request, credentials: dict | None = None) -> str | None:
    """The username a login attempt is for: the credentials, the login form's field, or the
    user waiting for their second factor (AXES_USERNAME_CALLABLE)."""
    if credentials and credentials.get("username"):
        return credentials["username"]
    if request is None:
        return None
    posted = request.POST.get("username") if request.method == "POST" else None
    if posted:
        return posted
    session = getattr(request, "session", None)
    pending = session.get(PENDING_SESSION_KEY) if session is not None else None
    return pending.get("username") if pending else None


def lockouts_recent(username: str | None, *, now=None) -> int:
    if not username:
        return 0
    now = now or timezone.now()
    return AuditEvent.objects.filter(
        name=events.LOCKED_OUT,
        occurred_at__gte=now - MAX_COOL_OFF,
        payload__username=username,
    ).count()


def cool_off_after(lockouts: int) -> timedelta:
    """The cool-off of a username's ``lockouts``-th lockout within a day: the base, doubled
    for every earlier one (backoff), at most a day."""
    base = timedelta(minutes=settings.STAFF_LOCKOUT_MINUTES)
    return min(base * (2 ** max(lockouts - 1, 0)), MAX_COOL_OFF)


def cool_off(request=None) -> timedelta:
    """AXES_COOLOFF_TIME, for the username the request is about."""
    return cool_off_after(lockouts_recent(login_username(request)))


def is_locked_out(request, username: str) -> bool:
    return AxesProxyHandler.is_locked(request, {"username": username})


def lockout_response(request, username: str):
    return get_lockout_response(request, None, {"username": username})


def mfa_failure_record(request, username: str) -> None:
    """A wrong second-factor code counts as a failed login (axes' count and the audit log)."""
    user_login_failed.send(
        sender=__name__, credentials={"username": username, "stage": "mfa"}, request=request
    )
