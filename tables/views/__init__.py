"""The tables API: thin views (validate -> one service -> serialize).

Roles (``casino/api/roles.py``): everyone with ``tables.view_table`` reads; operators' API keys
place bets and make players' decisions (``place_bet`` / ``play_round``) for their own players
only; dealer devices (and dealers) run rounds on their own table (``deal_round``); the pit
operates tables (``operate_table``); a pit boss requests a void (``request_void``) and may cancel
it (any request: ``cancel_void``), and a floor supervisor approves or rejects it
(``approve_void``, ``reject_void``).

Modules: ``accounting`` (table accounting in the casinos' gaming days and shifts), ``shared``
(permissions, the player query, request scoping), ``tables`` (tables: list, create, status,
limits, rules, dealer, setup, clone, retire), ``rounds`` (opening and running a round: shoes,
the round's view, closing betting, cards, the banker, resume), ``play`` (players' bets and
decisions) and ``voids`` (void requests and their decisions).
"""

from tables.views.accounting import TableAccountingView
from tables.views.play import RoundBetsView, RoundDecisionsView
from tables.views.rounds import (
    RoundCardsView,
    RoundCloseBettingView,
    RoundDealerDecisionView,
    RoundDetailView,
    RoundResumeView,
    TableRoundsView,
    TableShoesView,
)
from tables.views.tables import (
    TableCloneView,
    TableCloseView,
    TableCreateInputSerializer,
    TableCurrentRoundView,
    TableDealerView,
    TableDetailView,
    TableLimitsView,
    TableListView,
    TableOpenView,
    TablePauseView,
    TableResumeView,
    TableRetireView,
    TableRulesView,
    TableSetupView,
)
from tables.views.voids import (
    RoundVoidApproveView,
    RoundVoidCancelView,
    RoundVoidRejectView,
    RoundVoidRequestView,
    VoidDecisionInputSerializer,
)

__all__ = [
    "RoundBetsView",
    "RoundCardsView",
    "RoundCloseBettingView",
    "RoundDealerDecisionView",
    "RoundDecisionsView",
    "RoundDetailView",
    "RoundResumeView",
    "RoundVoidApproveView",
    "RoundVoidCancelView",
    "RoundVoidRejectView",
    "RoundVoidRequestView",
    "TableAccountingView",
    "TableCloneView",
    "TableCloseView",
    "TableCreateInputSerializer",
    "TableCurrentRoundView",
    "TableDealerView",
    "TableDetailView",
    "TableLimitsView",
    "TableListView",
    "TableOpenView",
    "TablePauseView",
    "TableResumeView",
    "TableRetireView",
    "TableRoundsView",
    "TableRulesView",
    "TableSetupView",
    "TableShoesView",
    "VoidDecisionInputSerializer",
]
