"""Every row lock the tables app takes, named in one place.

Lock order
==========
A code path that takes more than one of these takes them in this order and never takes an
earlier one after a later one, so two actions can wait for each other but never deadlock:

0. The API's Idempotency-Key advisory lock (``casino/api/idempotency.py``), when the request
   is a money-moving POST.
1. The table row (``table_for_update``): table lifecycle, limits, dealer, opening a round,
   loading a shoe.
2. The round row (``round_for_update``): every change of a round (bets, cards, decisions,
   timers, suspension, void, settlement). Two racing transitions of one round queue on this
   lock; the second then sees the new phase and is refused with 409 (``Conflict``).
3. The round's shoe row (``shoe_for_update``): drawing or recording a card.
4. The round's open void request (``void_request_for_update``).
5. The ledger's locks, in the ledger's own order (``ledger/lock_objects.py``: the round
   advisory lock, then wallets ascending). Tables rows always come before ledger rows.

Locks are plain ``FOR UPDATE`` on single rows by primary key; a path that needs several rows of
one kind takes them ordered by ``pk``.
"""

from __future__ import annotations

from django.db.models import QuerySet

from casino.rows import model_first, model_select_sql
from tables.models import Round, Shoe, Table, VoidRequest


def table_for_update(pk: int) -> QuerySet[Table]:
    return Table.objects.select_for_update(of=("self",)).filter(pk=pk)


def round_for_update(pk: int) -> QuerySet[Round]:
    return Round.objects.select_for_update(of=("self",)).filter(pk=pk)


def round_row_for_update(pk: int) -> Round | None:
    """The round locked as by ``round_for_update``, read without compiling a queryset (the
    bet path, ``casino/rows.py``); its table is read by id when needed."""
    return model_first(Round, model_select_sql(Round, "id = %s", lock="FOR UPDATE"), [pk])


def shoe_for_update(pk: int) -> QuerySet[Shoe]:
    return Shoe.objects.select_for_update(of=("self",)).filter(pk=pk)


def void_request_for_update(round_id: int) -> QuerySet[VoidRequest]:
    """The round's open void request (at most one: ``void_one_open_request_per_round``)."""
    return VoidRequest.objects.select_for_update(of=("self",)).filter(
        round_id=round_id, status=VoidRequest.Status.REQUESTED
    )
