"""Who did something, and through which request or task: carried into every audit event."""

from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    kind: str  # "user" | "api_key" | "device" | "system"
    id: str | None
    label: str
    request_id: str = ""

    @classmethod
    def system(cls, name: str, *, task_id: str = "") -> Actor:
        return cls(kind="system", id=None, label=name, request_id=task_id)

    @classmethod
    def for_user(cls, user, *, request_id: str = "") -> Actor:
        return cls(kind="user", id=str(user.pk), label=user.get_username(), request_id=request_id)

    @classmethod
    def from_request(cls, request) -> Actor:
        """The authenticated principal of a Django or DRF request."""
        request_id = getattr(request, "request_id", "") or str(uuid.uuid4())
        user = getattr(request, "user", None)
        principal_actor = getattr(user, "as_actor", None)
        if principal_actor is not None:
            return principal_actor(request_id=request_id)
        if user is not None and user.is_authenticated:
            return cls.for_user(user, request_id=request_id)
        return cls(kind="anonymous", id=None, label="anonymous", request_id=request_id)
