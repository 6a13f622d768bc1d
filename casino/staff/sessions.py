"""Staff session lifetime: an idle timeout and an absolute lifetime (README "Configuration").

The session records when its login completed and when its user last did something; a request
after ``STAFF_IDLE_TIMEOUT_MINUTES`` without activity, or ``STAFF_SESSION_MAX_HOURS`` after
the login, ends the session (logged out, audited) before the view runs. The console's own
background refreshes (``X-Requested-With: fetch``) are not activity: a dashboard left open
does not keep an absent user's session alive.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import logout

from audit.context import client_of
from casino.actors import Actor
from casino.staff import events

STARTED_KEY = "staff_auth_at"
SEEN_KEY = "staff_seen_at"
# Recording every request's time would save the session on every request; a minute's
# precision is plenty for a 15-minute timeout.
SEEN_RESOLUTION_S = 60


def session_start(request, *, now: float | None = None) -> None:
    now = time.time() if now is None else now
    request.session[STARTED_KEY] = now
    request.session[SEEN_KEY] = now


def _expiry_reason(session, now: float) -> str | None:
    started = session.get(STARTED_KEY)
    seen = session.get(SEEN_KEY, started)
    if started is None:
        return "no login time"  # a session from before these limits, or not from our login
    if now - started > settings.STAFF_SESSION_MAX_HOURS * 3600:
        return "absolute lifetime"
    if now - seen > settings.STAFF_IDLE_TIMEOUT_MINUTES * 60:
        return "idle timeout"
    return None


class StaffSessionMiddleware:
    """After AuthenticationMiddleware: ends expired sessions, records activity."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = time.time()
            reason = _expiry_reason(request.session, now)
            if reason is not None:
                events.session_expired(
                    actor=Actor.for_user(user, request_id=getattr(request, "request_id", "")),
                    reason=reason,
                    client=client_of(request),
                )
                logout(request)
            elif request.headers.get("X-Requested-With") != "fetch" and (
                now - request.session.get(SEEN_KEY, 0) >= SEEN_RESOLUTION_S
            ):
                request.session[SEEN_KEY] = now
        return self.get_response(request)
