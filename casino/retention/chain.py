"""What verification of the audit chain needs to know about a detached prefix of the log.

Each detachment of an audit partition records (in its ``retention.partition_detached`` event,
itself in the live log and sealed like any other) the archive's state after it: every event id
below ``ids_below`` that is not in the live table is archived, and so is each of ``extra_ids``
(the few archived events numbered above it: ids and times interleave at a month boundary).
``head`` is the last seal all of whose events are archived; verification of what remains starts
after it, from its chain hash, and skips the archived events of the seals that straddle the
boundary (their content is checked against the regulator bundles and the archive itself).
"""

from __future__ import annotations

from dataclasses import dataclass

from audit.models import AuditEvent

DETACHED = "retention.partition_detached"
AUDIT_TABLE = "audit_auditevent"


@dataclass(frozen=True)
class ArchivedPrefix:
    event_id: int  # the detach event that recorded it
    ids_below: int
    extra_ids: frozenset[int]
    head_seq: int  # 0: no seal wholly archived yet
    head_hash: str
    head_key: tuple[int, int]  # (last_txid, last_event_id) of the head seal

    def archived(self, event_id: int) -> bool:
        return event_id < self.ids_below or event_id in self.extra_ids


def audit_archived_prefix() -> ArchivedPrefix | None:
    """The archive's state after the latest detachment of an audit partition, or None."""
    row = (
        AuditEvent.objects.filter(name=DETACHED, payload__table=AUDIT_TABLE)
        .order_by("-id")
        .values_list("id", "payload")
        .first()
    )
    if row is None:
        return None
    event_id, payload = row
    chain = payload["chain"]
    return ArchivedPrefix(
        event_id=event_id,
        ids_below=chain["ids_below"],
        extra_ids=frozenset(chain["extra_ids"]),
        head_seq=chain["head_seq"],
        head_hash=chain["head_hash"],
        head_key=tuple(chain["head_key"]),
    )
