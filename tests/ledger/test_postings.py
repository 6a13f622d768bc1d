"""Deposits, withdrawals, stakes and refunds: exact, idempotent, refused cleanly."""

import pytest

from audit.models import AuditEvent
from ledger import services
from ledger.errors import (
    AlreadySettled,
    InsufficientFunds,
    InvalidAmount,
    ReferenceReused,
    WrongCurrency,
)
from ledger.models import Account, Leg, OperatorEvent, Transaction
from ledger.selectors import ledger_reconcile, legs_total
from ledger.services import SettlementLine
from tests.factories import WalletFactory
from tests.ledger.conftest import ACTOR, fund, stake

pytestmark = pytest.mark.django_db


def test_deposit_credits_the_wallet_from_operator_cash_audited_and_notified(wallet):
    txn, created = services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=2500, reference="d1")
    wallet.refresh_from_db()
    assert created and wallet.balance == 2500
    legs = {leg.account.kind: leg.amount for leg in txn.legs.select_related("account")}
    assert legs == {"wallet": 2500, "operator_cash": -2500}
    assert AuditEvent.objects.filter(name="ledger.deposit", wallet_id=wallet.pk).count() == 1
    event = OperatorEvent.objects.get(kind="wallet.deposit")
    assert event.payload["balance"] == 2500 and event.operator_id == wallet.operator_id


def test_a_repeated_operator_reference_returns_the_first_transaction(wallet):
    first, _ = services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=100, reference="d1")
    again, created = services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=100, reference="d1")
    wallet.refresh_from_db()
    assert (again.pk, created, wallet.balance) == (first.pk, False, 100)
    with pytest.raises(ReferenceReused):
        services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=999, reference="d1")


def test_withdrawal_beyond_the_balance_is_refused_naming_the_problem(funded_wallet):
    with pytest.raises(InsufficientFunds, match="holds 10000 EUR minor units; 10001 are needed"):
        services.wallet_withdraw(actor=ACTOR, wallet=funded_wallet, amount=10_001)
    services.wallet_withdraw(actor=ACTOR, wallet=funded_wallet, amount=10_000)
    funded_wallet.refresh_from_db()
    assert funded_wallet.balance == 0


@pytest.mark.parametrize("amount", [0, -5, 10**16, 1.5, "10", True])
def test_bad_amounts_are_refused(wallet, amount):
    with pytest.raises(InvalidAmount):
        services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=amount)


def test_stake_moves_money_to_the_tables_stakes_in_play(funded_wallet, table):
    txn = stake(funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1", dealer_id=9)
    funded_wallet.refresh_from_db()
    assert funded_wallet.balance == 9_700
    in_play = Account.objects.get(kind="stakes", table=table, currency="EUR")
    assert legs_total(in_play) == 300
    assert (txn.table_id, txn.round_id, txn.dealer_id) == (table.pk, 1, 9)
    assert AuditEvent.objects.filter(name="ledger.stake_debited", round_id=1).count() == 1


def test_stake_is_idempotent_per_reference(funded_wallet, table):
    first = stake(funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1")
    again = stake(funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1")
    funded_wallet.refresh_from_db()
    assert again.pk == first.pk and funded_wallet.balance == 9_700
    double = stake(
        funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1", reference="stake:b1:dbl"
    )
    funded_wallet.refresh_from_db()
    assert double.pk != first.pk and funded_wallet.balance == 9_400


def test_stake_refusals_write_nothing(funded_wallet, table):
    before = Transaction.objects.count()
    with pytest.raises(InsufficientFunds):
        stake(funded_wallet, 10_001, table_id=table.pk, round_id=1, bet_ref="b1")
    with pytest.raises(WrongCurrency):
        services.stake_debit(
            actor=ACTOR, wallet=funded_wallet, amount=1, currency="GBP",
            table_id=table.pk, round_id=1, bet_ref="b2",
        )  # fmt: skip
    assert Transaction.objects.count() == before


def test_refund_returns_the_whole_stake_once(funded_wallet, table):
    stake(funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1")
    stake(funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1", reference="stake:b1:x")
    refund = services.stake_refund(actor=ACTOR, bet_ref="b1", reason="round voided")
    again = services.stake_refund(actor=ACTOR, bet_ref="b1", reason="round voided")
    funded_wallet.refresh_from_db()
    assert again.pk == refund.pk and funded_wallet.balance == 10_000
    assert OperatorEvent.objects.filter(kind="stake.refunded").count() == 1
    assert ledger_reconcile() == []


def test_a_settled_bet_can_not_be_refunded(funded_wallet, table):
    stake(funded_wallet, 300, table_id=table.pk, round_id=1, bet_ref="b1")
    services.round_settlement_post(
        actor=ACTOR, round_id=1, table_id=table.pk, currency="EUR",
        lines=[SettlementLine("b1", funded_wallet.pk, stake=300, payout=0)],
    )  # fmt: skip
    with pytest.raises(AlreadySettled):
        services.stake_refund(actor=ACTOR, bet_ref="b1", reason="too late")


def test_wallets_are_per_player_and_currency(player):
    eur, created = services.wallet_open(actor=ACTOR, player=player, currency="EUR")
    again, created_again = services.wallet_open(actor=ACTOR, player=player, currency="EUR")
    gbp, _ = services.wallet_open(actor=ACTOR, player=player, currency="GBP")
    assert created and not created_again and eur.pk == again.pk != gbp.pk
    assert AuditEvent.objects.filter(name="ledger.wallet_opened").count() == 2


def test_every_leg_balances_and_wallets_match_their_legs_after_mixed_activity(table):
    wallets = [WalletFactory() for _ in range(3)]
    for index, wallet in enumerate(wallets):
        fund(wallet, 1_000 * (index + 1))
        stake(wallet, 100, table_id=table.pk, round_id=5, bet_ref=f"w{index}")
    services.wallet_withdraw(actor=ACTOR, wallet=wallets[2], amount=500)
    assert ledger_reconcile() == []
    assert sum(Leg.objects.values_list("amount", flat=True)) == 0
