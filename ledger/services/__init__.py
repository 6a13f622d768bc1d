"""Every movement of money, in one place.

Each service runs inside the caller's database transaction when there is one (else in its
own): a refused movement raises a DomainError before writing anything, and any database error
aborts the caller's transaction with it, so nothing is ever half-written. Locks are taken in the
order documented in ``ledger/lock_objects.py``. Every posting has a unique ``reference``; a
repeated call with the same reference returns the first transaction instead of moving money
again.

The package's modules: ``common`` (checks, the wallet lock, the joined transaction),
``accounts`` (players, operators' webhooks, wallets, deposits and withdrawals), ``stakes``
(a bet's debit and refund), ``settlement`` (a round's posting) and ``corrections`` (four-eyes
reversal and replacement). Callers import from ``ledger.services``.
"""

from ledger.services.accounts import (
    operator_event_redeliver,
    operator_webhook_set,
    player_create,
    wallet_deposit,
    wallet_open,
    wallet_withdraw,
    webhook_secret_new,
)
from ledger.services.common import (
    MAX_AMOUNT,
    amount_check,
    currency_check,
    currency_new_check,
    play_money_check,
)
from ledger.services.corrections import (
    correction_approve,
    correction_reject,
    correction_request,
)
from ledger.services.settlement import (
    SettlementLine,
    SettlementPosting,
    round_settlement_post,
)
from ledger.services.stakes import (
    stake_debit,
    stake_debit_check,
    stake_refund,
    stake_wallet_lock,
)

__all__ = [
    "MAX_AMOUNT",
    "SettlementLine",
    "SettlementPosting",
    "amount_check",
    "correction_approve",
    "correction_reject",
    "correction_request",
    "currency_check",
    "currency_new_check",
    "operator_event_redeliver",
    "operator_webhook_set",
    "play_money_check",
    "player_create",
    "round_settlement_post",
    "stake_debit",
    "stake_debit_check",
    "stake_refund",
    "stake_wallet_lock",
    "wallet_deposit",
    "wallet_open",
    "wallet_withdraw",
    "webhook_secret_new",
]
