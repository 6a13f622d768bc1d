"""The bet placement hot path (``POST /api/v1/rounds/{id}/bets/``, bench/bets_http.py).

An upper bound on its SQL statements, so that a change adding round trips per bet fails here,
and the invariants the fast path keeps: the bet row, its engine event, its stake debit and its
audit events are written together, and a refusal leaves nothing behind, also when the caller's
transaction carries on (bet placement joins it without a savepoint)."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from casino.api import roles
from casino.rows import _preparing
from ledger.errors import InsufficientFunds
from ledger.models import Leg, Transaction
from tables.errors import BettingClosed
from tables.models import Bet, Box, RoundEvent, Seat
from tables.services._common import STREAM_NOTIFY_SQL
from tests.factories import funded_player, live_table

from .conftest import ACTOR, balance, bet

# Round trips per bet through the API, BEGIN and COMMIT included (was 24 behind / 30 for a
# box's controller, then 15 / 19, 13 / 17, 12 / 14, 10 / 12): credential, idempotency lock and
# lookup (one round trip), player, round (share lock), wallet and box locks (one round trip, the
# box's figures with it), the bet with its round event and the box's new figures (one INSERT)
# sent with the stake posting (transaction + legs), the 2 audit events with the idempotency
# record (one INSERT). The round's row is not written.
MAX_QUERIES_BEHIND = 9
MAX_QUERIES_CONTROLLER = 11  # + its seat, found or created


@pytest.fixture
def table(db):
    """The table the ``dealer_device`` token is bound to: a reader-fed Crown table."""
    return live_table("crown")


def _row_version(round_id: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT xmin::text FROM tables_round WHERE id = %s", [round_id])
        return cursor.fetchone()[0]


def _bet(client, rid, data, key):
    return client.post(f"/api/v1/rounds/{rid}/bets/", data, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.django_db(transaction=True)  # real BEGIN/COMMIT, no test savepoints in the count
def test_statements_per_bet(client_for, table, operator, settings):
    # The bet's own statements: the throttle's counters live in the shared cache, which is
    # Redis in production (CACHE_URL) and a database table only in the embedded default.
    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    settings.CACHES = {"default": local, "process": local}
    device = client_for(roles.DEALER_DEVICE)
    integration = client_for(roles.OPERATOR_INTEGRATION)
    players = [funded_player(10**6, operator=operator) for _ in range(4)]
    rid = device.post(f"/api/v1/tables/{table.pk}/rounds/", format="json").json()["id"]
    first = {"player_id": players[0].pk, "box": 1, "stake": 100}
    assert _bet(integration, rid, first, "warm").status_code == 201  # first use: caches etc.
    for n, (player, box, behind, bound) in enumerate(
        [
            (players[3], 2, False, MAX_QUERIES_CONTROLLER),
            (players[1], 1, True, MAX_QUERIES_BEHIND),
            (players[2], 2, True, MAX_QUERIES_BEHIND),
        ]
    ):
        data = {"player_id": player.pk, "box": box, "stake": 100, "behind": behind}
        version = _row_version(rid)
        with CaptureQueriesContext(connection) as ctx:
            response = _bet(integration, rid, data, f"k{n}")
        assert response.status_code == 201, response.json()
        assert _row_version(rid) == version  # the round's row (and cached state) not rewritten
        statements = [q["sql"] for q in ctx.captured_queries]
        # After the commit, outside the bet's transaction: one NOTIFY wakes the table's streams.
        notifying = _preparing(STREAM_NOTIFY_SQL)[0]  # a prepared statement, sent by its name
        [notify] = [s for s in statements if notifying in s]
        assert statements.index(notify) > statements.index("COMMIT")
        statements.remove(notify)
        assert len(statements) <= bound, "\n".join(s[:120] for s in statements)
        assert not any("SAVEPOINT" in s for s in statements)
        ref = response.json()["id"]
        placed = Bet.objects.get(ref=ref)
        assert placed.staked_total == 100
        assert RoundEvent.objects.filter(round_id=rid, type="bet_placed", payload__bet_id=ref)
        assert Leg.objects.filter(bet_ref=ref, kind="stake").count() == 2
        assert AuditEvent.objects.filter(name="ledger.stake_debited", payload__bet_ref=ref)
        assert AuditEvent.objects.filter(name="tables.round_event.bet_placed", bet_id=placed.pk)
    replay = _bet(integration, rid, data, "k2")  # same key, same request: the stored answer
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert Bet.objects.filter(round_id=rid).count() == 4
    assert balance(players[2]) == 10**6 - 100


@pytest.mark.django_db
def test_a_refusal_inside_a_transaction_writes_nothing(table):
    """Refusals come before the first write: a caller catching one inside its own transaction
    (no savepoint to roll back to) finds no bet, event, seat, posting or audit event of it."""
    from tables import services

    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    rich, poor = funded_player(10_000), funded_player(150)
    bet(rnd, rich, 1, 1000)
    counts = lambda: (  # noqa: E731
        Bet.objects.count(), RoundEvent.objects.count(), Seat.objects.count(),
        Transaction.objects.count(), AuditEvent.objects.count(),
        Box.objects.filter(seat__isnull=False).count(),
    )  # fmt: skip
    before = counts()
    with transaction.atomic():
        with pytest.raises(InsufficientFunds):
            bet(rnd, poor, 2, 1000)  # controller of a free box: the seat is checked, not taken
        with pytest.raises(InsufficientFunds):
            bet(rnd, poor, 1, 1000, behind=True)
        assert counts() == before
        bet(rnd, poor, 3, 150)  # the transaction carries on
    assert balance(poor) == 0 and Bet.objects.count() == before[0] + 1
    services.round_close_betting(actor=ACTOR, round_id=rnd.pk)
    with pytest.raises(BettingClosed):
        bet(rnd, rich, 4, 1000)
