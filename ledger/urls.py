from django.urls import path, re_path
from django.views.decorators.cache import never_cache

from ledger import views

urlpatterns = [
    path("players/", views.PlayerListCreateView.as_view(), name="player-list"),
    path("players/<int:pk>/", views.PlayerDetailView.as_view(), name="player-detail"),
    path("wallets/", views.WalletListCreateView.as_view(), name="wallet-list"),
    path("wallets/<int:pk>/", views.WalletDetailView.as_view(), name="wallet-detail"),
    path("wallets/<int:pk>/balance/", views.WalletBalanceView.as_view(), name="wallet-balance"),
    path("wallets/<int:pk>/deposits/", views.DepositView.as_view(), name="wallet-deposit"),
    path("wallets/<int:pk>/withdrawals/", views.WithdrawalView.as_view(), name="wallet-withdraw"),
    path("transactions/", views.TransactionListView.as_view(), name="transaction-list"),
    path(
        "transactions/<int:pk>/", views.TransactionDetailView.as_view(), name="transaction-detail"
    ),
    path("house-accounts/", views.HouseAccountListView.as_view(), name="house-account-list"),
    path("corrections/", views.CorrectionListCreateView.as_view(), name="correction-list"),
    path("corrections/<int:pk>/", views.CorrectionDetailView.as_view(), name="correction-detail"),
    path(
        "corrections/<int:pk>/approve/",
        views.CorrectionApproveView.as_view(),
        name="correction-approve",
    ),
    path(
        "corrections/<int:pk>/reject/",
        views.CorrectionRejectView.as_view(),
        name="correction-reject",
    ),
    path("operator-events/", views.OperatorEventFeedView.as_view(), name="operator-event-feed"),
    re_path(
        r"^operator-events/(?P<event_id>evt_[0-9a-f]{32})/redeliver/$",
        views.OperatorEventRedeliverView.as_view(),
        name="operator-event-redeliver",
    ),
    path(
        "operators/<int:pk>/webhook/", views.OperatorWebhookView.as_view(), name="operator-webhook"
    ),
    path("operator/webhook/", views.OwnWebhookView.as_view(), name="own-webhook"),
]

# Every answer of the ledger is money or a player's data: no browser or proxy keeps a copy
# (Cache-Control: no-store).
for _pattern in urlpatterns:
    _pattern.callback = never_cache(_pattern.callback)
