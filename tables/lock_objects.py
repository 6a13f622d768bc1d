"""Every row lock the tables app takes, named in one place.

Lock order
==========
A code path that takes more than one of these takes them in this order and never takes an
earlier one after a later one, so two actions can wait for each other but never deadlock:

0. The API's Idempotency-Key advisory lock (``casino/api/idempotency.py``), when the request
   is a money-moving POST.
1. The table row (``table_for_update``): table lifecycle, limits, dealer, opening a round,
   loading a shoe.
2. The round row (``round_for_update``): every change of a round (cards, decisions, timers,
   closing the betting, suspension, void, settlement). Two racing transitions of one round
   queue on this lock; the second then sees the new phase and is refused with 409
   (``Conflict``). A bet holds the round row in a SHARE lock only (``round_row_for_bet``):
   bets don't wait for each other on it, and anything that changes the round (closing the
   betting first of all) waits for the bets in flight.
   A bet then locks, in this order: its player's wallet (the ledger's lock, step 5, taken
   early: it serialises one player's bets, so the box's facts below are read after every other
   bet of the player has committed) and its box (``box_for_bet_statement``, in the wallet
   lock's round trip): bets on one box serialise on it, bets on other boxes don't wait.
   Nothing locks a box and then a wallet.
3. The round's shoe row (``shoe_for_update``): drawing or recording a card.
4. The round's open void request (``void_request_for_update``).
5. The ledger's locks, in the ledger's own order (``ledger/lock_objects.py``: the round
   advisory lock, then wallets ascending). Tables rows always come before ledger rows.

Locks are plain ``FOR UPDATE`` on single rows by primary key; a path that needs several rows of
one kind takes them ordered by ``pk``.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db.models import QuerySet

from casino.rows import Along, model_first, model_select_sql
from tables.models import Round, Shoe, Table, VoidRequest


def table_for_update(pk: int) -> QuerySet[Table]:
    return Table.objects.select_for_update(of=("self",)).filter(pk=pk)


def round_for_update(pk: int) -> QuerySet[Round]:
    return Round.objects.select_for_update(of=("self",)).filter(pk=pk)


ROUND_FOR_BET_FIELDS = (
    "id", "table_id", "phase", "rule_set_id", "currency", "limits", "dealer_id",
    "suspended_reason", "betting_closes_at",
)  # fmt: skip


def round_row_for_bet(pk: int) -> Round | None:
    """The round held in a SHARE lock by a bet: what a bet reads of it (not its state)."""
    if not 0 < pk < 2**63:  # no such bigint id: the ORM's lookups answer "none" the same way
        return None
    sql = model_select_sql(Round, "id = %s", lock="FOR SHARE", fields=ROUND_FOR_BET_FIELDS)
    return model_first(Round, sql, [pk], fields=ROUND_FOR_BET_FIELDS)


class BoxForBet(NamedTuple):
    """A box as a bet finds it, locked: its seat, and its bets so far in the round."""

    id: int
    seat_id: int | None
    seat_player_id: int | None  # the player of the seat, while they sit there
    round_id: int | None
    controller_id: int | None
    bets: int
    stake_total: int
    player_has_bet: bool  # the bet's player has a bet on the box in the round
    player_boxes: int  # the boxes the bet's player controls in the round


_BOX_FOR_BET_SQL = """
    SELECT b.id, b.seat_id, CASE WHEN s.left_at IS NULL THEN s.player_id END, b.round_id,
        b.controller_id, b.bets, b.stake_total,
        EXISTS (SELECT 1 FROM tables_bet
                WHERE round_id = %(round)s AND box = %(box)s AND player_id = %(player)s),
        (SELECT count(*) FROM tables_box
         WHERE table_id = %(table)s AND round_id = %(round)s AND controller_id = %(player)s)
    FROM tables_box b LEFT JOIN tables_seat s ON s.id = b.seat_id
    WHERE b.table_id = %(table)s AND b.number = %(box)s
    FOR NO KEY UPDATE OF b
"""


def box_for_bet_statement(table_id: int, number: int, *, round_id: int, player_id: int) -> Along:
    """The box locked for a bet of ``player_id`` (whose wallet the bet has locked, so none of
    the player's other bets is in flight and the player's facts are current): the statement,
    run right after the wallet's lock in the same round trip
    (``ledger.services.stake_wallet_lock(along=)``); its rows go to ``box_for_bet_row``."""
    params = {"table": table_id, "box": number, "round": round_id, "player": player_id}
    return Along(_BOX_FOR_BET_SQL, params, after=True)


def box_for_bet_row(rows: list[tuple] | None) -> BoxForBet | None:
    return BoxForBet(*rows[0]) if rows else None


def shoe_for_update(pk: int) -> QuerySet[Shoe]:
    return Shoe.objects.select_for_update(of=("self",)).filter(pk=pk)


def void_request_for_update(round_id: int) -> QuerySet[VoidRequest]:
    """The round's open void request (at most one: ``void_one_open_request_per_round``)."""
    return VoidRequest.objects.select_for_update(of=("self",)).filter(
        round_id=round_id, status=VoidRequest.Status.REQUESTED
    )
