"""Helpers of the audit tests: writing committed events, tampering as a superuser."""

from django.db import connection, transaction

from audit.services import audit_event_record
from casino.actors import Actor


def record(n: int = 1, **kwargs) -> list[int]:
    """Write n events, each in its own committed transaction (use with transactional tests)."""
    ids = []
    for i in range(n):
        with transaction.atomic():
            event = audit_event_record(
                name=kwargs.get("name", "test.event"),
                actor=Actor.system("tests"),
                payload={"i": i},
                round_id=kwargs.get("round_id"),
            )
        ids.append(event.pk)
    return ids


def tamper(sql: str, params=()) -> int:
    """Run SQL as the superuser that bypasses the append-only triggers (a privileged attacker)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        return cursor.rowcount
