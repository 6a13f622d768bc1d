"""Bearer credentials: ``Authorization: Bearer ck_…`` (API key) or ``Bearer dt_…`` (device)."""

from datetime import timedelta

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from audit.context import client_of
from casino.api import events
from casino.api.credentials import credential_matches, credential_split
from casino.api.models import ApiKey, DeviceToken
from casino.api.principals import ApiKeyPrincipal, DevicePrincipal
from casino.rows import model_first, model_select_sql

# Touching last_used_at on every request would add a write to the hot path; once a minute is
# enough to tell a pit boss whether a key is in use.
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
        if credential is None or not credential_matches(raw, credential.secret_hash):
            self._refuse(request, prefix, "invalid")
            raise exceptions.AuthenticationFailed("Invalid credential.")
        if not credential.is_active:
            self._refuse(request, prefix, "revoked")
            raise exceptions.AuthenticationFailed("This credential has been revoked.")
        if owner_inactive:
            self._refuse(request, prefix, "operator_inactive")
            raise exceptions.PermissionDenied(
                "This key's operator is deactivated: every operation is refused."
            )
        self._touch(credential)
        return self.principal(credential), credential

    def _find(self, where: str, prefix: str):
        return model_first(self.model, model_select_sql(self.model, where), [prefix])

    def _refuse(self, request, prefix: str | None, reason: str) -> None:
        events.credential_refused(
            kind=self.kind, prefix=prefix, reason=reason, client=client_of(request._request)
        )

    def _touch(self, credential) -> None:
        now = timezone.now()
        if credential.last_used_at is None or now - credential.last_used_at > LAST_USED_RESOLUTION:
            self.model.objects.filter(pk=credential.pk).update(last_used_at=now)

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
