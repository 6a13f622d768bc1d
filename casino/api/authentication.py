"""Bearer credentials: ``Authorization: Bearer ck_…`` (API key) or ``Bearer dt_…`` (device).

A credential is refused (401, audited) when unknown, wrong, a rotated-out secret after its
overlap, revoked or expired, and (403, audited) when the request's address (``REMOTE_ADDR`` as
Django sees it) is outside its allow-list or its operator is deactivated. Its scopes are
checked per view by ``casino.api.scopes.ScopePermission``."""

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from audit.context import client_of
from casino.api import events
from casino.api.credentials import (
    address_allowed,
    address_parse,
    credential_matches,
    credential_split,
)
from casino.api.models import ApiKey, DeviceToken, StaffToken
from casino.api.principals import ApiKeyPrincipal, DevicePrincipal
from casino.api.throttling import credential_refusal_count
from casino.rows import model_first, model_select_sql

# Touching last_used_at on every request would add a write to the hot path; once a minute is
# enough to tell a pit boss whether a key is in use (and from where).
LAST_USED_RESOLUTION = timedelta(minutes=1)
_BY_PREFIX = "prefix = %s"


class _BearerCredentialAuthentication(authentication.BaseAuthentication):
    kind: str
    model: type
    principal: type
    where = _BY_PREFIX

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        scheme, _, raw = header.partition(" ")
        if scheme.lower() != "bearer" or not raw.startswith(f"{self.kind}_"):
            return None
        raw = raw.strip()
        prefix = credential_split(raw, kind=self.kind)
        credential, owner_inactive = None, False
        if prefix is not None:  # every API request: a statement built once (casino/rows.py)
            credential = self._find(self.where, prefix)
            if credential is None and self.where != _BY_PREFIX:
                credential = self._find(_BY_PREFIX, prefix)
                owner_inactive = credential is not None
        now = timezone.now()
        address = request._request.META.get("REMOTE_ADDR", "")
        refusal = self._refusal(raw, credential, now, address, owner_inactive)
        if refusal is not None:
            reason, exception = refusal
            self._refuse(request, prefix, reason)
            raise exception
        self._touch(credential, now, address)
        return self.principal(credential), credential

    def _find(self, where: str, prefix: str):
        return model_first(self.model, model_select_sql(self.model, where), [prefix])

    def _refusal(
        self, raw: str, credential, now, address: str, owner_inactive: bool = False
    ) -> tuple[str, Exception] | None:
        """Why the credential is refused (the audited reason and the answer), or None."""
        if credential is None:
            return "invalid", exceptions.AuthenticationFailed("Invalid credential.")
        if not credential_matches(raw, credential.secret_hash):
            previous = credential.previous_secret_hash
            if not previous or not credential_matches(raw, previous):
                return "invalid", exceptions.AuthenticationFailed("Invalid credential.")
            if credential.previous_valid_until <= now:
                return "rotated", exceptions.AuthenticationFailed(
                    "This secret was replaced by a rotation; it stopped working at "
                    f"{credential.previous_valid_until.isoformat(timespec='seconds')}."
                )
        if not credential.is_active:
            return "revoked", exceptions.AuthenticationFailed("This credential has been revoked.")
        if credential.expires_at <= now:
            return "expired", exceptions.AuthenticationFailed(
                f"This credential expired at {credential.expires_at.isoformat(timespec='seconds')}."
            )
        if not address_allowed(address, credential.allowed_networks):
            return "address_not_allowed", exceptions.PermissionDenied(
                f"This credential may not be used from {address or 'an unknown address'}."
            )
        if owner_inactive:
            return "operator_inactive", exceptions.PermissionDenied(
                "This key's operator is deactivated: every operation is refused."
            )
        return None

    def _refuse(self, request, prefix: str | None, reason: str) -> None:
        """Throttled (429) past the address's refusals in this window; else audited if it is
        the window's first (the rest are summarized when the window closes)."""
        window = credential_refusal_count(request._request)
        if window is not None:
            events.credential_refused(
                kind=self.kind,
                prefix=prefix,
                reason=reason,
                client=client_of(request._request),
                window=window,
            )

    def _touch(self, credential, now, address: str) -> None:
        if (
            credential.last_used_at is not None
            and now - credential.last_used_at < LAST_USED_RESOLUTION
        ):
            return
        # Conditional, so that workers which loaded the credential at the same time write once.
        ip = address_parse(address)
        self.model.objects.filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_RESOLUTION),
            pk=credential.pk,
        ).update(last_used_at=now, last_used_ip=str(ip) if ip else None)

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class ApiKeyAuthentication(_BearerCredentialAuthentication):
    kind = "ck"
    model = ApiKey
    principal = ApiKeyPrincipal
    # A deactivated operator's keys find no row, in the one statement of every request; only
    # then is the key looked up again, to refuse it for what it is.
    where = f"{_BY_PREFIX} AND operator_id IN (SELECT id FROM ledger_operator WHERE is_active)"


class DeviceTokenAuthentication(_BearerCredentialAuthentication):
    kind = "dt"
    model = DeviceToken
    principal = DevicePrincipal


def _token_owner(token: StaffToken):
    return token.user


class StaffTokenAuthentication(_BearerCredentialAuthentication):
    """A staff member's personal token: the request acts as its owner (the owner is who
    four-eyes rules compare), narrowed to the token's role (``RolePermission``) and scopes.
    Refused (401, audited) as any credential, and also once the owner is deactivated or no
    longer holds the token's role."""

    kind = "st"
    model = StaffToken
    principal = staticmethod(_token_owner)

    def _refusal(self, raw, credential, now, address, owner_inactive=False):
        refusal = super()._refusal(raw, credential, now, address, owner_inactive)
        if refusal is not None:
            return refusal
        user = credential.user
        if not user.is_active or not user.groups.filter(name=credential.role).exists():
            return "role_withdrawn", exceptions.AuthenticationFailed(
                f"This token's owner no longer holds the role {credential.role!r}."
            )
        return None


class StaffTokenScheme(OpenApiAuthenticationExtension):
    target_class = StaffTokenAuthentication
    name = "staffToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A staff member's personal token (st_…), one role, for hours",
        }


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = ApiKeyAuthentication
    name = "apiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "Operator API key (ck_…)"}


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    target_class = DeviceTokenAuthentication
    name = "deviceToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "Dealer device token (dt_…)"}


class VerifiedSessionAuthentication(authentication.SessionAuthentication):
    """Staff sessions (the console's login), accepted only once they passed the second
    factor: a session that did not is refused with 403, not treated as anonymous."""

    def authenticate(self, request):
        from casino.staff.mfa import is_verified

        result = super().authenticate(request)
        if result is not None and not is_verified(request._request.user):
            raise exceptions.PermissionDenied(
                "This staff session has not passed the second factor (MFA): log in again."
            )
        return result


class VerifiedSessionScheme(OpenApiAuthenticationExtension):
    target_class = VerifiedSessionAuthentication
    name = "cookieAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "Staff session of the console login (password and second factor)",
        }
