"""Audit events of staff authentication beyond Django's own login/logout/failure signals
(those are in audit/events.py): one function per event type."""

from __future__ import annotations

from audit.services import audit_event_record
from casino.actors import Actor

LOCKED_OUT = "auth.locked_out"
MFA_ENROLLED = "auth.mfa_enrolled"
MFA_VERIFIED = "auth.mfa_verified"
SESSION_EXPIRED = "auth.session_expired"


def locked_out(
    *, actor: Actor, username: str, failures: int, cool_off_seconds: int, client: dict
) -> None:
    audit_event_record(
        name=LOCKED_OUT,
        actor=actor,
        payload={
            "username": username,
            "failures": failures,
            "cool_off_seconds": cool_off_seconds,
            "client": client,
        },
    )


def mfa_enrolled(*, actor: Actor, device: str, backup_codes: int, client: dict) -> None:
    audit_event_record(
        name=MFA_ENROLLED,
        actor=actor,
        payload={"device": device, "backup_codes": backup_codes, "client": client},
    )


def mfa_verified(*, actor: Actor, method: str, device: str, client: dict) -> None:
    """The second factor of a login: ``totp``, ``backup`` code or a ``remembered`` device."""
    audit_event_record(
        name=MFA_VERIFIED,
        actor=actor,
        payload={"method": method, "device": device, "client": client},
    )


def session_expired(*, actor: Actor, reason: str, client: dict) -> None:
    """A staff session ended by the idle timeout or the absolute lifetime."""
    audit_event_record(
        name=SESSION_EXPIRED, actor=actor, payload={"reason": reason, "client": client}
    )
