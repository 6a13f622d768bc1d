"""Audit events of the audit app itself and of authentication: one function per event type."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from audit.services import audit_event_record
from casino.actors import Actor

LOGIN = "auth.login"
LOGOUT = "auth.logout"
LOGIN_FAILED = "auth.login_failed"
USER_GROUPS_CHANGED = "auth.user_groups_changed"
USER_PERMISSIONS_CHANGED = "auth.user_permissions_changed"
GROUP_PERMISSIONS_CHANGED = "auth.group_permissions_changed"
USER_FLAGS_CHANGED = "auth.user_flags_changed"
VIEWED = "audit.viewed"
VERIFIED = "audit.verified"
VERIFICATION_FAILED = "audit.verification_failed"


def login(*, actor: Actor, client: dict[str, str]) -> None:
    audit_event_record(name=LOGIN, actor=actor, payload={"client": client})


def logout(*, actor: Actor, client: dict[str, str]) -> None:
    audit_event_record(name=LOGOUT, actor=actor, payload={"client": client})


def login_failed(
    *, actor: Actor, username: str, client: dict[str, str], stage: str = "login"
) -> None:
    """A wrong password (``stage`` "login") or second-factor code (``stage`` "mfa")."""
    audit_event_record(
        name=LOGIN_FAILED,
        actor=actor,
        payload={"username": username, "client": client, "stage": stage},
    )


def membership_changed(
    *, name: str, actor: Actor, subject: dict[str, Any], action: str, items: list[str]
) -> None:
    """Groups of a user, or permissions of a user or a group, were added, removed or cleared."""
    audit_event_record(
        name=name, actor=actor, payload={"subject": subject, "action": action, "items": items}
    )


def user_flags_changed(*, actor: Actor, user_id: int, username: str, changes: dict) -> None:
    audit_event_record(
        name=USER_FLAGS_CHANGED,
        actor=actor,
        payload={"subject": {"user_id": user_id, "username": username}, "changes": changes},
    )


def viewed(*, actor: Actor, what: str, detail: dict[str, Any]) -> None:
    """Someone read the audit log (GLI-19: read access must itself be recorded). A read has
    no transaction of its own to join: the event commits by itself."""
    with transaction.atomic():
        audit_event_record(name=VIEWED, actor=actor, payload={"what": what, **detail})


def viewed_by(request, what: str, **detail: Any) -> None:
    """``viewed`` by the request's user or credential."""
    viewed(actor=Actor.from_request(request), what=what, detail=detail)


def verification_recorded(*, actor: Actor, report: dict[str, Any]) -> None:
    audit_event_record(
        name=VERIFIED if report["ok"] else VERIFICATION_FAILED, actor=actor, payload=report
    )


# --- dispute cases (forensics/disputes.py) ---------------------------------------------------

DISPUTE_OPENED = "dispute.opened"
DISPUTE_NOTE_ADDED = "dispute.note_added"
DISPUTE_INVESTIGATING = "dispute.investigating"
DISPUTE_REPLAY_ATTACHED = "dispute.replay_attached"
DISPUTE_UPHELD = "dispute.resolved_upheld"
DISPUTE_REJECTED = "dispute.resolved_rejected"
DISPUTE_CORRECTION_APPROVED = "dispute.correction_approved"


def _dispute_event(name: str, *, actor: Actor, case, payload: dict[str, Any]) -> None:
    audit_event_record(
        name=name,
        actor=actor,
        table_id=case.round.table_id,
        round_id=case.round_id,
        bet_id=case.bet_id,
        payload={"dispute_id": case.pk, "status": case.status, **payload},
    )


def dispute_opened(*, actor: Actor, case) -> None:
    _dispute_event(
        DISPUTE_OPENED,
        actor=actor,
        case=case,
        payload={
            "claim": case.claim,
            "claimant": case.claimant,
            "replay_status": (case.replay or {}).get("status"),
        },
    )


def dispute_note_added(*, actor: Actor, case, note) -> None:
    _dispute_event(
        DISPUTE_NOTE_ADDED,
        actor=actor,
        case=case,
        payload={
            "note_id": note.pk,
            "kind": note.kind,
            "text": note.text,
            "evidence_ref": note.evidence_ref,
        },
    )


def dispute_investigating(*, actor: Actor, case) -> None:
    _dispute_event(DISPUTE_INVESTIGATING, actor=actor, case=case, payload={})


def dispute_replay_attached(*, actor: Actor, case) -> None:
    replay = case.replay or {}
    _dispute_event(
        DISPUTE_REPLAY_ATTACHED,
        actor=actor,
        case=case,
        payload={"status": replay.get("status"), "differences": len(replay.get("differences", []))},
    )


def dispute_resolved(*, actor: Actor, case) -> None:
    _dispute_event(
        DISPUTE_UPHELD if case.status == "resolved_upheld" else DISPUTE_REJECTED,
        actor=actor,
        case=case,
        payload={"resolution": case.resolution, "correction_id": case.correction_id},
    )


def dispute_correction_approved(*, actor: Actor, case) -> None:
    _dispute_event(
        DISPUTE_CORRECTION_APPROVED,
        actor=actor,
        case=case,
        payload={"correction_id": case.correction_id},
    )
