"""Lockouts (django-axes' ``user_locked_out``) recorded in the audit log."""

from axes.signals import user_locked_out
from django.dispatch import receiver

from audit.context import client_of
from casino.actors import Actor
from casino.staff import events
from casino.staff.lockout import cool_off_after, lockouts_recent


@receiver(user_locked_out, dispatch_uid="staff.locked_out")
def _locked_out(sender, request, username, ip_address, **kwargs):
    failures = getattr(request, "axes_failures_since_start", None)
    if failures is None:
        return  # an attempt refused during a lockout, not the failure that started it
    events.locked_out(
        actor=Actor(
            kind="anonymous",
            id=None,
            label=username or "anonymous",
            request_id=getattr(request, "request_id", ""),
        ),
        username=username or "",
        failures=failures,
        cool_off_seconds=int(cool_off_after(lockouts_recent(username) + 1).total_seconds()),
        client=client_of(request),
    )
