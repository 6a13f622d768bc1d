"""The ledger API: players, wallets, deposits and withdrawals, transactions, corrections,
table accounting and the operators' events feed.

Every queryset is scoped by ``request_scope``: an operator's API key sees only its own players,
wallets, transactions and events (anything else is a 404). Money-moving POSTs run through
``idempotent``. Every list filters through its FilterSet (``ledger/filters.py``).

Modules: ``shared`` (shapes several views use), ``accounts`` (players, wallets, funds),
``transactions`` (transactions, house accounts, corrections, table accounting) and ``events``
(the events feed and webhook endpoints).
"""

from ledger.views.accounts import (
    DepositView,
    PlayerDetailView,
    PlayerListCreateView,
    WalletBalanceView,
    WalletDetailView,
    WalletListCreateView,
    WithdrawalView,
)
from ledger.views.events import (
    OperatorEventFeedView,
    OperatorEventRedeliverView,
    OperatorWebhookView,
    OwnWebhookView,
)
from ledger.views.transactions import (
    CorrectionApproveView,
    CorrectionDetailView,
    CorrectionListCreateView,
    CorrectionRejectView,
    HouseAccountListView,
    TransactionDetailView,
    TransactionListView,
)

__all__ = [
    "CorrectionApproveView",
    "CorrectionDetailView",
    "CorrectionListCreateView",
    "CorrectionRejectView",
    "DepositView",
    "HouseAccountListView",
    "OperatorEventFeedView",
    "OperatorEventRedeliverView",
    "OperatorWebhookView",
    "OwnWebhookView",
    "PlayerDetailView",
    "PlayerListCreateView",
    "TransactionDetailView",
    "TransactionListView",
    "WalletBalanceView",
    "WalletDetailView",
    "WalletListCreateView",
    "WithdrawalView",
]
