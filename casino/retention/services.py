"""Retention of the append-only tables partitioned by month (README "Retention").

- ``partitions_ensure`` creates the monthly partitions ahead (the beat task and the
  ``partitions ensure`` command), through ``casino_partitions_ensure`` (casino/dbsql.py), which
  the application's role may run although it cannot create tables itself.
- ``partition_detach`` takes the oldest month out of the live table into the archive schema
  (optionally writing it out as a COPY file too), only once every gaming day of the month has
  its regulator bundle (``audit_export_day``) and, for the audit log, once every event of the
  month is sealed and the whole chain verifies. It is audited; for the audit log the event
  records the archived prefix that verification starts after (``casino/retention/chain.py``).
  For the ledger's legs, the ledger must reconcile, the audit chain verify and every round
  opened before the month's end be finished; in the DETACH's transaction each account's legs
  of the month are summed into its carry-forward (``ledger_carryforward``), so every balance
  (wallets, house accounts, reconciliation) stays what it was.
  Detaching needs the schema owner's rights (ALTER TABLE): an operator runs the command, the
  application's role cannot.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from psycopg import sql

from audit.digests import DIGEST_COLUMNS
from audit.sealing import unpack_ids
from audit.services import audit_event_record
from casino.actors import Actor
from casino.dbsql import TIME_PARTITIONED, month_bounds
from casino.errors import ValidationFailed
from casino.retention.chain import AUDIT_TABLE, DETACHED, ArchivedPrefix, audit_archived_prefix
from forensics.bundles import (
    bundle_dir,
    export_calendars,
    gaming_day_bounds,
    gaming_day_closed_last,
)

ARCHIVE_SCHEMA = "casino_archive"
LEDGER_TABLE = "ledger_leg"
PARTITIONS_CREATED = "retention.partitions_created"
EXPORTED = "retention.partition_exported"
DB = "default"  # DDL goes to the primary, whatever the read routing (casino/replica.py)


@dataclass(frozen=True)
class Partition:
    table: str
    name: str
    month: date | None  # None: the DEFAULT partition
    rows_estimate: int

    @property
    def bounds(self) -> tuple[datetime, datetime]:
        assert self.month is not None
        return month_bounds(self.month)


def partitions_ensure(
    *, actor: Actor, months_ahead: int | None = None, first_month: date | None = None
) -> list[str]:
    """Create the missing monthly partitions of every partitioned table from ``first_month``
    (default: this month) through ``months_ahead`` months after this one; the names created.

    Fails loudly (a database error) when the DEFAULT partition already holds a row of a month
    being created: such a row means a clock was far off, and someone must look.
    """
    ahead = settings.RETENTION_MONTHS_AHEAD if months_ahead is None else months_ahead
    first = first_month or datetime.now(UTC).date().replace(day=1)
    created: list[str] = []
    with transaction.atomic(using=DB), connections[DB].cursor() as cursor:
        for table in TIME_PARTITIONED:
            cursor.execute("SELECT casino_partitions_ensure(%s, %s, %s)", [table, first, ahead])
            created += [name for (name,) in cursor.fetchall()]
        if created:
            audit_event_record(
                name=PARTITIONS_CREATED,
                actor=actor,
                payload={"partitions": created, "months_ahead": ahead},
            )
    return created


def partition_list(*, table: str) -> list[Partition]:
    """The partitions attached to ``table``, oldest month first, the DEFAULT one last."""
    _known(table)
    with connections[DB].cursor() as cursor:
        cursor.execute(
            """
            SELECT child.relname, child.reltuples::bigint, pg_get_expr(child.relpartbound,
                   child.oid) = 'DEFAULT'
            FROM pg_inherits JOIN pg_class AS child ON child.oid = pg_inherits.inhrelid
            WHERE pg_inherits.inhparent = %s::regclass
            """,
            [table],
        )
        rows = cursor.fetchall()
    found = []
    for name, estimate, default in rows:
        month = None if default else datetime.strptime(name[-6:], "%Y%m").date()
        found.append(Partition(table, name, month, max(estimate, 0)))
    return sorted(found, key=lambda p: (p.month is None, p.month or date.min))


def partitions_default_rows() -> dict[str, int]:
    """Rows in each table's DEFAULT partition: 0 everywhere unless a clock was far off."""
    counts = {}
    with connections[DB].cursor() as cursor:
        for table in TIME_PARTITIONED:
            cursor.execute(sql.SQL("SELECT count(*) FROM {}").format(_ident(f"{table}_default")))
            counts[table] = cursor.fetchone()[0]
    return counts


def partition_detach(
    *,
    table: str,
    month: date,
    actor: Actor,
    export_dir: Path | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Detach ``table``'s partition of ``month`` into the archive schema; the audited record.

    Refused (``ValidationFailed``, nothing changed) unless it is the oldest monthly partition
    still attached, its month is over, every gaming day of it has a complete regulator bundle
    under ``AUDIT_EXPORT_DIR``, and (the audit log) all its events are sealed and the chain
    verifies. ``export_dir``: then also write the rows there as a COPY text file (for the audit
    log in digest form: each line's SHA-256 is the event's sealed digest), recorded with its
    SHA-256 by a ``retention.partition_exported`` event. The DETACH holds the live table's
    ACCESS EXCLUSIVE lock (writers wait) for what must see it detached: the row count and a
    recheck of the archived prefix; the verification, the seal walk and the export do not.
    """
    partition = _detachable(table, month, now=now)
    bundles = _bundles_required(partition)
    with transaction.atomic(using=DB), connections[DB].cursor() as cursor:
        chain = None
        if table == AUDIT_TABLE:
            _audit_checks(cursor, partition)
            # Worked out before the DETACH takes its lock (writers wait while it is held), and
            # again under it in the rare case that a row committed meanwhile changes it.
            chain = _archived_prefix(cursor, partition, live_min=_live_min(cursor, partition))
        elif table == LEDGER_TABLE:
            _ledger_checks(partition)
        cursor.execute(
            sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(
                _ident(table), _ident(partition.name)
            )
        )
        cursor.execute(
            sql.SQL("SELECT count(*), min(id), max(id) FROM {}").format(_ident(partition.name))
        )
        rows, min_id, max_id = cursor.fetchone()
        carried = _carry_forward(cursor, partition) if table == LEDGER_TABLE else None
        if chain is not None:
            # The DETACH's lock waited for every transaction writing to the log: each id drawn
            # so far is committed or gone for good. A row written meanwhile (a clock far
            # behind) must be sealed too, and may move the prefix.
            _all_sealed(cursor, partition)
            live_min = _live_min(cursor, partition)
            if live_min != chain["ids_below"] or _ids_from(cursor, partition, live_min) - set(
                chain["extra_ids"]
            ):
                chain = _archived_prefix(cursor, partition, live_min=live_min)
        cursor.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(_ident(ARCHIVE_SCHEMA)))
        cursor.execute(
            sql.SQL("ALTER TABLE {} SET SCHEMA {}").format(
                _ident(partition.name), _ident(ARCHIVE_SCHEMA)
            )
        )
        archived = sql.Identifier(ARCHIVE_SCHEMA, partition.name)
        # Detaching drops the triggers cloned from the parent: the archive stays append-only.
        # An archived month of legs takes no new leg either (it is carried forward as it is),
        # and loses the trigger that would move wallet balances for one.
        changes = "UPDATE OR DELETE"
        if table == LEDGER_TABLE:
            changes = "INSERT OR UPDATE OR DELETE"
            cursor.execute(
                sql.SQL("DROP TRIGGER {} ON {}").format(
                    _ident(f"{partition.name}_after_insert"), archived
                )
            )
        cursor.execute(
            sql.SQL(
                "CREATE TRIGGER {} BEFORE " + changes + " ON {} "
                "FOR EACH ROW EXECUTE FUNCTION public.casino_refuse_change()"
            ).format(_ident(f"{partition.name}_archived"), archived)
        )
        lower, upper = partition.bounds
        payload = {
            "table": table,
            "partition": partition.name,
            "archive": f"{ARCHIVE_SCHEMA}.{partition.name}",
            "month": month.strftime("%Y-%m"),
            "from": lower.isoformat(),
            "to": upper.isoformat(),
            "rows": rows,
            "min_id": min_id,
            "max_id": max_id,
            "bundles": bundles,
        }
        if chain is not None:
            payload["chain"] = chain
        if carried is not None:
            payload["carry_forward"] = carried
        audit_event_record(name=DETACHED, actor=actor, payload=payload)
    if export_dir is not None:
        # After the commit, from the archive (append-only, nobody writes to it): not while
        # the lock on the live table is held.
        with transaction.atomic(using=DB), connections[DB].cursor() as cursor:
            payload["export"] = _export(cursor, table, archived, export_dir, partition)
            audit_event_record(
                name=EXPORTED,
                actor=actor,
                payload={"table": table, "partition": partition.name, **payload["export"]},
            )
    return payload


def _known(table: str) -> None:
    if table not in TIME_PARTITIONED:
        raise ValidationFailed(
            f"{table!r} is not a time-partitioned table (one of {', '.join(TIME_PARTITIONED)})"
        )


def _ident(name: str) -> sql.Identifier:
    return sql.Identifier(name)


def _detachable(table: str, month: date, *, now: datetime | None) -> Partition:
    _known(table)
    monthly = [p for p in partition_list(table=table) if p.month is not None]
    wanted = month.replace(day=1)
    partition = next((p for p in monthly if p.month == wanted), None)
    if partition is None:
        raise ValidationFailed(f"{table} has no attached partition for {wanted:%Y-%m}")
    # every casino's gaming days over the month must be over (and so exportable)
    closed_until = min(
        gaming_day_bounds(calendar, gaming_day_closed_last(calendar, now))[1]
        for _, calendar, _ in export_calendars()
    )
    if partition.bounds[1] > closed_until:
        raise ValidationFailed(f"{partition.name}: its month is not over yet")
    if partition is not monthly[0]:
        raise ValidationFailed(
            f"{partition.name} is not the oldest attached partition ({monthly[0].name} is): "
            "the archive is a prefix of the log, detached oldest month first"
        )
    return partition


def _bundles_required(partition: Partition) -> dict[str, str]:
    """The SHA-256 of each casino's bundle manifest of every gaming day overlapping the
    partition's month (``<casino>/<day>``: gaming days are local, the month UTC); refuses if
    any has none."""
    lower, upper = partition.bounds
    found, missing = {}, []
    for name, calendar, _ in export_calendars():
        day = calendar.gaming_day_of(lower)
        last = calendar.gaming_day_of(upper - timedelta(microseconds=1))
        while day <= last:
            manifest = bundle_dir(name, day) / "manifest.json"
            try:
                data = manifest.read_bytes()
                complete = json.loads(data).get("complete", True) is not False
            except (OSError, ValueError):
                data, complete = b"", False
            if complete:
                found[f"{name}/{day.isoformat()}"] = hashlib.sha256(data).hexdigest()
            else:
                missing.append(f"{name}/{day.isoformat()}")
            day += timedelta(days=1)
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise ValidationFailed(
            f"{partition.name}: {len(missing)} gaming day(s) have no complete regulator export "
            f"bundle in {settings.AUDIT_EXPORT_DIR} ({shown}); export them first "
            "(manage.py audit_export_day)"
        )
    return found


def _audit_checks(cursor, partition: Partition) -> None:
    from audit.verification import audit_chain_verify  # it reads the archived prefix from here

    _all_sealed(cursor, partition)
    report = audit_chain_verify()
    if not report.ok:
        raise ValidationFailed(
            f"{partition.name}: the audit chain does not verify ({report.problem.detail}); "
            "nothing is detached from a log that does not verify"
        )


def _ledger_checks(partition: Partition) -> None:
    """Before a month of legs leaves: no round opened before its end is unfinished (its
    settlement or refund reads the stakes' legs), the ledger reconciles (wallet balances,
    balanced transactions, carry-forward) and the audit chain, whose events record every
    posting, verifies."""
    from audit.verification import audit_chain_verify
    from ledger.selectors import ledger_reconcile
    from tables.models import Round

    unfinished = (
        Round.objects.using(DB)
        .filter(phase__in=Round.UNFINISHED, opened_at__lt=partition.bounds[1])
        .order_by("id")
        .values_list("id", flat=True)
        .first()
    )
    if unfinished:
        raise ValidationFailed(
            f"{partition.name}: round {unfinished}, opened before the month's end, is not "
            "settled or voided yet: its stakes' legs must stay until it is"
        )
    problems = ledger_reconcile()
    if problems:
        raise ValidationFailed(
            f"{partition.name}: the ledger does not reconcile ({problems[0]}); nothing is "
            "detached from a ledger that does not"
        )
    report = audit_chain_verify()
    if not report.ok:
        raise ValidationFailed(
            f"{partition.name}: the audit chain does not verify ({report.problem.detail}); "
            "nothing is detached while it does not"
        )


def _carry_forward(cursor, partition: Partition) -> dict[str, Any]:
    """Sum each account's legs of the detached month into its carry-forward row (under the
    DETACH's lock: no balance query sees the month both gone and not carried); refuses (the
    transaction rolls back, nothing detached) a month whose legs do not sum to zero per
    currency."""
    cursor.execute(
        sql.SQL(
            "INSERT INTO ledger_carryforward (account_id, currency, month, amount, legs, "
            "recorded_at) SELECT account_id, min(currency), %s, sum(amount), count(*), now() "
            "FROM {} GROUP BY account_id RETURNING currency, amount, legs"
        ).format(_ident(partition.name)),
        [partition.month],
    )
    totals: dict[str, int] = {}
    accounts = legs = 0
    for currency, amount, count in cursor.fetchall():
        totals[currency] = totals.get(currency, 0) + amount
        accounts, legs = accounts + 1, legs + count
    unbalanced = {currency: total for currency, total in totals.items() if total}
    if unbalanced:
        raise ValidationFailed(
            f"{partition.name}: its legs do not sum to zero per currency ({unbalanced}); "
            "nothing detached"
        )
    return {"accounts": accounts, "legs": legs, "currencies": sorted(totals)}


def _all_sealed(cursor, partition: Partition) -> None:
    cursor.execute("SELECT last_txid, last_event_id FROM audit_auditseal ORDER BY seq DESC LIMIT 1")
    last = cursor.fetchone() or (0, 0)
    cursor.execute(
        sql.SQL("SELECT 1 FROM {} WHERE (txid, id) > (%s, %s) LIMIT 1").format(
            _ident(partition.name)
        ),
        list(last),
    )
    if cursor.fetchone():
        raise ValidationFailed(f"{partition.name}: some of its events are not sealed yet")


def _ids_from(cursor, partition: Partition, low: int) -> set[int]:
    cursor.execute(
        sql.SQL("SELECT id FROM {} WHERE id >= %s").format(_ident(partition.name)), [low]
    )
    return {event_id for (event_id,) in cursor.fetchall()}


def _live_min(cursor, partition: Partition) -> int:
    """The lowest id in the log's partitions but ``partition`` (each an index-only probe);
    with none, one above every id of ``partition`` and of the archive so far."""
    lows = []
    for other in partition_list(table=AUDIT_TABLE):
        if other.name != partition.name:
            cursor.execute(sql.SQL("SELECT min(id) FROM {}").format(_ident(other.name)))
            lows.append(cursor.fetchone()[0])
    lows = [low for low in lows if low is not None]
    if lows:
        return min(lows)
    cursor.execute(sql.SQL("SELECT max(id) FROM {}").format(_ident(partition.name)))
    previous = audit_archived_prefix()
    return max(cursor.fetchone()[0] or 0, previous.ids_below - 1 if previous else 0) + 1


def _archived_prefix(cursor, partition: Partition, *, live_min: int) -> dict[str, Any]:
    """The archived prefix once ``partition`` is detached (see ``casino/retention/chain.py``),
    ``live_min`` being the lowest id left in the live log."""
    previous = audit_archived_prefix()
    extra = _ids_from(cursor, partition, live_min)
    if previous is not None:
        extra |= {event_id for event_id in previous.extra_ids if event_id >= live_min}
    prefix = ArchivedPrefix(0, live_min, frozenset(extra), 0, "", (0, 0))
    head = _archived_head(cursor, prefix, previous)
    return {
        "ids_below": live_min,
        "extra_ids": sorted(extra),
        "head_seq": head[0],
        "head_hash": head[1],
        "head_key": list(head[2]),
    }


def _archived_head(
    cursor, prefix: ArchivedPrefix, previous: ArchivedPrefix | None
) -> tuple[int, str, tuple[int, int]]:
    """The last seal (seq, chain hash, last key) whose events are all archived."""
    from audit.digests import GENESIS_HASH

    head = (
        (previous.head_seq, previous.head_hash, previous.head_key)
        if previous is not None
        else (0, GENESIS_HASH, (0, 0))
    )
    while True:
        cursor.execute(
            "SELECT seq, chain_hash, last_txid, last_event_id, event_ids FROM audit_auditseal "
            "WHERE seq > %s ORDER BY seq LIMIT 1000",
            [head[0]],
        )
        seals = cursor.fetchall()
        for seq, chain_hash, last_txid, last_event_id, event_ids in seals:
            if not all(prefix.archived(i) for i in unpack_ids(bytes(event_ids))):
                return head
            head = (seq, chain_hash, (last_txid, last_event_id))
        if len(seals) < 1000:
            return head


def _export(cursor, table: str, archived: sql.Composable, out: Path, partition: Partition):
    """Write the archived rows as COPY text; the audit log's columns and order are the
    digests' (audit/digests.py), so ``sha256(line)`` of each line is its sealed digest."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{partition.name}.copy"
    if table == AUDIT_TABLE:
        columns = sql.SQL(", ").join(map(sql.Identifier, DIGEST_COLUMNS))
        query = sql.SQL("SELECT {} FROM {} ORDER BY txid, id").format(columns, archived)
        cursor.execute("SET LOCAL TimeZone = 'UTC'")
        cursor.execute("SET LOCAL DateStyle = 'ISO, YMD'")
    else:
        query = sql.SQL("SELECT * FROM {} ORDER BY id").format(archived)
    digest, size = hashlib.sha256(), 0
    with path.open("wb") as file, cursor.copy(sql.SQL("COPY ({}) TO STDOUT").format(query)) as copy:
        for data in copy:
            file.write(data)
            digest.update(data)
            size += len(data)
    return {"file": str(path), "sha256": digest.hexdigest(), "bytes": size}
