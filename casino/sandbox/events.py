"""Audit events of the sandbox: one function per event type."""

from audit.services import audit_event_record
from casino.actors import Actor


def sandbox_operator_created(*, actor: Actor, operator_id: int, code: str) -> None:
    audit_event_record(
        name="sandbox.operator_created",
        actor=actor,
        operator_id=operator_id,
        payload={"code": code},
    )


def sandbox_table_created(*, actor: Actor, table_id: int, code: str, preset: str) -> None:
    audit_event_record(
        name="sandbox.table_created",
        actor=actor,
        table_id=table_id,
        payload={"code": code, "preset": preset},
    )
