"""What every money movement shares: amount, currency and reference checks, the wallet lock
and the transaction it joins."""

from __future__ import annotations

import re
from contextlib import nullcontext

from django.db import connection, transaction

from casino.errors import NotFound, ValidationFailed
from casino.money import PLAY_MONEY, tender_currencies
from ledger import lock_objects
from ledger.errors import (
    InsufficientFunds,
    InvalidAmount,
    ReferenceReused,
    WrongCurrency,
)
from ledger.models import (
    Account,
    Leg,
    Transaction,
)

# Far below 2**63 so that sums of many legs can never overflow a bigint.
MAX_AMOUNT = 10**15
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_REF = re.compile(r"^[\x21-\x7e]{1,64}$")


def money_atomic():
    """Join the caller's transaction as is (no savepoint round trips on the bet path), or
    open one. Refusals raise before any write, so a caller may catch them and carry on."""
    if connection.in_atomic_block:
        return nullcontext()
    return transaction.atomic()


def amount_check(amount, *, field: str = "amount", allow_zero: bool = False) -> int:
    low = 0 if allow_zero else 1
    if isinstance(amount, bool) or not isinstance(amount, int) or not low <= amount <= MAX_AMOUNT:
        raise InvalidAmount(
            f"{field} must be an integer number of minor units from {low} to {MAX_AMOUNT}.",
            errors={field: [f"an integer from {low} to {MAX_AMOUNT}"]},
        )
    return amount


def currency_check(currency) -> str:
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise ValidationFailed(
            "currency must be an ISO 4217 code (three capital letters).",
            errors={"currency": ["three capital letters, e.g. EUR"]},
        )
    return currency


def currency_new_check(currency) -> str:
    """The currency of a new wallet or table: legal tender somewhere today, or play money."""
    currency_check(currency)
    if currency != PLAY_MONEY and currency not in tender_currencies():
        raise ValidationFailed(
            f"{currency} is no ISO 4217 currency in use today.",
            errors={"currency": ["an ISO 4217 currency in use, e.g. EUR"]},
        )
    return currency


def play_money_check(currency: str, *, sandbox: bool, holder: str) -> None:
    """Play money (XTS) is the sandbox's and the sandbox holds nothing else (casino/sandbox):
    sandbox money never lands in a real currency's accounts, nor real money in the sandbox, and
    a live table in XTS could take no bet (no live wallet holds it). ``holder``: what holds
    the currency, for the message ("operator's wallets hold", "table plays in")."""
    if sandbox != (currency == PLAY_MONEY):
        expected = f"{PLAY_MONEY} (play money)" if sandbox else f"a real currency, not {PLAY_MONEY}"
        raise WrongCurrency(
            f"A {'sandbox' if sandbox else 'live'} {holder} {expected}.",
            errors={"currency": [f"{'only' if sandbox else 'not'} {PLAY_MONEY}"]},
        )


def reference_check(value, *, field: str) -> str:
    if not isinstance(value, str) or not _REF.match(value):
        raise ValidationFailed(
            f"{field} must be 1-64 visible ASCII characters.",
            errors={field: ["1-64 visible ASCII characters"]},
        )
    return value


def lock_wallet(wallet_id: int) -> Account:
    wallet = lock_objects.wallets_for_update([wallet_id]).first()
    if wallet is None:
        raise NotFound(f"Wallet {wallet_id} does not exist.")
    return wallet


def funds_check(wallet: Account, amount: int) -> None:
    if wallet.balance < amount:
        raise InsufficientFunds(
            f"Wallet {wallet.pk} holds {wallet.balance} {wallet.currency} minor units; "
            f"{amount} are needed.",
        )


def repeat_of(reference: str, *, kind: str, wallet_id: int, amount: int) -> Transaction | None:
    """The transaction already posted under ``reference``, if it is this same movement."""
    txn = Transaction.objects.filter(reference=reference).first()
    if txn is None:
        return None
    same = (
        txn.kind == kind
        and Leg.objects.filter(transaction=txn, account_id=wallet_id, amount=amount).exists()
    )
    if not same:
        raise ReferenceReused(
            f"Reference {reference!r} already names transaction {txn.pk} ({txn.kind}), "
            "a different movement; use a new reference."
        )
    return txn
