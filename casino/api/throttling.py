"""Rate limits. Every counter lives in the default cache (settings CACHES: Redis with
CACHE_URL, else a table of the database), so all web processes and nodes share them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from rest_framework.exceptions import Throttled
from rest_framework.throttling import SimpleRateThrottle

from audit.context import client_of
from casino.cache import window_count, window_hits


class PerCredentialThrottle(SimpleRateThrottle):
    """A rate per API key / device / staff user; anonymous callers are limited by address.

    Counted in a window that opens at a credential's first request (``window_count``), not
    by DRF's log of every request's time: that log is read and written whole on each request,
    up to the rate's length (6,000 timestamps a minute for one busy operator key)."""

    scope = "credential"
    cache_format = "rate:%(scope)s:%(ident)s"  # not DRF's key: those hold the old logs

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        count, self.left = window_count(key, self.duration)
        return count <= self.num_requests

    def wait(self) -> float:
        return self.left

    def get_cache_key(self, request, view):
        user = request.user
        if user is not None and user.is_authenticated:
            ident = getattr(user, "throttle_key", None) or f"user:{user.pk}"
        else:
            ident = f"ip:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


# --- Refused bearer credentials -------------------------------------------------------------
# Counted per client address in fixed windows (API_REFUSAL_THROTTLE_RATE, e.g. 20/min): the
# first refusal of a window is audited at once, the rest only counted and summarized in one
# event when the window has closed (casino.api.services.credential_refusals_summarize); past
# the limit a refusal is a 429 instead of a 401. Valid credentials are never slowed down (no
# counter is read for them), even from an address that is being throttled. The counters
# outlive their window by KEPT_WINDOWS so the summary can still read them.
KEPT_WINDOWS = 10
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def refusal_rate() -> tuple[int, int]:
    """(refusals answered 401 per window, window seconds), from e.g. ``20/min``."""
    count, period = settings.API_REFUSAL_THROTTLE_RATE.split("/")
    return int(count), _PERIODS[period[0]]


@dataclass(frozen=True)
class RefusalWindow:
    ip: str
    index: int  # windows since the epoch
    seconds: int

    @classmethod
    def at(cls, ip: str, when: datetime) -> RefusalWindow:
        seconds = refusal_rate()[1]
        return cls(ip=ip, index=int(when.timestamp()) // seconds, seconds=seconds)

    @property
    def start(self) -> datetime:
        return datetime.fromtimestamp(self.index * self.seconds, UTC)

    @property
    def end(self) -> datetime:
        return self.start + timedelta(seconds=self.seconds)

    def key(self, counter: str) -> str:
        return f"refusals:{counter}:{self.seconds}:{self.index}:{self.ip}"

    def count(self) -> int:
        """Add one to the window's refusals; the new count."""
        return window_count(self.key("refused"), self.seconds * KEPT_WINDOWS)[0]

    def as_payload(self) -> dict:
        return {"ip": self.ip, "start": self.start.isoformat(), "seconds": self.seconds}

    @classmethod
    def from_payload(cls, payload: dict) -> RefusalWindow:
        start = datetime.fromisoformat(payload["start"])
        seconds = payload["seconds"]
        return cls(ip=payload["ip"], index=int(start.timestamp()) // seconds, seconds=seconds)


def credential_refusal_count(request) -> RefusalWindow | None:
    """Count a refused credential of the request's address, before anything is recorded: its
    window if it is the window's first (to audit now), None for the rest (summarized later);
    Throttled (429) once the address has used up the window's refusals."""
    now = timezone.now()
    window = RefusalWindow.at(client_of(request).get("ip", ""), now)
    count = window.count()
    if count > refusal_rate()[0]:
        raise Throttled(wait=math.ceil((window.end - now).total_seconds()))
    return window if count == 1 else None


def refusals_in(window: RefusalWindow) -> tuple[int, int] | None:
    """(answered 401, answered 429) in a window, or None once its counter has expired."""
    count = window_hits(window.key("refused"))
    if count is None:
        return None
    limit = refusal_rate()[0]
    return min(count, limit), max(0, count - limit)
