"""What a seal's event digests are computed over (digest format 1).

An event's digest is the SHA-256 of its row exactly as PostgreSQL's ``COPY ... TO STDOUT``
text format writes it: the columns of ``DIGEST_COLUMNS`` in that order, tab-separated, NULL as
``\\N``, tabs, newlines and backslashes escaped, read with TimeZone UTC and DateStyle ISO.
Every column of the row is covered, so any change to a sealed event changes its digest; the
escaping makes the encoding injective; and anyone can recompute it outside the application
(``\\copy (SELECT <columns> FROM audit_auditevent ORDER BY txid, id) TO 'events.tsv'``, then
SHA-256 of each line). Reading raw COPY lines is also what makes verification fast: hashing
bytes PostgreSQL already produced, instead of rebuilding JSON per event in Python.

Adding a column to AuditEvent means a new digest format (listed here, recorded per seal).
"""

from __future__ import annotations

import hashlib

DIGEST_FORMAT = 1
DIGEST_COLUMNS = (
    "id", "txid", "occurred_at", "name", "actor_kind", "actor_id", "actor_label", "request_id",
    "operator_id", "casino_id", "table_id", "round_id", "bet_id", "wallet_id", "payload",
    "content_hash",
)  # fmt: skip
GENESIS_HASH = "0" * 64
DIGEST_SIZE = 32
ID_SIZE = 8

EventKey = tuple[int, int]  # (txid, id): the order events are sealed in
BEFORE_FIRST: EventKey = (0, 0)


def digest_session(cursor) -> None:
    """Fix the settings the COPY text of a row depends on (inside a transaction)."""
    cursor.execute("SET LOCAL TimeZone = 'UTC'")
    cursor.execute("SET LOCAL DateStyle = 'ISO, YMD'")


def event_lines(
    cursor,
    *,
    after: EventKey,
    through: EventKey | None = None,
    below_txid: int | None = None,
    limit: int | None = None,
) -> list[bytes]:
    """The COPY text lines of the events after ``after`` in (txid, id) order.

    Bounded by ``through`` (inclusive key), ``below_txid`` (finished transactions only) and
    ``limit``. Call inside a transaction after ``digest_session``.
    """
    # COPY takes no bind parameters; every value interpolated here is an int.
    where = [f"(txid, id) > ({int(after[0])}, {int(after[1])})"]
    if through is not None:
        where.append(f"(txid, id) <= ({int(through[0])}, {int(through[1])})")
    if below_txid is not None:
        where.append(f"txid < {int(below_txid)}")
    query = (
        f"SELECT {', '.join(DIGEST_COLUMNS)} FROM audit_auditevent "
        f"WHERE {' AND '.join(where)} ORDER BY txid, id"
    )
    if limit is not None:
        query += f" LIMIT {int(limit)}"
    with cursor.copy(f"COPY ({query}) TO STDOUT") as copy:
        data = b"".join(copy)
    lines = data.split(b"\n")
    lines.pop()  # the text after the last newline: empty
    return lines


def line_digests(lines: list[bytes]) -> bytes:
    sha256 = hashlib.sha256
    return b"".join([sha256(line).digest() for line in lines])


def line_key(line: bytes) -> EventKey:
    event_id, txid, _ = line.split(b"\t", 2)
    return int(txid), int(event_id)
