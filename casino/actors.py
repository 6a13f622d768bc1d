"""Who did something, on whose behalf, and through which request or task: carried into every
audit event."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Actor:
    """``kind`` "user" | "api_key" | "device" | "system" | "server_shoe" | "player" | "table".

    ``on_behalf_of``: the principal the action is done for (the player an operator's key acts
    for, the dealer of record a server shoe deals for). ``via``: what set the action off when
    it is not the actor itself (the player's hit whose request made the server shoe deal).
    Both are recorded in the audit event's payload (``attribution``), so they are hashed and
    sealed with it; the event's own actor columns keep naming who did it.
    """

    kind: str
    id: str | None
    label: str
    request_id: str = ""
    on_behalf_of: Actor | None = None
    via: Actor | None = None

    @classmethod
    def system(cls, name: str, *, task_id: str = "") -> Actor:
        return cls(kind="system", id=None, label=name, request_id=task_id)

    @classmethod
    def for_user(cls, user, *, request_id: str = "") -> Actor:
        return cls(kind="user", id=str(user.pk), label=user.get_username(), request_id=request_id)

    @classmethod
    def for_player(cls, player) -> Actor:
        return cls(kind="player", id=str(player.pk), label=str(player.external_ref))

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

    def acting_for(self, principal: Actor | None) -> Actor:
        """This actor doing something on ``principal``'s behalf (unchanged when ``None``)."""
        return self if principal is None else replace(self, on_behalf_of=principal)

    def ref(self) -> dict[str, str]:
        return {"kind": self.kind, "id": self.id or "", "label": self.label}

    def attribution(self) -> dict[str, Any]:
        """What an audit event's payload records beyond the actor columns ({} when nothing)."""
        out: dict[str, Any] = {}
        if self.on_behalf_of is not None:
            out["on_behalf_of"] = self.on_behalf_of.ref()
        if self.via is not None:
            out["via"] = self.via.ref()
            if self.via.on_behalf_of is not None:
                out["via"]["on_behalf_of"] = self.via.on_behalf_of.ref()
        return out

    def describe(self) -> str:
        """One line for the round's event rows and the replay: who, for whom, set off by what."""
        text = self.label
        if self.on_behalf_of is not None:
            text += f" for {self.on_behalf_of.kind} {self.on_behalf_of.label}"
        if self.via is not None:
            text += f" (after {self.via.label})"
        return text[:200]
