"""Low-level writes of the tables app's hot path: round events, a bet with its event and its
box's figures, the bet's seat (the tables counterpart of ``ledger/postings.py``).

Only ``tables/services/`` calls these; they check nothing (the services do, under the locks of
``tables/lock_objects.py``). Every round event, engine or meta, is built by ``round_event_row``
and written by ``round_event_insert``, or by ``bet_insert`` in the bet's own statement. They run
by ``casino/rows.py``: statements built once per process, prepared once per connection.
"""

from __future__ import annotations

from typing import Any

from casino.rows import (
    Along,
    model_first,
    model_insert,
    model_insert_sql,
    model_inserted,
    model_select_sql,
)
from ledger.models import Player
from tables.models import Bet, Round, RoundEvent, Seat


def round_event_row(
    rnd: Round,
    *,
    type_: str,
    payload: dict[str, Any],
    public: dict[str, Any],
    actor: str,
    seq: int | None = None,
    kind: str = "engine",
) -> RoundEvent:
    """A round event, not written yet. ``seq``: an engine event's place after the bets (bets
    and meta events have none, ``tables/models``)."""
    return RoundEvent(
        round=rnd,
        table_id=rnd.table_id,
        kind=kind,
        seq=seq,
        type=type_,
        payload=payload,
        public=public,
        actor=actor,
    )


def round_event_insert(event: RoundEvent) -> None:
    """Write ``event``; its id and ``txid`` (the live stream's key) are read back."""
    model_insert(event)


def bet_insert(bet: Bet, *, event: RoundEvent, box_update: tuple[str, list]) -> Along:
    """The statement writing the bet, its engine event and its box's new figures
    (``box_update_sql``), to be sent along the bet's stake posting (``ledger.stake_debit``)
    or on its own (``Along.run``); then ``bet_inserted``. The event's key is not read back
    (the bet wakes the streams by table)."""
    return Along(*model_insert_sql(bet, also=[model_insert_sql(event), box_update]))


def bet_inserted(bet: Bet, statement: Along) -> None:
    """The bet's id, from its sent ``bet_insert`` statement."""
    model_inserted([bet], statement.rows)


def box_update_sql(pk: int, **columns: int) -> tuple[str, list]:
    """The UPDATE of the box's figures, for ``bet_insert``."""
    sql = "UPDATE tables_box SET " + ", ".join(f"{name} = %s" for name in columns)
    return sql + " WHERE id = %s", [*columns.values(), pk]


def seat_for_bet(*, table_id: int, player: Player) -> int:
    """The id of the player's seat at the table, taken now if they have none.

    The player's bets are serialised by their wallet's lock: nobody else seats this player at
    this table now, so a plain get-then-create does (without get_or_create's savepoint round
    trips). (At most one such seat: seat_one_per_player_per_table.)"""
    sql = model_select_sql(Seat, "table_id = %s AND player_id = %s AND left_at IS NULL")
    seat = model_first(Seat, sql, [table_id, player.pk])
    if seat is None:
        seat = Seat(table_id=table_id, player=player, left_at=None)
        model_insert(seat)
    return seat.pk
