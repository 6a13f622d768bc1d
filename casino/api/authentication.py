"""Bearer credentials: ``Authorization: Bearer ck_…`` (API key) or ``Bearer dt_…`` (device).

A credential is refused (401, audited) when unknown, wrong, a rotated-out secret after its
overlap, revoked or expired, and (403, audited) when the request's address (``REMOTE_ADDR`` as
Django sees it) is outside its allow-list. Its scopes are checked per view by
``casino.api.scopes.ScopePermission``."""

from datetime import timedelta

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
from casino.api.models import ApiKey, DeviceToken
from casino.api.principals import ApiKeyPrincipal, DevicePrincipal
from casino.api.throttling import credential_refusal_count
from casino.rows import model_first, model_select_sql

# Touching last_used_at on every request would add a write to the hot path; once a minute is
# enough to tell a pit boss whether a key is in use (and from where).
LAST_USED_RESOLUTION = timedelta(minutes=1)


class _BearerCredentialAuthentication(authentication.BaseAuthentication):
    kind: str
    model: type
    principal: type

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        scheme, _, raw = header.partition(" ")
        if scheme.lower() != "bearer" or not raw.startswith(f"{self.kind}_"):
            return None
        raw = raw.strip()
        prefix = credential_split(raw, kind=self.kind)
        credential = None
        if prefix is not None:  # every API request: a statement built once (casino/rows.py)
            credential = model_first(
                self.model, model_select_sql(self.model, "prefix = %s"), [prefix]
            )
        now = timezone.now()
        address = request._request.META.get("REMOTE_ADDR", "")
        refusal = self._refusal(raw, credential, now, address)
        if refusal is not None:
            reason, exception = refusal
            self._refuse(request, prefix, reason)
            raise exception
        self._touch(credential, now, address)
        return self.principal(credential), credential

    def _refusal(self, raw: str, credential, now, address: str) -> tuple[str, Exception] | None:
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


class DeviceTokenAuthentication(_BearerCredentialAuthentication):
    kind = "dt"
    model = DeviceToken
    principal = DevicePrincipal


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
