"""Non-user principals: what ``request.user`` is for an API key or a dealer device."""

from __future__ import annotations

from casino.actors import Actor
from casino.api import roles


class _Principal:
    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False
    role: str = ""
    kind: str = ""

    def __init__(self, credential):
        self.credential = credential
        self.pk = None
        self.id = None

    def has_perm(self, perm: str, obj=None) -> bool:
        return perm in roles.role_permissions(self.role)

    def has_perms(self, perms, obj=None) -> bool:
        return all(self.has_perm(p, obj) for p in perms)

    def get_username(self) -> str:
        return f"{self.kind}:{self.credential.prefix}"

    @property
    def throttle_key(self) -> str:
        return f"{self.kind}:{self.credential.pk}"

    def as_actor(self, *, request_id: str = "") -> Actor:
        return Actor(
            kind=self.kind,
            id=str(self.credential.pk),
            label=f"{self.credential.label} ({self.credential.prefix})",
            request_id=request_id,
        )

    def __str__(self) -> str:
        return self.get_username()


class ApiKeyPrincipal(_Principal):
    role = roles.OPERATOR_INTEGRATION
    kind = "api_key"

    @property
    def operator_id(self) -> int:
        return self.credential.operator_id


class DevicePrincipal(_Principal):
    role = roles.DEALER_DEVICE
    kind = "device"

    @property
    def table_id(self) -> int:
        return self.credential.table_id
