"""Tables API routes (mounted under /api/v1/ by casino/urls.py)."""

from django.urls import path
from django.views.decorators.cache import never_cache

from tables import streams, views

urlpatterns = [
    path("table-accounting/", views.TableAccountingView.as_view(), name="table-accounting"),
    path("tables/", views.TableListView.as_view(), name="table-list"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:pk>/round/", views.TableCurrentRoundView.as_view(), name="table-round"),
    path("tables/<int:pk>/events/", streams.TableEventsView.as_view(), name="table-events"),
    path("tables/<int:pk>/open/", views.TableOpenView.as_view(), name="table-open"),
    path("tables/<int:pk>/pause/", views.TablePauseView.as_view(), name="table-pause"),
    path("tables/<int:pk>/resume/", views.TableResumeView.as_view(), name="table-resume"),
    path("tables/<int:pk>/close/", views.TableCloseView.as_view(), name="table-close"),
    path("tables/<int:pk>/limits/", views.TableLimitsView.as_view(), name="table-limits"),
    path("tables/<int:pk>/rules/", views.TableRulesView.as_view(), name="table-rules"),
    path("tables/<int:pk>/dealer/", views.TableDealerView.as_view(), name="table-dealer"),
    path("tables/<int:pk>/clone/", views.TableCloneView.as_view(), name="table-clone"),
    path("tables/<int:pk>/retire/", views.TableRetireView.as_view(), name="table-retire"),
    path("tables/<int:pk>/setup/", views.TableSetupView.as_view(), name="table-setup"),
    path("tables/<int:pk>/rounds/", views.TableRoundsView.as_view(), name="table-rounds"),
    path("tables/<int:pk>/shoes/", views.TableShoesView.as_view(), name="table-shoes"),
    path("rounds/<int:pk>/", views.RoundDetailView.as_view(), name="round-detail"),
    path(
        "rounds/<int:pk>/close-betting/",
        views.RoundCloseBettingView.as_view(),
        name="round-close-betting",
    ),
    # Bets and decisions move money: their answers are never stored (Cache-Control: no-store).
    path("rounds/<int:pk>/bets/", never_cache(views.RoundBetsView.as_view()), name="round-bets"),
    path(
        "rounds/<int:pk>/decisions/",
        never_cache(views.RoundDecisionsView.as_view()),
        name="round-decisions",
    ),
    path("rounds/<int:pk>/cards/", views.RoundCardsView.as_view(), name="round-cards"),
    path(
        "rounds/<int:pk>/dealer-decisions/",
        views.RoundDealerDecisionView.as_view(),
        name="round-dealer-decisions",
    ),
    path(
        "rounds/<int:pk>/void-request/",
        views.RoundVoidRequestView.as_view(),
        name="round-void-request",
    ),
    path(
        "rounds/<int:pk>/void-approve/",
        views.RoundVoidApproveView.as_view(),
        name="round-void-approve",
    ),
    path(
        "rounds/<int:pk>/void-reject/",
        views.RoundVoidRejectView.as_view(),
        name="round-void-reject",
    ),
    path(
        "rounds/<int:pk>/void-cancel/",
        views.RoundVoidCancelView.as_view(),
        name="round-void-cancel",
    ),
    path("rounds/<int:pk>/resume/", views.RoundResumeView.as_view(), name="round-resume"),
]
