"""Reads of the tables app: tables, rounds, the engine state of a round, public round views.

The engine state of a round is ``Round.state`` (a cache written with every event) or, when the
cache is missing or stale, the fold of the round's ``RoundEvent`` rows: crash recovery, replay
and the cache are the same fold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from casino.errors import NotFound
from ledger.models import Transaction
from ledger.selectors import ShiftGrid
from tables import engine as eng
from tables import visibility
from tables.models import (
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
    # 10,000-bet round has ~10,300 events, folded at settlement.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(json_agg(payload ORDER BY seq), '[]') FROM tables_roundevent "
            "WHERE round_id = %s AND kind = 'engine'",
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
    """The round's current engine state: the cache when it is current, else the replay."""
    cached = rnd.state
    if cached and cached.get("events") == rnd.seq:
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


def table_list(*, table_id: int | None = None) -> QuerySet[Table]:
    """Tables visible to the caller (a dealer device sees its own table only)."""
    qs = Table.objects.select_related("casino", "pit", "rule_set", "payout_schedule")
    if table_id is not None:
        qs = qs.filter(pk=table_id)
    return qs.order_by("code")


def table_get(*, pk: int, table_id: int | None = None) -> Table:
    table = table_list(table_id=table_id).filter(pk=pk).first()
    if table is None:
        raise NotFound(f"Table {pk} does not exist.")
    return table


def round_get(*, pk: int, table_id: int | None = None) -> Round:
    qs = Round.objects.select_related("table", "rule_set", "payout_schedule").filter(pk=pk)
    if table_id is not None:
        qs = qs.filter(table_id=table_id)
    rnd = qs.first()
    if rnd is None:
        raise NotFound(f"Round {pk} does not exist.")
    return rnd


def round_current(*, table: Table) -> Round | None:
    """The table's live round, else its latest one."""
    return (
        Round.objects.select_related("table", "rule_set", "payout_schedule")
        .filter(table=table)
        .order_by("-number")
        .first()
    )


def round_events_after(
    *, table_id: int, after: tuple[int, int], limit: int = 100
) -> list[RoundEvent]:
    """The table's stream after the key ``after = (txid, id)``, in key order, up to the rows of
    finished transactions only (below the snapshot's xmin: no row with a smaller key can commit
    later), plus the caller's own transaction's rows."""
    return list(
        RoundEvent.objects.filter(table_id=table_id)
        .extra(
            where=[
                "(txid, id) > (%s, %s)",
                "(txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint"
                " OR txid = pg_current_xact_id_if_assigned()::text::bigint)",
            ],
            params=[after[0], after[1]],
        )
        .order_by("txid", "id")[:limit]
    )


def caller_actions(state: eng.RoundState, *, player_id: int | None) -> list[dict[str, Any]]:
    """The legal actions of ``player_id`` now: [{action, bet_id, amount_min, amount_max}]."""
    if player_id is None:
        return []
    turn = state.turn()
    if turn is None or turn[0] == "dealer":
        return []
    me = str(player_id)
    out = []
    if turn[0] == "hand":
        box = state.boxes[turn[1]]
        if box.controller != me:
            return []
        for action in state.legal_actions():
            rng = state.amount_range(action)
            out.append(_action(action, box.bet_ids[0], rng))
        return out
    for bet_id in turn[-1]:
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


def round_public_state(rnd: Round, *, player_id: int | None = None) -> dict[str, Any]:
    """What the table shows: cards (face-down cards hidden, a box's own player sees its own),
    whose turn, timers, and the caller's legal actions (``player_id``: the player the operator
    asks for)."""
    state = round_state(rnd)
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
                "player_id": int(state.bets[k].player_id),
                "stake": state.bets[k].stake,
                "behind": state.bets[k].behind,
                "insurance": state.bets[k].insurance,
                "withdrawn": state.bets[k].withdrawn,
            }
            for k in box.bet_ids
        ]
        boxes.append(
            {"number": number, "controller": int(box.controller), "bets": bets, "hands": hands}
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
               interval '0'))::bigint, coalesce(rounds.rounds, 0), coalesce(rounds.hands, 0),
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
                "minutes_dealt": seconds // 60,
                "rounds": rounds,
                "rounds_per_hour": per_hour,
                "hands": hands,
                "voids": voids,
                "reader_errors": reader_errors,
            }
        )
    return out
