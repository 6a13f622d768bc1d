"""One settled, reader-fed round per preset with stacked cards (the tables tests' scenarios),
for the replay, dispute and report tests."""

from __future__ import annotations

from tables import services
from tables.models import Round
from tests.factories import funded_player, live_table
from tests.tables.conftest import dealer, decide, play_round


def _crown(table):
    a, b = funded_player(), funded_player()
    return play_round(
        table,
        [(a, 1, 1000), (b, 1, 600, True)],
        ["5S", "9H", "5C", "AD"],  # 5 5, dealer 9; double card A = 21: the dealer needs no card
        [decide(a, "double", 1000), decide(b, "match")],
    )


def _british_casino(table):
    a, b = funded_player(), funded_player()
    return play_round(
        table,
        [(a, 1, 1000), (b, 2, 1000)],
        ["AS", "7C", "9H", "KC", "9D", "8S"],  # box 1 Pontoon v dealer 9; box 2 16 v 17
        [decide(b, "stand")],
    )


def _online_8deck(table):
    a = funded_player()
    return play_round(
        table,
        [(a, 1, 1000)],
        ["2S", "9H", "3C", "KD", "2D", "4D", "5D"],  # five-card trick
        [decide(a, "hit"), decide(a, "hit"), decide(a, "hit")],
    )


def _online_2deck(table):
    a = funded_player()
    return play_round(
        table, [(a, 1, 1000)], ["AS", "9H", "AC", "9D", "KD", "QD"], [decide(a, "split")]
    )


def _traditional(table):
    a = funded_player()
    return play_round(
        table,
        [(a, 1, 0)],  # joins the box; the stake comes after the first card
        ["KS", "KH", "7C", "6D", "QC"],
        [decide(a, "stake", 500), decide(a, "stand"), dealer("hit")],
    )


SCENARIOS = {
    "crown": _crown,
    "british_casino": _british_casino,
    "online_8deck": _online_8deck,
    "online_2deck": _online_2deck,
    "traditional": _traditional,
}


def settled_round(preset: str, table=None) -> Round:
    """Play the preset's stacked round on ``table`` (a new live table by default), settle it."""
    table = table or live_table(preset)
    rnd = SCENARIOS[preset](table)
    assert services.round_settle(round_id=rnd.pk) == Round.Phase.SETTLED
    return Round.objects.get(pk=rnd.pk)


def payout_skim(rnd: Round, bet_ref: str, amount: int) -> None:
    """A privileged attacker moves ``amount`` of a bet's payout leg to the house's payout leg:
    the transaction still balances, the append-only triggers are bypassed (replica role),
    and the role is restored afterwards so later writes in the test fire their triggers."""
    from django.db import connection

    from ledger.models import Leg

    txn = rnd.ledger_transaction_id
    leg = Leg.objects.get(transaction_id=txn, bet_ref=bet_ref, kind="payout")
    house = Leg.objects.get(transaction_id=txn, account__kind="house", kind="payout")
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            cursor.execute(
                "UPDATE ledger_leg SET amount = amount - %s WHERE id = %s", [amount, leg.pk]
            )
            cursor.execute(
                "UPDATE ledger_leg SET amount = amount + %s WHERE id = %s", [amount, house.pk]
            )
        finally:
            cursor.execute("SET session_replication_role = origin")
