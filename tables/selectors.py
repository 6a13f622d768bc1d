"""Reads of the tables app: tables, rounds, the engine state of a round, public round views.

The engine state of a round is ``Round.state`` (a cache written with every event but bets) or,
when the cache is missing or stale, or the round still takes bets, the fold of the round's
``RoundEvent`` rows: crash recovery, replay and the cache are the same fold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from casino.api import roles
from casino.errors import NotFound
from ledger.models import Transaction
from ledger.selectors import ShiftGrid
from tables import engine as eng
from tables import visibility
from tables.models import (
    Bet,
    Casino,
    DealerAssignment,
    DealerBreak,
    Round,
    RoundEvent,
    ShiftPlan,
    Table,
    VoidRequest,
)
from tables.shifts import Plan, ShiftCalendar, ShiftSpan


def round_state_replay(rnd: Round) -> eng.RoundState:
    """The round's state rebuilt from its persisted engine events (the source of truth)."""
    # One JSON array parsed at once instead of a row (and a json.loads) per event: a
    # 10,000-bet round has ~10,300 events, folded at settlement. The bets come first, in the
    # order they were written (they have no seq: ``tables/services/bets.py``; a bet's box and
    # player facts were read under locks that its predecessors in this order had released).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(json_agg(payload ORDER BY seq NULLS FIRST, id), '[]') "
            "FROM tables_roundevent WHERE round_id = %s AND kind = 'engine'",
            [rnd.pk],
        )
        payloads = cursor.fetchone()[0]
    if isinstance(payloads, str | bytes):
        payloads = json.loads(payloads)
    return eng.fold(
        eng.RuleSet.from_json(rnd.rule_set.document),
        eng.PayoutSchedule.from_json(rnd.payout_schedule.document),
        [eng.event_from_json(p) for p in payloads],
        eng.TableLimits(**rnd.limits),
    )


def round_state(rnd: Round) -> eng.RoundState:
    """The round's current engine state: the cache when it is current, else the replay (always
    while betting is open: bets don't update the cache)."""
    cached = rnd.state
    if cached and cached.get("events") == rnd.seq and rnd.phase != Round.Phase.OPEN:
        return eng.RoundState.from_json(cached)
    return round_state_replay(rnd)


def bet_outcomes(rnd: Round) -> dict[str, tuple[int, str]]:
    """Per bet ref: what the round's settlement (or void) paid it and its lines' results, read
    from the round's settlement record; empty until the round is settled or voided."""
    paid: dict[str, int] = {}
    results: dict[str, list[str]] = {}
    for line in (rnd.settlement or {}).get("lines", []):
        paid[line["bet_id"]] = paid.get(line["bet_id"], 0) + line["paid"]
        results.setdefault(line["bet_id"], []).append(line["result"])
    return {ref: (amount, ",".join(results[ref])) for ref, amount in paid.items()}


def table_list(*, table_id: int | None = None, sandbox: bool | None = None) -> QuerySet[Table]:
    """Tables visible to the caller (a dealer device sees its own table only; a sandbox
    operator's key only sandbox tables, a live one's only live tables: ``sandbox``, from
    ``request_scope(request).sandbox``)."""
    qs = Table.objects.select_related("casino", "pit", "rule_set", "payout_schedule")
    if table_id is not None:
        qs = qs.filter(pk=table_id)
    if sandbox is not None:
        qs = qs.filter(sandbox__isnull=not sandbox)
    return qs.order_by("code")


def table_list_with_current_round(
    *, table_id: int | None = None, sandbox: bool | None = None
) -> QuerySet[Table]:
    """``table_list`` with each table's ``current_round_id`` (the round ``round_current``
    gives) read in the same query: a page of tables is one statement, not one per table."""
    latest = Round.objects.filter(table=OuterRef("pk")).order_by("-number").values("pk")[:1]
    return table_list(table_id=table_id, sandbox=sandbox).annotate(
        current_round_id=Subquery(latest)
    )


def round_current_id(*, table_id: int) -> int | None:
    return (
        Round.objects.filter(table_id=table_id)
        .order_by("-number")
        .values_list("pk", flat=True)
        .first()
    )


def table_get(*, pk: int, table_id: int | None = None, sandbox: bool | None = None) -> Table:
    table = table_list(table_id=table_id, sandbox=sandbox).filter(pk=pk).first()
    if table is None:
        raise NotFound(f"Table {pk} does not exist.")
    return table


def dealer_list() -> QuerySet:
    """The staff users who may be a table's dealer of record: active, in the dealer role."""
    return get_user_model().objects.filter(is_active=True, groups__name=roles.DEALER)


def round_get(*, pk: int, table_id: int | None = None, sandbox: bool | None = None) -> Round:
    qs = Round.objects.select_related("table", "rule_set", "payout_schedule").filter(pk=pk)
    if table_id is not None:
        qs = qs.filter(table_id=table_id)
    if sandbox is not None:
        qs = qs.filter(table__sandbox__isnull=not sandbox)
    rnd = qs.first()
    if rnd is None:
        raise NotFound(f"Round {pk} does not exist.")
    return rnd


def round_sandbox(*, pk: int) -> bool | None:
    """Whether round ``pk`` is a sandbox round (casino/sandbox); None: no such round. A
    round's table, and a table's mode, never change: each process remembers the answer, so
    the bet hot path pays no query for it."""
    key = f"sandbox-round:{pk}"
    sandbox = caches["process"].get(key)
    if sandbox is None:
        rows = list(Round.objects.filter(pk=pk).values_list("table__sandbox", flat=True)[:1])
        if not rows:
            return None
        sandbox = rows[0] is not None  # the marker's key (the table's id), or no marker
        caches["process"].set(key, sandbox, 3600)
    return sandbox


def round_current(*, table: Table) -> Round | None:
    """The table's live round, else its latest one."""
    return (
        Round.objects.select_related("table", "rule_set", "payout_schedule")
        .filter(table=table)
        .order_by("-number")
        .first()
    )


# The rows of a table's stream that may be given out: those of transactions that have finished
# (no row with a smaller key can commit later), plus the caller's own. "Finished" is judged
# against the horizon: the oldest transaction id still running in this database (a row's txid
# is an xid8, a backend's xid 32 bits: widened against the snapshot's xmax, either way, as a
# transaction may start between the two reads), capped at that xmax. Transactions of other
# databases on the cluster never write these rows, so they do not hold the stream back. The
# horizon must be read in a statement BEFORE the rows: a transaction that finishes in between
# is then visible to the rows' (later) snapshot.
STREAM_HORIZON_SQL = """
SELECT least(s.n, min(s.n - CASE WHEN a.d < 2147483648 THEN a.d ELSE a.d - 4294967296 END))
FROM (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS n) s
LEFT JOIN LATERAL (
    SELECT mod(mod(s.n, 4294967296) - backend_xid::text::bigint + 4294967296, 4294967296) AS d
    FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL
) a ON true
GROUP BY s.n
"""
STREAM_FINISHED = "(txid < %s OR txid = pg_current_xact_id_if_assigned()::text::bigint)"
# The newest key that may be given out, and the newest committed one (which may still wait for
# an older transaction to finish); each an array [txid, id] or null. Parameters: table, horizon,
# table.
STREAM_HEAD_SQL = f"""
SELECT (SELECT ARRAY[txid, id] FROM tables_roundevent WHERE table_id = %s AND {STREAM_FINISHED}
        ORDER BY txid DESC, id DESC LIMIT 1),
       (SELECT ARRAY[txid, id] FROM tables_roundevent WHERE table_id = %s
        ORDER BY txid DESC, id DESC LIMIT 1)
"""


def stream_horizon() -> int:
    with connection.cursor() as cursor:
        cursor.execute(STREAM_HORIZON_SQL)
        return cursor.fetchone()[0]


def round_events_after(
    *, table_id: int, after: tuple[int, int], limit: int = 100
) -> list[RoundEvent]:
    """The table's stream after the key ``after = (txid, id)``, in key order, up to the rows of
    finished transactions only (see STREAM_HORIZON_SQL)."""
    horizon = stream_horizon()
    return list(
        RoundEvent.objects.filter(table_id=table_id)
        .extra(  # noqa: S610 - constant SQL, parameters bound
            where=["(txid, id) > (%s, %s)", STREAM_FINISHED],
            params=[after[0], after[1], horizon],
        )
        .order_by("txid", "id")[:limit]
    )


def round_events_head(*, table_id: int) -> tuple[int, int] | None:
    """The key of the table's newest event that may be given out."""
    horizon = stream_horizon()
    with connection.cursor() as cursor:
        cursor.execute(STREAM_HEAD_SQL, [table_id, horizon, table_id])
        head = cursor.fetchone()[0]
    return (int(head[0]), int(head[1])) if head else None


def caller_actions(state: eng.RoundState, *, player_id: int | None) -> list[dict[str, Any]]:
    """The legal actions of ``player_id`` now: [{action, bet_id, amount_min, amount_max}]."""
    if player_id is None:
        return []
    turn = state.turn()
    if turn is None or turn.kind == eng.TurnKind.DEALER:
        return []
    me = str(player_id)
    out = []
    if turn.kind == eng.TurnKind.HAND:
        box = state.boxes[turn.box]
        if box.controller != me:
            return []
        for action in state.legal_actions():
            rng = state.amount_range(action)
            out.append(_action(action, box.bet_ids[0], rng))
        return out
    for bet_id in turn.bets:
        if state.bets[bet_id].player_id != me:
            continue
        for action in state.legal_actions(bet_id):
            out.append(_action(action, bet_id, state.amount_range(action, bet_id)))
    return out


def _action(action: str, bet_id: str, rng) -> dict[str, Any]:
    return {
        "action": action,
        "bet_id": bet_id,
        "amount_min": rng[0] if rng else None,
        "amount_max": rng[1] if rng else None,
    }


def _player_shown(rnd: Round, operator_id: int | None):
    """An engine player id as the caller may see it: every one for casino staff and devices,
    an operator's own players only for an operator (None for the others)."""
    if operator_id is None:
        return int
    own = {
        str(pk)
        for pk in Bet.objects.filter(round=rnd, operator_id=operator_id).values_list(
            "player_id", flat=True
        )
    }
    return lambda engine_id: int(engine_id) if engine_id in own else None


def round_public_state(
    rnd: Round,
    *,
    player_id: int | None = None,
    operator_id: int | None = None,
    state: eng.RoundState | None = None,
) -> dict[str, Any]:
    """What the table shows: cards (face-down cards hidden, a box's own player sees its own),
    whose turn, timers, and the caller's legal actions (``player_id``: the player the operator
    asks for). For an operator (``operator_id``), other operators' players are anonymous:
    their bets and boxes show no player id. ``state``: the round's engine state, when the
    caller has it already."""
    state = state if state is not None else round_state(rnd)
    shown = _player_shown(rnd, operator_id)
    held = rnd.held_since is not None
    hidden = visibility.dealer_hidden(state)
    dealer_cards = [None if hidden else c.code for c in state.dealer]
    dv = state.dealer_value()
    boxes = []
    for number, box in state.boxes.items():
        hands = []
        own = player_id is not None and str(box.controller) == str(player_id)
        for index, h in enumerate(box.hands):
            v = state.value(h)
            cards = [
                None if not own and visibility.box_face_down(state, h, i) else c.code
                for i, c in enumerate(h.cards)
            ]
            covered = None in cards
            hands.append(
                {
                    "index": index,
                    "cards": cards,
                    # positions of the cards the rules dealt without a decision (§6, §7)
                    "forced_cards": [i for i in h.forced_cards if i < len(h.cards)],
                    "total": None if covered else v.total,
                    "soft": v.soft and not covered,
                    "status": h.status,
                    "doubles": h.doubles,
                    "split": h.split,
                    "stakes": {k: s[0] + s[1] for k, s in h.stakes.items()},
                }
            )
        bets = [
            {
                "bet_id": k,
                "player_id": shown(state.bets[k].player_id),
                "stake": state.bets[k].stake,
                "behind": state.bets[k].behind,
                "insurance": state.bets[k].insurance,
                "withdrawn": state.bets[k].withdrawn,
            }
            for k in box.bet_ids
        ]
        boxes.append(
            {"number": number, "controller": shown(box.controller), "bets": bets, "hands": hands}
        )
    return {
        "round_id": rnd.pk,
        "table_id": rnd.table_id,
        "number": rnd.number,
        "phase": rnd.phase,
        "engine_phase": state.phase,
        "seq": rnd.seq,
        "suspended_reason": rnd.suspended_reason,
        "currency": rnd.currency,
        "rule_set": f"{rnd.rule_set.name} v{rnd.rule_set.version}",
        "payout_schedule": f"{rnd.payout_schedule.name} v{rnd.payout_schedule.version}",
        "dealer": {
            "cards": dealer_cards,
            "total": None if hidden or not state.dealer else dv.total,
        },
        "boxes": boxes,
        "turn": visibility.turn_json(state),
        "next_card": visibility.target_json(
            state.next_card_target(), forced=state.next_card_forced()
        ),
        "held": held,
        "void_request": _void_request_state(rnd),
        # nothing is legal while a void request holds the round
        "your_actions": [] if held else caller_actions(state, player_id=player_id),
        "betting_closes_at": rnd.betting_closes_at,
        "decision_deadline": rnd.decision_deadline,
    }


COMMITMENT_ALGORITHM = "sha256 of the card codes in order, then the salt (hex)"


def shoe_proof(shoe) -> dict[str, Any]:
    """The evidence that a shoe's cards were genuine, as plain data (replay, shoe page, export).

    Per shuffle: the commitment and when it was recorded (the shuffle row and its audit event),
    when the first card after it was dealt (the commitment must come first), and, once the shoe
    is retired, the revealed order and salt re-verified here against the commitment (not the
    flag stored at retirement). A reader-fed shoe reveals nothing: its cards were checked
    against the shoe's composition as they were read; its shuffler's commitment, if it sent
    one, is shown as recorded.
    """
    from audit.models import AuditEvent

    shuffled = {
        e.payload.get("shuffle"): e
        for e in AuditEvent.objects.filter(
            name="tables.shoe_shuffled", table_id=shoe.table_id, payload__shoe_id=shoe.pk
        ).order_by("id")
    }
    cards = RoundEvent.objects.filter(round__shoe_id=shoe.pk, type="card_dealt", kind="engine")
    shuffles = []
    all_verified = True
    for shuffle in shoe.shuffles.order_by("number"):
        audit = shuffled.get(shuffle.number)
        first = cards.filter(created_at__gte=shuffle.created_at).order_by("id").first()
        revealed = shuffle.revealed_at is not None and bool(shuffle.sealed_order)
        verified = (
            eng.verify_commitment(shuffle.sealed_order, shuffle.salt, shuffle.commitment)
            if revealed
            else None
        )
        all_verified = all_verified and verified is True
        shuffles.append(
            {
                "number": shuffle.number,
                "method": shuffle.method,
                "device_id": shuffle.device_id,
                "cards": shuffle.cards,
                "commitment": shuffle.commitment,
                "commitment_algorithm": COMMITMENT_ALGORITHM if shuffle.salt else "",
                "committed_at": shuffle.created_at,
                "commitment_audit_event_id": audit.pk if audit else None,
                "commitment_audit_hash": audit.content_hash if audit else "",
                "first_card_at": first.created_at if first else None,
                "committed_before_first_card": first is None
                or shuffle.created_at < first.created_at,
                "revealed_at": shuffle.revealed_at,
                "salt": shuffle.salt if revealed else "",
                "order": list(shuffle.sealed_order) if revealed else [],
                "verified": verified,
            }
        )
    revealable = shoe.source == "server"
    return {
        "shoe_id": shoe.pk,
        "table_id": shoe.table_id,
        "source": shoe.source,
        "deck_kind": shoe.deck_kind,
        "decks": shoe.decks,
        "cards_dealt": shoe.cards_dealt,
        "created_at": shoe.created_at,
        "retired_at": shoe.retired_at,
        "revealed": revealable and shoe.retired_at is not None,
        "verified": (all_verified and bool(shuffles)) if revealable and shoe.retired_at else None,
        "shuffles": shuffles,
    }


# --- voids -----------------------------------------------------------------------------------


def void_request_latest(rnd: Round) -> VoidRequest | None:
    """The round's latest void request (the open one while the round is held)."""
    return (
        VoidRequest.objects.filter(round=rnd)
        .select_related("requested_by", "decided_by")
        .order_by("-id")
        .first()
    )


def _void_request_state(rnd: Round) -> dict[str, Any] | None:
    """The latest void request as the table shows it (no staff identities, no notes)."""
    return (
        VoidRequest.objects.filter(round=rnd)
        .order_by("-id")
        .values("id", "status", "reason", "requested_at", "expires_at", "decided_at")
        .first()
    )


def void_request_json(request: VoidRequest | None) -> dict[str, Any] | None:
    if request is None:
        return None
    return {
        "id": request.pk,
        "round_id": request.round_id,
        "status": request.status,
        "reason": request.reason,
        "requested_by_id": request.requested_by_id,
        "requested_at": request.requested_at,
        "expires_at": request.expires_at,
        "decided_by_id": request.decided_by_id,
        "decided_at": request.decided_at,
        "decision_note": request.decision_note,
    }


def void_preview(rnd: Round) -> dict[str, Any] | None:
    """What approving a void of the round would do now (§8), read-only: the engine's
    ``settle_void`` on the round's folded events, as ``services.void_approve`` computes it.
    ``returned``: every undecided stake given back; ``standing``: every decided outcome that
    stands (busts, Pontoons and 21s decided at once, surrenders, rescues, insurance), with
    what it pays. None once the round is finished."""
    if rnd.phase not in Round.UNFINISHED:
        return None
    settlement = eng.settle_void(round_state_replay(rnd))
    players = dict(rnd.bets.values_list("ref", "player_id"))
    returned, standing = [], []
    for line in settlement.lines:
        row = {
            "bet_id": line.bet_id,
            "player_id": players.get(line.bet_id),
            "box": line.hand[0],
            "hand_index": line.hand[1],
            "result": line.result,
            "stake": line.stake,
            "paid": line.paid,
        }
        (returned if line.result == "void_returned" else standing).append(row)
    return {
        "currency": rnd.currency,
        "returned": returned,
        "standing": standing,
        "total_stake": settlement.total_stake,
        "total_returned": sum(r["paid"] for r in returned),
        "total_paid": settlement.total_paid,
    }


# --- Shifts and gaming days ------------------------------------------------------------------


def _plans(plans: QuerySet[ShiftPlan]) -> dict[int, list[Plan]]:
    out: dict[int, list[Plan]] = {}
    for p in plans.prefetch_related("shifts"):
        shifts = tuple((s.name, s.starts) for s in p.shifts.all())
        if shifts:
            out.setdefault(p.casino_id, []).append(
                Plan(p.effective_from, p.gaming_day_starts, shifts)
            )
    return out


def shift_calendar(*, casino_id: int) -> ShiftCalendar:
    """The casino's calendar: its time zone and every shift plan."""
    casino = Casino.objects.only("time_zone").get(pk=casino_id)
    plans = _plans(ShiftPlan.objects.filter(casino_id=casino_id))
    return ShiftCalendar(casino.time_zone, plans.get(casino_id))


def shift_calendars() -> dict[int, ShiftCalendar]:
    """Every casino's calendar, by casino id (three queries)."""
    plans = _plans(ShiftPlan.objects.all())
    return {
        pk: ShiftCalendar(tz, plans.get(pk))
        for pk, tz in Casino.objects.values_list("pk", "time_zone")
    }


def shift_at(*, casino_id: int, instant: datetime) -> ShiftSpan:
    """The shift and gaming day containing ``instant`` at the casino."""
    return shift_calendar(casino_id=casino_id).span_at(instant)


def shift_interval(*, casino_id: int, gaming_day: date, shift: str) -> ShiftSpan:
    """The UTC interval of shift ``shift`` on gaming day ``gaming_day`` at the casino."""
    try:
        return shift_calendar(casino_id=casino_id).span_of(gaming_day, shift)
    except KeyError:
        raise NotFound(f"No shift {shift!r} on gaming day {gaming_day.isoformat()}.") from None


def shift_grid(
    *, date_from: date, date_to: date, shift: str | None = None, table_id: int | None = None
) -> ShiftGrid:
    """Gaming days ``date_from``..``date_to`` (and only shift ``shift``, when given) of every
    casino, for ``ledger.selectors.table_accounting``."""
    tables = Table.objects.all() if table_id is None else Table.objects.filter(pk=table_id)
    table_casino = dict(tables.values_list("pk", "casino_id"))
    calendars = shift_calendars()
    # No shift before the first posting or after tomorrow can hold anything: a period of
    # centuries costs no more than the ledger's life.
    first = Transaction.objects.order_by("posted_at").values_list("posted_at", flat=True).first()
    date_from = max(date_from, (first or timezone.now()).date() - timedelta(days=2))
    date_to = min(date_to, timezone.now().date() + timedelta(days=2))
    spans = [
        (casino_id, s.gaming_day, s.shift, s.start, s.end)
        for casino_id in sorted(set(table_casino.values()))
        for s in calendars[casino_id].spans_between(date_from, date_to)
        if shift is None or s.shift == shift
    ]
    return ShiftGrid(table_casino=table_casino, spans=spans)


_ROUND_DIMENSIONS = {
    "table": "r.table_id",
    "dealer": "r.dealer_id",
    "gaming_day": "s.gaming_day",
    "shift": "s.shift",
}


def round_counts(*, grid: ShiftGrid, group_by: list[str]) -> list[dict[str, Any]]:
    """Rounds finished (settled or voided) in the grid's shifts: rounds, voids and tables, by
    ``group_by`` and currency; a round counts in the shift containing its ``finished_at``, as a
    leg does in the one containing its posting (``ledger.selectors.table_accounting``)."""
    dims = [d for d in _ROUND_DIMENSIONS if d in group_by]
    columns = [list(c) for c in zip(*grid.spans, strict=True)] or [[]] * 5
    select = [f"{_ROUND_DIMENSIONS[d]} AS {d}" for d in dims]
    group = [*(_ROUND_DIMENSIONS[d] for d in dims), "r.currency"]
    sql = f"""
        SELECT {", ".join([*select, "r.currency"])}, count(*),
            count(*) FILTER (WHERE r.phase = 'voided'), count(DISTINCT r.table_id)
        FROM tables_round r
        JOIN unnest(%s::bigint[], %s::bigint[]) AS tc(table_id, casino_id)
            ON tc.table_id = r.table_id
        JOIN unnest(%s::bigint[], %s::date[], %s::text[], %s::timestamptz[], %s::timestamptz[])
            AS s(casino_id, gaming_day, shift, starts, ends)
            ON s.casino_id = tc.casino_id AND r.finished_at >= s.starts
            AND r.finished_at < s.ends
        WHERE r.phase IN ('settled', 'voided')
        GROUP BY {", ".join(group)}
    """
    params = [list(grid.table_casino), list(grid.table_casino.values()), *columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    keys = [*dims, "currency", "rounds", "voids", "tables"]
    return [dict(zip(keys, row, strict=True)) for row in rows]


# --- Dealer rotation -------------------------------------------------------------------------


@dataclass(frozen=True)
class DealerOnTable:
    table_id: int
    dealer: Any  # the user
    since: datetime
    rotation_due_at: datetime | None  # None for a table outside any pit
    break_since: datetime | None  # the dealer of record is on break


def dealers_on_tables() -> dict[int, DealerOnTable]:
    """Each table's current dealer assignment with its rotation deadline and the dealer's
    break, if any (two queries)."""
    breaks = dict(
        DealerBreak.objects.filter(ended_at__isnull=True).values_list("dealer_id", "started_at")
    )
    out = {}
    for a in DealerAssignment.objects.filter(ended_at__isnull=True).select_related(
        "dealer", "table__pit"
    ):
        pit = a.table.pit
        due = a.started_at + timedelta(minutes=pit.rotation_minutes) if pit else None
        out[a.table_id] = DealerOnTable(
            a.table_id, a.dealer, a.started_at, due, breaks.get(a.dealer_id)
        )
    return out


def dealer_figures(*, casino_id: int, gaming_day: date, shift: str) -> list[dict[str, Any]]:
    """Per dealer over one shift of the casino: time dealt, rounds finished (and per hour),
    hands, voids and card reader errors (cards refused, suspending the round), for the rounds
    the dealer was pinned on."""
    span = shift_interval(casino_id=casino_id, gaming_day=gaming_day, shift=shift)
    sql = """
        WITH dealt AS (
            SELECT a.dealer_id, sum(least(coalesce(a.ended_at, %(now)s), %(end)s)
                                  - greatest(a.started_at, %(start)s)) AS time_dealt
            FROM tables_dealerassignment a JOIN tables_table t ON t.id = a.table_id
            WHERE t.casino_id = %(casino)s AND a.started_at < %(end)s
              AND coalesce(a.ended_at, %(now)s) > %(start)s
            GROUP BY a.dealer_id
        ), rounds AS (
            SELECT r.dealer_id, count(*) AS rounds,
                   count(*) FILTER (WHERE r.phase = 'voided') AS voids,
                   coalesce(sum((SELECT count(*) FROM tables_hand h WHERE h.round_id = r.id)), 0)
                       AS hands
            FROM tables_round r JOIN tables_table t ON t.id = r.table_id
            WHERE t.casino_id = %(casino)s AND r.dealer_id IS NOT NULL
              AND r.phase IN ('settled', 'voided')
              AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
            GROUP BY r.dealer_id
        ), reader AS (
            SELECT r.dealer_id, count(*) AS reader_errors
            FROM tables_roundevent e JOIN tables_round r ON r.id = e.round_id
            JOIN tables_table t ON t.id = r.table_id
            WHERE t.casino_id = %(casino)s AND r.dealer_id IS NOT NULL
              AND e.kind = 'meta' AND e.type = 'round_suspended'
              AND coalesce(e.payload->>'card', '') <> ''
              AND e.created_at >= %(start)s AND e.created_at < %(end)s
            GROUP BY r.dealer_id
        ), dealers AS (
            SELECT dealer_id FROM dealt UNION SELECT dealer_id FROM rounds
            UNION SELECT dealer_id FROM reader
        )
        SELECT d.dealer_id, u.username, extract(epoch FROM coalesce(dealt.time_dealt,
               interval '0'))::float8, coalesce(rounds.rounds, 0), coalesce(rounds.hands, 0),
               coalesce(rounds.voids, 0), coalesce(reader.reader_errors, 0)
        FROM dealers d JOIN auth_user u ON u.id = d.dealer_id
        LEFT JOIN dealt ON dealt.dealer_id = d.dealer_id
        LEFT JOIN rounds ON rounds.dealer_id = d.dealer_id
        LEFT JOIN reader ON reader.dealer_id = d.dealer_id
        ORDER BY u.username
    """
    params = {"casino": casino_id, "start": span.start, "end": span.end, "now": timezone.now()}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out = []
    for dealer_id, username, seconds, rounds, hands, voids, reader_errors in rows:
        per_hour = round(rounds * 3600 / seconds, 1) if seconds else None
        out.append(
            {
                "dealer_id": dealer_id,
                "dealer": username,
                "minutes_dealt": int(seconds // 60),
                "rounds": rounds,
                "rounds_per_hour": per_hour,
                "hands": hands,
                "voids": voids,
                "reader_errors": reader_errors,
            }
        )
    return out
