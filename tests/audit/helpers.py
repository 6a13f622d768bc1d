"""Helpers of the audit tests: writing committed events, tampering as a superuser."""

import time

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


def seal_everything(*, max_events: int | None = None, timeout: float = 60) -> list:
    """Seal until nothing is pending; return the new seals.

    Sealing waits for every older writing transaction of the whole PostgreSQL cluster (xids
    are cluster-wide), so on a server shared with other test runs it may take a few rounds.
    """
    from audit.heads import audit_head_current
    from audit.sealing import audit_chain_seal
    from audit.selectors import audit_events_pending

    kwargs = {} if max_events is None else {"max_events": max_events}
    seals: list = []
    deadline = time.monotonic() + timeout
    while True:
        seals += audit_chain_seal(**kwargs)
        if not audit_events_pending(audit_head_current()["last_event"]):
            return seals
        if time.monotonic() > deadline:
            raise AssertionError("events still unsealed: an old transaction stays open")
        time.sleep(0.05)
