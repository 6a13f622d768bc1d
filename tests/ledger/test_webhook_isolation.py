"""One operator's dead webhook endpoint delays no one else: real workers (the main queue's and
the webhook queue's), a real receiver and a blackhole that accepts connections and never
answers."""

import pytest
from django.db import connection

from conftest import WEBHOOK_WORKER_ENV, wait_until
from ledger import services
from ledger.models import OperatorEvent, WebhookAttempt
from tables import services as table_services
from tables.models import Round
from tests.factories import OperatorFactory, funded_player, live_table
from tests.ledger.conftest import ACTOR, fund
from tests.ledger.receivers import Blackhole, Receiver
from tests.tables.conftest import DEVICE, bet, decide, drive

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

IN_FLIGHT = 2


@pytest.fixture
def webhook_worker_env():
    # A read timeout longer than the test: the blackholed requests hang until the test ends
    # (leaving the Blackhole block closes them).
    return {
        **WEBHOOK_WORKER_ENV,
        "LEDGER_WEBHOOK_READ_TIMEOUT": "600",
        "LEDGER_WEBHOOK_MAX_IN_FLIGHT": str(IN_FLIGHT),
    }


def _round_to_settling(player):
    table = live_table("crown")
    rnd = table_services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, player, 1, 1000)
    table_services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    # crown: 5 5 doubled, A = 21 -> pays 4000 (a crown 21 needs no dealer card)
    return drive(rnd, ["5S", "9H", "5C", "AD"], [decide(player, "double", 1000)])


def _idle_in_transaction() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%%'"
        )
        return cursor.fetchone()[0]


def test_a_blackholed_endpoint_delays_no_other_operators_settlement_or_webhook(
    celery_worker, webhook_worker, settings
):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    dead, live = OperatorFactory(code="dead"), OperatorFactory(code="live")
    with Blackhole() as blackhole, Receiver() as receiver:
        services.operator_webhook_set(actor=ACTOR, operator=dead, url=blackhole.url)
        services.operator_webhook_set(actor=ACTOR, operator=live, url=receiver.url)
        dead_player = funded_player(operator=dead)
        wallet = dead_player.wallets.get()
        for _ in range(3):
            fund(wallet, 100)
        # The dead operator's deliveries hang, as many as its bound allows.
        wait_until(
            lambda: len(blackhole.accepted) == IN_FLIGHT,
            message="".join(webhook_worker.output[-30:]),
        )
        dead_round = _round_to_settling(dead_player)

        live_player = funded_player(operator=live)
        live_round = _round_to_settling(live_player)
        for rnd in (dead_round, live_round):
            wait_until(
                lambda rnd=rnd: Round.objects.get(pk=rnd.pk).phase == "settled",
                message="not settled:\n" + "".join(celery_worker.output[-30:]),
            )
        settled = OperatorEvent.objects.get(operator=live, kind="round.settled")
        wait_until(
            lambda: OperatorEvent.objects.get(pk=settled.pk).delivery == "delivered",
            message="live webhook not delivered:\n" + "".join(webhook_worker.output[-30:]),
        )
        assert {e.kind for e in OperatorEvent.objects.filter(operator=live)} == {
            "wallet.deposit",
            "round.settled",
        }
        assert not OperatorEvent.objects.filter(operator=live).exclude(delivery="delivered")
        assert len(receiver.requests) == 2

        # Meanwhile the dead endpoint's requests are still hanging: nothing delivered, no
        # attempt finished, no more in flight than the bound, and no transaction held open.
        dead_events = OperatorEvent.objects.filter(operator=dead)
        assert dead_events.count() == 5  # 4 deposits and the round's settlement
        assert set(dead_events.values_list("delivery", flat=True)) == {"pending"}
        assert dead_events.filter(claimed_until__isnull=False).count() == IN_FLIGHT
        assert not WebhookAttempt.objects.filter(event__operator=dead).exists()
        assert len(blackhole.accepted) == IN_FLIGHT
        assert _idle_in_transaction() == 0
    # The blackhole closed its connections: those attempts end as failures, logged.
    wait_until(
        lambda: WebhookAttempt.objects.filter(event__operator=dead).count() >= IN_FLIGHT,
        message="".join(webhook_worker.output[-30:]),
    )
    assert not WebhookAttempt.objects.filter(event__operator=dead, status_code__isnull=False)
