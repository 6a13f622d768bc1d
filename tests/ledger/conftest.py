import pytest

from casino.actors import Actor
from ledger import services
from tests.factories import PlayerFactory, TableFactory, WalletFactory

ACTOR = Actor.system("tests")


def fund(wallet, amount: int):
    txn, _ = services.wallet_deposit(actor=ACTOR, wallet=wallet, amount=amount)
    wallet.refresh_from_db()
    return txn


def stake(wallet, amount: int, *, table_id: int, round_id: int, bet_ref: str, **extra):
    return services.stake_debit(
        actor=ACTOR,
        wallet=wallet,
        amount=amount,
        currency=wallet.currency,
        table_id=table_id,
        round_id=round_id,
        bet_ref=bet_ref,
        **extra,
    )


@pytest.fixture
def player(operator):
    return PlayerFactory(operator=operator)


@pytest.fixture
def wallet(player):
    return WalletFactory(player=player)


@pytest.fixture
def funded_wallet(wallet):
    fund(wallet, 10_000)
    return wallet


@pytest.fixture
def other_table(db):
    return TableFactory()
