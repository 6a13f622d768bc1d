"""Audit events of the API platform: one function per event type."""

from audit.services import audit_event_record
from casino.actors import Actor
from casino.api.models import ApiKey, DeviceToken
from casino.api.throttling import RefusalWindow


def api_key_issued(*, actor: Actor, api_key: ApiKey) -> None:
    audit_event_record(
        name="api_key.issued",
        actor=actor,
        operator_id=api_key.operator_id,
        payload={"api_key_id": api_key.pk, "prefix": api_key.prefix, "label": api_key.label},
    )


def api_key_revoked(*, actor: Actor, api_key: ApiKey, reason: str) -> None:
    audit_event_record(
        name="api_key.revoked",
        actor=actor,
        operator_id=api_key.operator_id,
        payload={"api_key_id": api_key.pk, "prefix": api_key.prefix, "reason": reason},
    )


def device_token_issued(*, actor: Actor, token: DeviceToken) -> None:
    audit_event_record(
        name="device_token.issued",
        actor=actor,
        table_id=token.table_id,
        payload={"device_token_id": token.pk, "prefix": token.prefix, "device_id": token.device_id},
    )


def device_token_revoked(*, actor: Actor, token: DeviceToken, reason: str) -> None:
    audit_event_record(
        name="device_token.revoked",
        actor=actor,
        table_id=token.table_id,
        payload={"device_token_id": token.pk, "prefix": token.prefix, "reason": reason},
    )


CREDENTIAL_REFUSED = "auth.credential_refused"


def credential_refused(
    *, kind: str, prefix: str | None, reason: str, client: dict, window: RefusalWindow
) -> None:
    """The first bearer credential refused (unknown, wrong secret or revoked) from an address
    in a window: who tried, from where. The window's further refusals are summarized in one
    ``credential_refusals`` event once it has closed.

    Written outside any transaction of the request, so the refusal stays recorded although
    the request fails."""
    audit_event_record(
        name=CREDENTIAL_REFUSED,
        actor=Actor(kind="anonymous", id=None, label=f"{kind}:{prefix or '?'}"),
        payload={
            "kind": kind,
            "prefix": prefix or "",
            "reason": reason,
            "client": client,
            "window": window.as_payload(),
        },
    )


def credential_refusals(*, window: RefusalWindow, refused: int, throttled: int) -> None:
    """All the refusals of an address's window: ``refused`` answered 401 (the first of them
    is its ``credential_refused`` event), ``throttled`` further attempts answered 429."""
    audit_event_record(
        name="auth.credential_refusals",
        actor=Actor(kind="anonymous", id=None, label=window.ip or "?"),
        payload={"window": window.as_payload(), "refused": refused, "throttled": throttled},
    )
