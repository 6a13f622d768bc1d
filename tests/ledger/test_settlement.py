"""round_settlement_post: one transaction per round, exactly once, bulk."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from casino.errors import ValidationFailed
from ledger import services
from ledger.errors import StakeMismatch, WrongCurrency
from ledger.models import Account, Leg, OperatorEvent, Transaction
from ledger.selectors import ledger_reconcile, legs_total
from ledger.services import SettlementLine
from tests.factories import OperatorFactory, PlayerFactory, WalletFactory
from tests.ledger.conftest import ACTOR, fund, stake

pytestmark = pytest.mark.django_db


def _settle(table, lines, round_id=1, **extra):
    return services.round_settlement_post(
        actor=ACTOR, round_id=round_id, table_id=table.pk, currency="EUR", lines=lines, **extra
    )


@pytest.fixture
def round_with_bets(table):
    """Three wallets of two operators, each staking 100 on round 1."""
    wallets = [WalletFactory(), WalletFactory(), WalletFactory()]
    wallets[2] = WalletFactory(player=PlayerFactory(operator=wallets[0].operator))
    for index, wallet in enumerate(wallets):
        fund(wallet, 1_000)
        stake(wallet, 100, table_id=table.pk, round_id=1, bet_ref=f"b{index}")
    return wallets


def test_settlement_moves_stakes_to_house_and_pays_winners_and_bonuses(table, round_with_bets):
    w0, w1, w2 = round_with_bets
    lines = [
        SettlementLine("b0", w0.pk, stake=100, payout=200, result="win"),
        SettlementLine("b1", w1.pk, stake=100, payout=0, result="lose"),
        SettlementLine("b2", w2.pk, stake=100, payout=100, bonus=500, bonus_kind="super_bonus"),
    ]
    posting = _settle(table, lines, dealer_id=4, shift="night")
    assert posting.created
    balances = dict(Account.objects.filter(kind="wallet").values_list("pk", "balance"))
    assert [balances[w.pk] for w in (w0, w1, w2)] == [1_100, 900, 1_500]
    house = Account.objects.get(kind="house", currency="EUR")
    in_play = Account.objects.get(kind="stakes", table=table)
    pool = Account.objects.get(kind="bonus_pool", currency="EUR")
    assert (legs_total(house), legs_total(in_play), legs_total(pool)) == (0, 0, -500)
    txn = posting.transaction
    assert (txn.kind, txn.round_id, txn.dealer_id, txn.shift) == ("settlement", 1, 4, "night")
    assert ledger_reconcile() == []
    # One round.settled event per operator, each naming only its own bets.
    events = OperatorEvent.objects.filter(kind="round.settled").order_by("operator_id")
    assert sorted(len(e.payload["bets"]) for e in events) == [1, 2]
    assert AuditEvent.objects.filter(name="ledger.round_settled", round_id=1).count() == 1


def test_posting_twice_changes_nothing_and_returns_the_first(table, round_with_bets):
    w0, w1, w2 = round_with_bets
    lines = [
        SettlementLine(f"b{i}", w.pk, stake=100, payout=200) for i, w in enumerate([w0, w1, w2])
    ]
    first = _settle(table, lines)
    counts = (Transaction.objects.count(), Leg.objects.count(), OperatorEvent.objects.count())
    balances = list(Account.objects.order_by("pk").values_list("balance", flat=True))
    again = _settle(table, lines[:1])  # whatever the second run is given
    assert (again.created, again.transaction.pk) == (False, first.transaction.pk)
    assert counts == (
        Transaction.objects.count(),
        Leg.objects.count(),
        OperatorEvent.objects.count(),
    )
    assert balances == list(Account.objects.order_by("pk").values_list("balance", flat=True))


def test_stakes_must_match_the_stakes_in_play(table, round_with_bets):
    w0 = round_with_bets[0]
    with pytest.raises(StakeMismatch, match="b0: lines 150, in play 100"):
        _settle(table, [SettlementLine("b0", w0.pk, stake=150, payout=0)])
    with pytest.raises(StakeMismatch, match="never: lines 10, in play 0"):
        _settle(table, [SettlementLine("never", w0.pk, stake=10, payout=0)])
    assert not Transaction.objects.filter(kind="settlement").exists()


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("payout", -1, "lines[2].payout"),
        ("stake", True, "lines[2].stake"),
        ("bonus", 10**20, "lines[2].bonus"),
        ("payout", "200", "lines[2].payout"),
        ("wallet_id", "7", "lines[2].wallet_id"),
        ("bet_ref", "", "lines[2].bet_ref"),
    ],
)
def test_a_malformed_line_is_refused_by_name_and_nothing_is_written(
    table, round_with_bets, field, value, named
):
    lines = [
        SettlementLine(f"b{index}", wallet.pk, stake=100, payout=100)
        for index, wallet in enumerate(round_with_bets)
    ]
    lines[2] = lines[2]._replace(**{field: value})
    with pytest.raises(ValidationFailed, match=re.escape(named)):
        _settle(table, lines)
    assert not Transaction.objects.filter(kind="settlement").exists()


def test_wallets_in_another_currency_are_refused(table, round_with_bets):
    gbp = WalletFactory(currency="GBP")
    with pytest.raises(WrongCurrency):
        _settle(table, [SettlementLine("b0", gbp.pk, stake=100, payout=0)])


def test_a_bet_with_several_lines_settles_once(table):
    wallet = WalletFactory(player=PlayerFactory(operator=OperatorFactory()))
    fund(wallet, 1_000)
    stake(wallet, 100, table_id=table.pk, round_id=1, bet_ref="split")
    stake(wallet, 100, table_id=table.pk, round_id=1, bet_ref="split", reference="stake:split:2")
    _settle(
        table,
        [
            SettlementLine("split", wallet.pk, stake=100, payout=200),
            SettlementLine("split", wallet.pk, stake=100, payout=0),
        ],
    )
    wallet.refresh_from_db()
    assert wallet.balance == 1_000


def test_the_number_of_statements_does_not_grow_with_the_bets(table):
    def statements(n: int, round_id: int) -> int:
        wallets = [WalletFactory() for _ in range(n)]
        lines = []
        for index, wallet in enumerate(wallets):
            fund(wallet, 100)
            stake(wallet, 100, table_id=table.pk, round_id=round_id, bet_ref=f"r{round_id}-{index}")
            lines.append(SettlementLine(f"r{round_id}-{index}", wallet.pk, stake=100, payout=200))
        with CaptureQueriesContext(connection) as ctx:
            _settle(table, lines, round_id=round_id)
        return len(ctx.captured_queries)

    statements(1, round_id=9)  # creates the house account on first use
    assert statements(3, round_id=10) == statements(60, round_id=11) <= 10
