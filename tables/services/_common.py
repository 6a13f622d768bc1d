"""Helpers shared by the tables services: row locks, after-commit task sends, FSM moves and the
round's live stream."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django_fsm import can_proceed

from casino.actors import Actor
from casino.errors import NotFound
from casino.rows import execute_prepared, model_remember
from tables import lock_objects, writes
from tables.errors import RoundHeld, RoundSuspended, WrongPhase
from tables.models import Box, Round, RoundEvent, Table, VoidRequest

log = logging.getLogger(__name__)

Phase = Round.Phase
_ROUND_COLUMNS = [
    f.attname for f in Round._meta.concrete_fields if not f.primary_key and f.name != "state"
]


def enqueue(task_name: str, args: list, *, eta: datetime | None = None) -> None:
    """Send a task after commit. A broker failure is logged, not raised: the work committed,
    and ``timers_sweep`` finds what a lost message left undone."""

    def send() -> None:
        from casino.celery import app

        try:
            app.send_task(task_name, args=args, eta=eta)
        except Exception:
            log.warning(
                "could not enqueue %s%s; the sweep will recover it", task_name, args, exc_info=True
            )

    transaction.on_commit(send)


def transition(obj, name: str, what: str) -> None:
    method = getattr(obj, name)
    if not can_proceed(method):
        field = "status" if isinstance(obj, Table) else "phase"
        raise WrongPhase(f"Can't {what}: it is {getattr(obj, field)}.")
    method()


def table_locked(table_id: int) -> Table:
    table = lock_objects.table_for_update(table_id).first()
    if table is None:
        raise NotFound(f"Table {table_id} does not exist.")
    return table


def round_locked(round_id: int, *, table_id: int | None = None) -> Round:
    rnd = lock_objects.round_for_update(round_id).select_related("table").first()
    if rnd is None or (table_id is not None and rnd.table_id != table_id):
        raise NotFound(f"Round {round_id} does not exist.")
    return columns_remember(rnd)


def columns_remember(rnd: Round) -> Round:
    """Note the locked round's columns as read, so that ``RoundDriver.finish`` writes back only
    those that changed and the state (not the whole row, by a statement built once: fewer
    bytes, no compilation of a 25-column UPDATE per bet). Nobody else changes the row while we
    hold its lock."""
    model_remember(rnd, _ROUND_COLUMNS)
    return rnd


def live_check(rnd: Round) -> None:
    if rnd.phase not in Round.LIVE:
        raise WrongPhase(f"Round {rnd.pk} is {rnd.phase}; nothing more can happen in it.")
    hold_check(rnd)
    if rnd.suspended_reason:
        raise RoundSuspended(
            f"Round {rnd.pk} is suspended ({rnd.suspended_reason}); the pit must resume or void it."
        )


STREAM_NOTIFY_SQL = "SELECT pg_notify('tables_round_events', %s)"


class _StreamWake:
    """The live streams' wake-up (``tables/streams.py``): once the transaction has committed,
    one NOTIFY per table with the newest key it wrote. Sent after the commit, in a statement of
    its own: a NOTIFY inside the writing transaction would hold PostgreSQL's notify lock across
    the commit's WAL flush and serialize every bet's commit (measured: README "Live streams")."""

    def __init__(self, table_id: int):
        self.table_id = table_id
        self.key = (0, 0)
        # A robust on_commit hook that fails (the connection dropped after the commit) is
        # logged by Django under its ``__qualname__``: without one the log call itself raised
        # and the committed request answered 500.
        self.__qualname__ = f"stream wake of table {table_id}"

    def __call__(self) -> None:
        with connection.cursor() as cursor:
            execute_prepared(
                cursor, STREAM_NOTIFY_SQL, [f"{self.table_id} {self.key[0]} {self.key[1]}"]
            )


def stream_wake(event: RoundEvent | None, *, table_id: int | None = None) -> None:
    """Wake the table's streams when this transaction commits (once per transaction). A bet's
    event is written by the bet's one INSERT, which does not read its key back: it wakes with
    ``table_id`` only, and the streams read what has committed (a bet an older transaction
    still hides goes out with the table's next wake)."""
    table_id = event.table_id if event is not None else table_id
    key = (event.txid, event.pk) if event is not None else (0, 0)
    for _, func, _ in transaction.get_connection().run_on_commit:
        if isinstance(func, _StreamWake) and func.table_id == table_id:
            func.key = max(func.key, key)
            return
    wake = _StreamWake(table_id)
    wake.key = key
    transaction.on_commit(wake, robust=True)


def hold_check(rnd: Round) -> None:
    """Refuse anything in a round a void request holds (§8), naming the request."""
    if rnd.held_since is None:
        return
    request = (
        VoidRequest.objects.filter(round_id=rnd.pk, status=VoidRequest.Status.REQUESTED)
        .only("pk", "expires_at")
        .first()
    )
    named = "a void request"
    if request is not None:
        named = f"void request {request.pk}, expiring {request.expires_at:%H:%M:%S} UTC"
    raise RoundHeld(
        f"Round {rnd.pk} is on hold for {named}: nothing happens in it until the request is "
        "approved, rejected, cancelled or expires."
    )


def meta_event(rnd: Round, type_: str, payload: dict[str, Any], actor: Actor) -> None:
    """A non-engine entry of the round's live stream (opened, suspended, revealed, settled)."""
    event = writes.round_event_row(
        rnd,
        kind="meta",
        type_=type_,
        payload=payload,
        public={"type": type_, **payload},
        actor=actor.describe(),
    )
    writes.round_event_insert(event)
    stream_wake(event)


def boxes_ensure(table: Table, count: int) -> None:
    Box.objects.bulk_create(
        [Box(table=table, number=n) for n in range(1, count + 1)], ignore_conflicts=True
    )
