"""Audit events of the API platform: one function per event type."""

from audit.services import audit_event_record
from casino.actors import Actor
from casino.api.models import ApiKey, Credential, DeviceToken
from casino.api.throttling import RefusalWindow


def _terms(credential: Credential) -> dict:
    return {
        "scopes": credential.scopes,
        "allowed_networks": credential.allowed_networks,
        "expires_at": credential.expires_at.isoformat(),
    }


def _rotation(credential: Credential, reason: str) -> dict:
    return {
        "prefix": credential.prefix,
        "previous_valid_until": credential.previous_valid_until.isoformat(),
        "expires_at": credential.expires_at.isoformat(),
        "reason": reason,
    }


def api_key_issued(*, actor: Actor, api_key: ApiKey) -> None:
    audit_event_record(
        name="api_key.issued",
        actor=actor,
        operator_id=api_key.operator_id,
        payload={
            "api_key_id": api_key.pk,
            "prefix": api_key.prefix,
            "label": api_key.label,
            **_terms(api_key),
        },
    )


def api_key_rotated(*, actor: Actor, api_key: ApiKey, reason: str) -> None:
    """A new secret; the previous one keeps working until ``previous_valid_until``."""
    audit_event_record(
        name="api_key.rotated",
        actor=actor,
        operator_id=api_key.operator_id,
        payload={"api_key_id": api_key.pk, **_rotation(api_key, reason)},
    )


def api_key_changed(*, actor: Actor, api_key: ApiKey, changes: dict) -> None:
    """Scopes, allow-list or expiry changed: ``changes`` is {field: [before, after]}."""
    audit_event_record(
        name="api_key.changed",
        actor=actor,
        operator_id=api_key.operator_id,
        payload={"api_key_id": api_key.pk, "prefix": api_key.prefix, "changes": changes},
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
        payload={
            "device_token_id": token.pk,
            "prefix": token.prefix,
            "device_id": token.device_id,
            **_terms(token),
        },
    )


def device_token_rotated(*, actor: Actor, token: DeviceToken, reason: str) -> None:
    audit_event_record(
        name="device_token.rotated",
        actor=actor,
        table_id=token.table_id,
        payload={"device_token_id": token.pk, **_rotation(token, reason)},
    )


def device_token_changed(*, actor: Actor, token: DeviceToken, changes: dict) -> None:
    audit_event_record(
        name="device_token.changed",
        actor=actor,
        table_id=token.table_id,
        payload={"device_token_id": token.pk, "prefix": token.prefix, "changes": changes},
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
    """The first bearer credential refused (unknown, wrong secret, a rotated-out secret after
    its overlap, revoked, expired, or from outside its allow-list) from an address in a window:
    who tried, from where. The window's further refusals are summarized in one
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
