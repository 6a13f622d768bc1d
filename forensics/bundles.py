"""The regulator's export: one signed bundle per casino gaming day (forensics/EXPORT_FORMAT.md).

A bundle is a directory of JSON Lines files (seals, events, shoes, rounds, ledger totals) and a
``manifest.json`` recording each file's SHA-256 and signed with Ed25519. It holds whole seals:
every seal covering an event of the day, and every event of those seals (a few from the
neighbouring days at the edges), so the standalone verifier (forensics/verify_bundle.py) can check
the chain, the signatures and every event without the database.

The day is the casino's gaming day (``tables/shifts.py``): from the local ``gaming_day_starts``
of its shift plan to the next day's, in the casino's time zone, so a day across a clock change
is 23 or 25 hours long. The chain is one for every casino, so the events are everyone's; the
rounds and ledger totals are the casino's tables'.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from audit import signing
from audit.canonical import jcs
from audit.digests import BEFORE_FIRST, DIGEST_COLUMNS, DIGEST_FORMAT, digest_session, event_lines
from audit.heads import audit_head_export
from audit.models import AuditEvent, AuditSeal
from audit.sealing import seal_header_fields, unpack_ids
from casino.errors import ValidationFailed
from casino.version import software_version
from forensics.verify_bundle import BUNDLE_FORMAT, FILES, row_fields
from ledger.models import Account, Leg
from ledger.selectors import AccountingFilter, ShiftGrid, table_accounting
from tables import engine as eng
from tables.models import Casino, Round, RoundEvent, Shoe, Table
from tables.selectors import shift_calendar, shift_calendars
from tables.shifts import ShiftCalendar


def gaming_day_bounds(calendar: ShiftCalendar, day: date) -> tuple[datetime, datetime]:
    """[start, end) of gaming day ``day`` in UTC: the casino's local day start to the next
    one's (23 or 25 hours across a clock change)."""
    return calendar.day_start(day), calendar.day_start(day + timedelta(days=1))


def gaming_day_closed_last(calendar: ShiftCalendar, now: datetime | None = None) -> date:
    """The latest gaming day that has ended: gaming days tile time, so the one before the day
    containing ``now``."""
    return calendar.gaming_day_of(now or timezone.now()) - timedelta(days=1)


def export_casino(casino_id: int | None = None) -> Casino | None:
    """The casino a bundle is for: the one named, or the only one there is (None while there
    is no casino at all: UTC days, the audit log's events only)."""
    if casino_id is not None:
        casino = Casino.objects.filter(pk=casino_id).first()
        if casino is None:
            raise ValidationFailed(f"no casino {casino_id}")
        return casino
    casinos = list(Casino.objects.order_by("pk")[:2])
    if len(casinos) > 1:
        raise ValidationFailed("a bundle is one casino's gaming day: name the casino")
    return casinos[0] if casinos else None


NO_CASINO = "utc"  # the bundle directory's name while there is no casino


def export_calendars() -> list[tuple[str, ShiftCalendar, int | None]]:
    """(directory name, calendar, casino id) of every casino's bundles, by code; one of UTC
    days while there is no casino."""
    calendars = shift_calendars()
    casinos = Casino.objects.order_by("code").values_list("code", "pk")
    return [(code, calendars[pk], pk) for code, pk in casinos] or [
        (NO_CASINO, ShiftCalendar("UTC"), None)
    ]


def bundle_dir(name: str, day: date) -> Path:
    """Where the task writes (and retention looks for) a casino's bundle of ``day``."""
    return Path(settings.AUDIT_EXPORT_DIR) / name / day.isoformat()


def audit_day_export(*, day: date, out: Path, casino_id: int | None = None) -> dict[str, Any]:
    """Write the bundle of the casino's gaming day ``day`` into the directory ``out`` (created;
    must be empty or new); return the manifest. ``casino_id`` may be left out where there is
    one casino. Refuses while an event of the day is not sealed yet (seal first). A day not
    over yet gives a bundle marked ``"complete": false``."""
    casino = export_casino(casino_id)
    calendar = shift_calendar(casino_id=casino.pk) if casino else ShiftCalendar("UTC")
    start, end = gaming_day_bounds(calendar, day)
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise ValidationFailed(f"{out} is not empty: a bundle is written into a new directory")
    try:
        manifest = _bundle_write(casino, calendar, day, start, end, out)
    except BaseException:
        for name in (*FILES, "manifest.json"):  # no half-written bundle left behind
            (out / name).unlink(missing_ok=True)
        raise
    return manifest


def _bundle_write(
    casino: Casino | None,
    calendar: ShiftCalendar,
    day: date,
    start: datetime,
    end: datetime,
    out: Path,
) -> dict[str, Any]:
    outermost = not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        if outermost:  # one snapshot for the seals, the events and the rest
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        digest_session(cursor)
        seals = _day_seals(start, end)
        files = {
            "seals.jsonl": _write(out / "seals.jsonl", _seal_lines(seals)),
            "events.jsonl": _write(out / "events.jsonl", _event_lines(cursor, seals)),
        }
        tables = _casino_tables(casino)
        shoes, rounds = _day_rounds(casino, start, end)
        files["shoes.jsonl"] = _write(out / "shoes.jsonl", (_shoe_line(s) for s in shoes))
        files["rounds.jsonl"] = _write(out / "rounds.jsonl", (_round_line(r) for r in rounds))
        ledger = _ledger_lines(casino, tables, day, start, end)
        files["ledger_totals.jsonl"] = _write(
            out / "ledger_totals.jsonl", ledger, line_digests=True
        )
        day_events = AuditEvent.objects.filter(occurred_at__gte=start, occurred_at__lt=end)
        manifest: dict[str, Any] = {
            "format": BUNDLE_FORMAT,
            "casino": casino
            and {
                "id": casino.pk,
                "code": casino.code,
                "time_zone": casino.time_zone,
                # Round events carry no casino id: the verifier tells the casino's rounds by these.
                "tables": tables,
            },
            "gaming_day": day.isoformat(),
            "period": {
                "start": start.isoformat(),
                "end": end.isoformat(),
                "local_start": start.astimezone(calendar.zone).isoformat(),
                "local_end": end.astimezone(calendar.zone).isoformat(),
                "hours": (end - start) / timedelta(hours=1),
            },
            "generated_at": timezone.now().isoformat(),
            "complete": end <= timezone.now(),
            "software_version": software_version(),
            "canonicalization": "RFC 8785",
            "digest_format": DIGEST_FORMAT,
            "digest_columns": list(DIGEST_COLUMNS),
            "chain": {
                "first_seq": seals[0].seq if seals else 0,
                "last_seq": seals[-1].seq if seals else 0,
                "prev_hash": seals[0].prev_hash if seals else "",
                "events": sum(seal.event_count for seal in seals),
                "day_events": day_events.count(),
            },
            "head": audit_head_export(),
            "files": files,
            "keys": signing.public_keys(),
            "algorithm": signing.ALGORITHM,
            "key_id": signing.key_id(),
        }
    manifest["signature"] = signing.sign(jcs(manifest))
    _write_atomic(out / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def _day_seals(start: datetime, end: datetime) -> list[AuditSeal]:
    """Every seal holding an event of [start, end), in chain order; refuses unsealed ones."""
    day = AuditEvent.objects.filter(occurred_at__gte=start, occurred_at__lt=end)
    low = day.order_by("txid", "id").values_list("txid", "id").first()
    if low is None:
        return []
    first_key, last_key = low, day.order_by("-txid", "-id").values_list("txid", "id").first()
    head = AuditSeal.objects.order_by("-seq").values_list("last_txid", "last_event_id").first()
    if head is None or tuple(head) < last_key:
        raise ValidationFailed(
            "events of the day are not sealed yet: run audit_seal (or wait for the task) first"
        )
    after = Q(last_txid__gt=first_key[0]) | Q(
        last_txid=first_key[0], last_event_id__gte=first_key[1]
    )
    upto = Q(first_txid__lt=last_key[0]) | Q(
        first_txid=last_key[0], first_event_id__lte=last_key[1]
    )
    return list(AuditSeal.objects.filter(after & upto).order_by("seq"))


def _seal_lines(seals: list[AuditSeal]):
    for seal in seals:
        yield {
            "seq": seal.seq,
            "scheme": seal.scheme,
            "header": seal_header_fields(seal),
            "chain_hash": seal.chain_hash,
            "key_id": seal.key_id,
            "signature": seal.signature,
            "event_ids": list(unpack_ids(bytes(seal.event_ids))),
            "event_digests": base64.b64encode(bytes(seal.event_digests)).decode("ascii"),
        }


def _event_lines(cursor, seals: list[AuditSeal]):
    if not seals:
        return
    previous = AuditSeal.objects.filter(seq=seals[0].seq - 1).first()
    after = (previous.last_txid, previous.last_event_id) if previous else BEFORE_FIRST
    through = (seals[-1].last_txid, seals[-1].last_event_id)
    for line in event_lines(cursor, after=after, through=through):
        row = line.decode("utf-8")
        yield {**row_fields(row), "row": row}


def _casino_tables(casino: Casino | None) -> list[int]:
    """The ids of the casino's tables, whose rounds and accounting the bundle holds."""
    if casino is None:
        return []
    return list(
        Table.objects.filter(casino_id=casino.pk).order_by("pk").values_list("pk", flat=True)
    )


def _day_rounds(
    casino: Casino | None, start: datetime, end: datetime
) -> tuple[list[Shoe], list[Round]]:
    """The casino's rounds finished (settled or voided) in the day, and the shoes they were
    dealt from (none without a casino)."""
    if casino is None:
        return [], []
    rounds = list(
        Round.objects.filter(
            table__casino_id=casino.pk,
            finished_at__gte=start,
            finished_at__lt=end,
            phase__in=[Round.Phase.SETTLED, Round.Phase.VOIDED],
        )
        .select_related("table", "rule_set", "payout_schedule")
        .order_by("finished_at", "id")
    )
    engine_events: dict[int, list[dict]] = {}
    for event in RoundEvent.objects.filter(round__in=rounds, kind="engine").order_by(
        *RoundEvent.FOLD_ORDER
    ):
        engine_events.setdefault(event.round_id, []).append(
            {"seq": event.seq, "type": event.type, "payload": event.payload, "actor": event.actor}
        )
    for rnd in rounds:
        rnd.engine_events = engine_events.get(rnd.pk, [])
    shoe_ids = {rnd.shoe_id for rnd in rounds if rnd.shoe_id}
    shoes = list(Shoe.objects.filter(pk__in=shoe_ids).prefetch_related("shuffles").order_by("id"))
    return shoes, rounds


def _shoe_line(shoe: Shoe) -> dict[str, Any]:
    return {
        "shoe_id": shoe.pk,
        "table_id": shoe.table_id,
        "source": shoe.source,
        "decks": shoe.decks,
        "deck_kind": shoe.deck_kind,
        "device_id": shoe.device_id,
        "created_at": shoe.created_at.isoformat(),
        "retired_at": shoe.retired_at.isoformat() if shoe.retired_at else None,
        "verified_at_retirement": shoe.verified,
        "shuffles": [_shuffle_proof(shoe, shuffle) for shuffle in shoe.shuffles.all()],
    }


def _shuffle_proof(shoe: Shoe, shuffle) -> dict[str, Any]:
    """A shuffle's commitment and, once revealed, the order and salt that must hash to it."""
    proof: dict[str, Any] = {
        "number": shuffle.number,
        "method": shuffle.method,
        "device_id": shuffle.device_id or shoe.device_id,
        "commitment": shuffle.commitment,
        "committed_at": shuffle.created_at.isoformat(),
        "cards": shuffle.cards,
        "revealed_at": shuffle.revealed_at.isoformat() if shuffle.revealed_at else None,
        "revealed_order": None,
        "salt": None,
    }
    if shoe.source == Shoe.Source.READER:
        proof["status"] = "reader shoe: the order is kept by the shuffler device"
    elif shuffle.revealed_at is None:
        proof["status"] = "sealed: revealed when the shoe is retired"
    else:
        codes = [eng.parse_card(code).code for code in shuffle.sealed_order]
        proof.update(revealed_order=codes, salt=shuffle.salt)
        ok = eng.verify_commitment(codes, shuffle.salt, shuffle.commitment)
        proof["status"] = "verified" if ok else "COMMITMENT MISMATCH"
    return proof


def _round_line(rnd: Round) -> dict[str, Any]:
    return {
        "round_id": rnd.pk,
        "table_id": rnd.table_id,
        "table": rnd.table.code,
        "number": rnd.number,
        "phase": rnd.phase,
        "currency": rnd.currency,
        "rule_set_id": rnd.rule_set_id,
        "payout_schedule_id": rnd.payout_schedule_id,
        "card_source": rnd.card_source,
        "shoe_id": rnd.shoe_id,
        "opened_at": rnd.opened_at.isoformat(),
        "finished_at": rnd.finished_at.isoformat() if rnd.finished_at else None,
        "ledger_transaction_id": rnd.ledger_transaction_id,
        # what a replay needs: the pinned rules, the limits, the engine events; and its result
        "rule_set": rnd.rule_set.document,
        "payout_schedule": rnd.payout_schedule.document,
        "limits": rnd.limits,
        "engine_events": rnd.engine_events,
        "settlement": rnd.settlement,
    }


def _ledger_lines(
    casino: Casino | None, tables: list[int], day: date, start: datetime, end: datetime
):
    """The ledger's table accounting for the casino's gaming day, per table and currency
    (integer minor units): legs posted in [start, end), the day as one span of a shift grid;
    and the ids of the transactions it sums, whose sealed audit events let the verifier
    re-derive it (their ``occurred_at`` is not the posting time, so the day's events alone
    would not say which postings fall in the day)."""
    if casino is None:
        return
    grid = ShiftGrid(
        table_casino=dict.fromkeys(tables, casino.pk),
        spans=[(casino.pk, day, "gaming-day", start, end)],
    )
    rows = table_accounting(group_by=["table"], filters=AccountingFilter(), shifts=grid)
    transactions = _ledger_transactions(tables, start, end)
    for row in rows:
        line = {
            key: (str(value) if key == "hold_pct" and value is not None else value)
            for key, value in row.items()
        }
        line["transactions"] = transactions.get((row["table"], row["currency"]), [])
        yield line


def _ledger_transactions(
    tables: list[int], start: datetime, end: datetime
) -> dict[tuple[int, str], list[int]]:
    """Per (table, currency), the transactions whose legs ``table_accounting`` sums (wallet
    legs of stakes, refunds, payouts and bonuses posted in [start, end)), ascending."""
    legs = (
        Leg.objects.filter(
            posted_at__gte=start,
            posted_at__lt=end,
            account__kind=Account.Kind.WALLET,
            kind__in=[Leg.Kind.STAKE, Leg.Kind.STAKE_REFUND, Leg.Kind.PAYOUT, Leg.Kind.BONUS],
            transaction__table_id__in=tables,
        )
        .values_list("transaction__table_id", "currency", "transaction_id")
        .distinct()
        .order_by("transaction__table_id", "currency", "transaction_id")
    )
    out: dict[tuple[int, str], list[int]] = {}
    for table_id, currency, transaction_id in legs:
        out.setdefault((table_id, currency), []).append(transaction_id)
    return out


def _write(path: Path, records, *, line_digests: bool = False) -> dict[str, Any]:
    """Write JSON Lines; return the file's SHA-256, size and line count for the manifest, and
    with ``line_digests`` each line's SHA-256 (``line_sha256``), so the verifier can name a
    changed line of a file it cannot otherwise tie to sealed events line by line."""
    sha256, size, lines, digests = hashlib.sha256(), 0, 0, []
    with path.open("wb") as handle:
        for record in records:
            data = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            handle.write(data)
            sha256.update(data)
            size += len(data)
            lines += 1
            if line_digests:
                digests.append(hashlib.sha256(data).hexdigest())
    written: dict[str, Any] = {"sha256": sha256.hexdigest(), "bytes": size, "lines": lines}
    if line_digests:
        written["line_sha256"] = digests
    return written


def _write_atomic(path: Path, text: str) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
