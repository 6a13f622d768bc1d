"""Staff API tokens: personal, role-bound, expiring, revocable credentials for scripting pit
work (void requests and approvals, reads) without a browser session.

- Minted only from a console session that passed the second factor (``casino/staff/mfa.py``):
  not from an API key, a device token or another staff token.
- Bound to one role the owner holds when minting it; it acts with that role only, and stops
  working when the owner is deactivated or loses the role.
- Expiring: at most ``API_STAFF_TOKEN_LIFETIME_HOURS`` (default and longest); revocable by its
  owner (with a session or the token itself). Scopes narrow it further (default read + pit).
- Issue and revocation are audited (``staff_token.issued`` / ``staff_token.revoked``);
  requests made with it are attributed to the owner, as a session's are, so four-eyes rules
  (a void's requester may not approve it) hold across two people whatever credentials one
  person holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit.services import audit_event_record
from casino.actors import Actor
from casino.api.credentials import credential_mint, networks_normalize
from casino.api.models import Scope, StaffToken
from casino.api.roles import DEALER_DEVICE, OPERATOR_INTEGRATION
from casino.errors import Conflict, NotFound, PermissionDenied, ValidationFailed

STAFF_TOKEN_SCOPES = (Scope.READ, Scope.PIT)
# Roles that belong to credentials, never to a person's token.
_NOT_STAFF_ROLES = {OPERATOR_INTEGRATION, DEALER_DEVICE}


def staff_token_lifetime() -> timedelta:
    return timedelta(hours=settings.API_STAFF_TOKEN_LIFETIME_HOURS)


def staff_token_list(*, user) -> list[StaffToken]:
    """The owner's tokens, newest first (no secret: only its hash is stored)."""
    return StaffToken.objects.filter(user=user).order_by("-id")


def staff_token_issue(
    *,
    actor: Actor,
    user,
    role: str,
    label: str,
    scopes: Iterable[str] | None = None,
    allowed_networks: Iterable[str] = (),
    expires_at: datetime | None = None,
) -> tuple[StaffToken, str]:
    """A new token for ``user`` acting as ``role`` (one of the user's groups); the raw secret
    is returned once. The caller checks that the request came from a verified session."""
    if role in _NOT_STAFF_ROLES or not user.groups.filter(name=role).exists():
        raise PermissionDenied(f"You do not hold the role {role!r}; a token can only narrow.")
    errors: dict[str, list[str]] = {}
    scopes = set(STAFF_TOKEN_SCOPES if scopes is None else scopes)
    if not scopes or not scopes <= set(Scope.values):
        errors["scopes"] = [f"Name one or more of {', '.join(Scope.values)}."]
    try:
        networks = networks_normalize(allowed_networks)
    except ValueError as exc:
        errors["allowed_networks"] = [str(exc)]
    now = timezone.now()
    latest = now + staff_token_lifetime()
    if expires_at is None:
        expires_at = latest
    elif expires_at <= now:
        errors["expires_at"] = ["Must be in the future."]
    elif expires_at > latest:
        errors["expires_at"] = [
            f"At most {settings.API_STAFF_TOKEN_LIFETIME_HOURS} hours from now "
            f"({latest.isoformat(timespec='seconds')})."
        ]
    if errors:
        raise ValidationFailed(
            "; ".join(f"{field}: {m}" for field, ms in errors.items() for m in ms), errors=errors
        )
    raw, prefix, secret_hash = credential_mint(kind="st")
    with transaction.atomic():
        token = StaffToken.objects.create(
            user=user,
            role=role,
            label=label,
            prefix=prefix,
            secret_hash=secret_hash,
            created_by=user,
            scopes=[s for s in Scope.values if s in scopes],
            allowed_networks=networks,
            expires_at=expires_at,
        )
        audit_event_record(
            name="staff_token.issued",
            actor=actor,
            payload={
                "staff_token_id": token.pk,
                "prefix": token.prefix,
                "user_id": user.pk,
                "role": role,
                "label": label,
                "scopes": token.scopes,
                "allowed_networks": token.allowed_networks,
                "expires_at": token.expires_at.isoformat(),
            },
        )
    return token, raw


def staff_token_revoke(*, actor: Actor, user, token_id: int, reason: str) -> StaffToken:
    """The owner revokes one of its tokens (a superuser any): it stops working at once."""
    with transaction.atomic():
        token = StaffToken.objects.select_for_update().filter(pk=token_id).first()
        if token is None:
            raise NotFound(f"Staff token {token_id} does not exist.")
        if token.user_id != user.pk and not user.is_superuser:
            raise PermissionDenied("Only its owner may revoke a staff token.")
        if token.revoked_at is not None:
            raise Conflict(f"Staff token {token.prefix} was already revoked at {token.revoked_at}.")
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit_event_record(
            name="staff_token.revoked",
            actor=actor,
            payload={
                "staff_token_id": token.pk,
                "prefix": token.prefix,
                "user_id": token.user_id,
                "role": token.role,
                "reason": reason,
            },
        )
    return token
