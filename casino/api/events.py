"""Audit events of the API platform: one function per event type."""

from audit.services import audit_event_record
from casino.actors import Actor
from casino.api.models import ApiKey, DeviceToken


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


def credential_refused(*, kind: str, prefix: str | None, reason: str, client: dict) -> None:
    """A bearer credential was refused (unknown, wrong secret or revoked): who tried, from where.

    Written outside any transaction of the request, so the refusal stays recorded although
    the request fails."""
    audit_event_record(
        name="auth.credential_refused",
        actor=Actor(kind="anonymous", id=None, label=f"{kind}:{prefix or '?'}"),
        payload={"kind": kind, "prefix": prefix or "", "reason": reason, "client": client},
    )
