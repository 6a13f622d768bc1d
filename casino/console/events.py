"""Audit events of the pit console: one function per event type."""

from django.contrib.admin.models import ADDITION, CHANGE, DELETION

from audit.services import audit_event_record
from casino.actors import Actor

_ACTIONS = {ADDITION: "added", CHANGE: "changed", DELETION: "deleted"}


def admin_change_recorded(*, actor: Actor, obj, action_flag: int, message: str) -> None:
    audit_event_record(
        name=f"admin.{_ACTIONS[action_flag]}",
        actor=actor,
        payload={
            "model": obj._meta.label_lower,
            "object_id": str(obj.pk),
            "object": str(obj)[:200],
            "message": message if isinstance(message, str) else repr(message),
        },
    )


def admin_action_performed(
    *, actor: Actor, action: str, obj, reason: str, **references: int | None
) -> None:
    """A console button or action was used on ``obj`` (the service it called records the
    change itself; this records who pressed it in the console, and why)."""
    audit_event_record(
        name="admin.action",
        actor=actor,
        **references,
        payload={
            "action": action,
            "model": obj._meta.label_lower,
            "object_id": str(obj.pk),
            "object": str(obj)[:200],
            "reason": reason,
        },
    )
