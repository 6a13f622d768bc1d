"""The tables API: thin views (validate -> one service -> serialize).

Roles (``casino/api/roles.py``): everyone with ``tables.view_table`` reads; operators' API keys
place bets and make players' decisions (``place_bet`` / ``play_round``) for their own players
only; dealer devices (and dealers) run rounds on their own table (``deal_round``); the pit
operates tables (``operate_table``); a pit boss requests a void (``request_void``) and may cancel
it (any request: ``cancel_void``), and a floor supervisor approves or rejects it
(``approve_void``, ``reject_void``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import Actor
from casino.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from casino.api.inputs import MAX_ID, IdField, JsonIntegerField, staff_user_required, validated
from casino.api.models import Scope
from casino.api.permissions import request_scope
from casino.errors import NotFound, ValidationFailed
from ledger.models import Player
from ledger.selectors import player_get
from tables import round_view, rules_view, selectors, services
from tables.errors import BettingClosed
from tables.filters import TableFilter
from tables.models import Casino, PayoutScheduleVersion, Pit, RuleSetVersion, Table
from tables.serializers import (
    MAX_AMOUNT,
    BetOutputSerializer,
    CardPostedNextSerializer,
    DealerAssignmentOutputSerializer,
    PlayedSerializer,
    RoundSummarySerializer,
    RoundViewSerializer,
    RoundVoidSerializer,
    ShoeOutputSerializer,
    TableCreatedSerializer,
    TableOutputSerializer,
    TableRulesSerializer,
    VoidRequestOutputSerializer,
    table_data,
)

VIEW = "tables.view_table"
OPERATE = "tables.operate_table"
DEAL = "tables.deal_round"

PLAYER_PARAMETER = OpenApiParameter(
    name="player_id",
    type=OpenApiTypes.INT,
    location=OpenApiParameter.QUERY,
    required=False,
    description="Show this player's legal actions (an operator sees only its own players).",
)


class _PlayerQuery(serializers.Serializer):
    player_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


def _player(request, player_id: int | None) -> Player | None:
    """The player an operator acts for: only the operator's own players exist for it."""
    if player_id is None:
        return None
    player = player_get(pk=player_id, operator_id=request_scope(request).operator_id)
    if player is None:
        raise NotFound(f"Player {player_id} does not exist.")
    return player


def _query_player(request) -> Player | None:
    data = _PlayerQuery(data=request.query_params)
    data.is_valid(raise_exception=True)
    return _player(request, data.validated_data.get("player_id"))


def _actor(request) -> Actor:
    return Actor.from_request(request)


def _table_scope(request) -> int | None:
    return request_scope(request).table_id


def _seen(request) -> dict:
    """The selectors' scoping of tables and rounds: a device's own table, and the sandbox or
    the live casino for an operator's principals (casino/sandbox)."""
    scope = request_scope(request)
    return {"table_id": scope.table_id, "sandbox": scope.sandbox}


# --- tables --------------------------------------------------------------------------------


class TableCreateInputSerializer(serializers.Serializer):
    casino_id = IdField()
    pit_id = IdField(required=False)
    code = serializers.SlugField(max_length=40)
    name = serializers.CharField(max_length=120)
    rule_set_id = IdField()
    payout_schedule_id = IdField()
    currency = serializers.RegexField(r"^[A-Z]{3}$", required=False)
    card_source = serializers.ChoiceField(choices=Table.CardSource.choices, required=False)
    min_bet = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False)
    max_bet = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False)
    box_max = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False, allow_null=True)
    min_unit = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False)
    decision_seconds = JsonIntegerField(min_value=1, max_value=3600, required=False)
    betting_seconds = JsonIntegerField(min_value=1, max_value=3600, required=False)


class TableListView(generics.GenericAPIView):
    """Tables (a dealer device sees its own table only); POST creates a closed table and
    answers with its rules' theoretical RTP (check it before opening the table)."""

    required_permissions = {"GET": VIEW, "POST": OPERATE}
    write_scope = Scope.PIT
    serializer_class = TableOutputSerializer
    filterset_class = TableFilter

    @extend_schema(request=TableCreateInputSerializer, responses={201: TableCreatedSerializer})
    def post(self, request):
        data = validated(TableCreateInputSerializer, request)
        casino = Casino.objects.filter(pk=data.pop("casino_id")).first()
        if casino is None:
            raise ValidationFailed("No such casino.", errors={"casino_id": ["unknown"]})
        pit_id = data.pop("pit_id", None)
        pit = Pit.objects.filter(pk=pit_id).first() if pit_id else None
        if pit_id and pit is None:
            raise ValidationFailed("No such pit.", errors={"pit_id": ["unknown"]})
        rule_set = RuleSetVersion.objects.filter(pk=data.pop("rule_set_id")).first()
        payouts = PayoutScheduleVersion.objects.filter(pk=data.pop("payout_schedule_id")).first()
        if rule_set is None or payouts is None:
            raise ValidationFailed(
                "No such rule set or payout schedule version.",
                errors={"rule_set_id" if rule_set is None else "payout_schedule_id": ["unknown"]},
            )
        table = services.table_create(
            actor=_actor(request),
            casino=casino,
            pit=pit,
            rule_set=rule_set,
            payout_schedule=payouts,
            **data,
        )
        return _created(table)

    def get_queryset(self):
        return selectors.table_list_with_current_round(**_seen(self.request)).order_by("pk")

    @extend_schema(responses=TableOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        data = [table_data(t) for t in page]
        return self.get_paginated_response(TableOutputSerializer(data, many=True).data)


class TableDetailView(APIView):
    """A table: status, limits, rules, dealer and its current round."""

    required_permissions = {"GET": VIEW}

    @extend_schema(responses=TableOutputSerializer)
    def get(self, request, pk: int):
        table = selectors.table_get(pk=pk, **_seen(request))
        rnd = selectors.round_current(table=table)
        data = table_data(table, current_round_id=rnd.pk if rnd else None)
        return Response(TableOutputSerializer(data).data)


class TableCurrentRoundView(APIView):
    """The table's current round as the table shows it; ``player_id`` adds that player's
    legal actions."""

    required_permissions = {"GET": VIEW}

    @extend_schema(parameters=[PLAYER_PARAMETER], responses=RoundViewSerializer)
    def get(self, request, pk: int):
        table = selectors.table_get(pk=pk, **_seen(request))
        player = _query_player(request)
        rnd = selectors.round_current(table=table)
        if rnd is None:
            raise NotFound(f"Table {table.pk} has played no round yet.")
        data = round_view.round_view(
            rnd,
            player_id=player.pk if player else None,
            operator_id=request_scope(request).operator_id,
        )
        return Response(RoundViewSerializer(data).data)


def _status_view(name: str, doc: str):
    service = getattr(services, f"table_{name}")

    class TableStatusView(APIView):
        required_permissions = {"POST": OPERATE}
        write_scope = Scope.PIT

        @extend_schema(request=None, responses=TableOutputSerializer, summary=doc)
        def post(self, request, pk: int):
            table = selectors.table_get(pk=pk)
            table = service(actor=_actor(request), table_id=table.pk)
            return Response(TableOutputSerializer(table_data(table)).data)

    TableStatusView.__name__ = TableStatusView.__qualname__ = f"Table{name.title()}View"
    return TableStatusView


TableOpenView = _status_view("open", "Open a closed table (closed -> open).")
TablePauseView = _status_view("pause", "Pause an open table (no new rounds).")
TableResumeView = _status_view("resume", "Resume a paused table.")
TableCloseView = _status_view("close", "Close a table (no round may be in play).")


class TableLimitsView(APIView):
    """New limits and timers; logged, effective from the next round."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        min_bet = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT)
        max_bet = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT)
        box_max = JsonIntegerField(
            min_value=1, max_value=MAX_AMOUNT, required=False, allow_null=True
        )
        min_unit = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False)
        decision_seconds = JsonIntegerField(min_value=1, max_value=3600, required=False)
        betting_seconds = JsonIntegerField(min_value=1, max_value=3600, required=False)

    @extend_schema(request=InputSerializer, responses=TableOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        table = selectors.table_get(pk=pk)
        table = services.table_limits_set(actor=_actor(request), table_id=table.pk, **data)
        return Response(TableOutputSerializer(table_data(table)).data)


class TableRulesView(APIView):
    """GET: the table's rules as an operator needs them. POST: the pit activates a rule-set
    and payout-schedule version pair from the next round."""

    required_permissions = {"GET": VIEW, "POST": OPERATE}
    write_scope = Scope.PIT

    @extend_schema(
        summary="The table's rules: documents, payouts, RTP, how to stake, timers",
        responses=TableRulesSerializer,
    )
    def get(self, request, pk: int):
        """The rule-set and payout-schedule versions the table's next round pins, with their
        documents (the engine's JSON, immutable once used); the pair's theoretical RTP (the
        stored figure, else the shipped preset figure, else null); how a bet is staked in this
        game (`staking.mode`: `stake_with_bet`, or `join_then_stake` where a box joins with
        stake 0 and stakes in a window after its first card); the decisions the game can ask
        for; the betting and decision timers and what the server does when they run out.
        Readable by every caller that may read the table."""
        table = selectors.table_get(pk=pk, **_seen(request))
        if table.rule_set is None or table.payout_schedule is None:
            raise NotFound(f"Table {table.pk} has no rule set or payout schedule yet.")
        return Response(TableRulesSerializer(rules_view.table_rules(table)).data)

    class InputSerializer(serializers.Serializer):
        rule_set_id = IdField()
        payout_schedule_id = IdField()

    class OutputSerializer(serializers.Serializer):
        table = TableOutputSerializer()
        theoretical_rtp = serializers.DecimalField(max_digits=9, decimal_places=6, allow_null=True)
        rtp_method = serializers.CharField()

    @extend_schema(
        summary="Activate a rule-set and payout-schedule pair from the next round",
        request=InputSerializer,
        responses=OutputSerializer,
    )
    def post(self, request, pk: int):
        """The answer shows the pair's theoretical RTP (pending while the game maths computes
        it)."""
        data = validated(self.InputSerializer, request)
        table = selectors.table_get(pk=pk)
        rule_set = RuleSetVersion.objects.filter(pk=data["rule_set_id"]).first()
        payouts = PayoutScheduleVersion.objects.filter(pk=data["payout_schedule_id"]).first()
        if rule_set is None or payouts is None:
            raise NotFound("No such rule set or payout schedule version.")
        table, figure = services.table_rules_set(
            actor=_actor(request), table_id=table.pk, rule_set=rule_set, payout_schedule=payouts
        )
        body = {
            "table": table_data(table),
            "theoretical_rtp": figure.rtp,
            "rtp_method": figure.method,
        }
        return Response(self.OutputSerializer(body).data)


class TableDealerView(APIView):
    """Assign the dealer (the rotation log keeps every assignment)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        dealer_id = IdField()

    @extend_schema(request=InputSerializer, responses=DealerAssignmentOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        table = selectors.table_get(pk=pk)
        dealer = get_user_model().objects.filter(pk=data["dealer_id"], is_active=True).first()
        if dealer is None:
            raise ValidationFailed(
                f"No active staff user {data['dealer_id']}.", errors={"dealer_id": ["unknown"]}
            )
        assignment = services.table_dealer_assign(
            actor=_actor(request), table_id=table.pk, dealer=dealer
        )
        return Response(DealerAssignmentOutputSerializer(assignment).data)


class TableRoundsView(APIView):
    """The dealer opens a round for bets (its betting timer starts)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    @extend_schema(request=None, responses={201: RoundSummarySerializer})
    def post(self, request, pk: int):
        table = selectors.table_get(pk=pk, **_seen(request))
        rnd = services.round_open(actor=_actor(request), table_id=table.pk)
        return Response(RoundSummarySerializer(rnd).data, status=status.HTTP_201_CREATED)


class TableShoesView(APIView):
    """A reader-fed table loads a new shoe with its shuffle record (before its first card)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        shuffle_method = serializers.CharField(max_length=60)
        device_id = serializers.CharField(max_length=64, required=False, default="")
        commitment = serializers.RegexField(r"^[0-9a-f]{64}$", required=False, default="")

    @extend_schema(request=InputSerializer, responses={201: ShoeOutputSerializer})
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        table = selectors.table_get(pk=pk, **_seen(request))
        shoe = services.shoe_load(actor=_actor(request), table_id=table.pk, **data)
        return Response(ShoeOutputSerializer(shoe).data, status=status.HTTP_201_CREATED)


# --- rounds --------------------------------------------------------------------------------


class RoundDetailView(APIView):
    """A round as the caller sees it.

    The cards as the table shows them (an operator also sees its own players' face-down
    cards), whose turn it is and which bets and players it waits for (`turn.waiting_for`;
    other operators' players are anonymous: their bets carry no `player_id`), what the round
    wants next (`next`: bets, a card and for which hand, forced or not, a decision, the
    banker, the pit, settlement), the legal actions now of every one of the caller's players
    (`your_actions`; `player_id` narrows them to one), and once the round is settled or voided
    each bet's outcome as the ledger posted it (`outcomes`: result, stake, returned, winnings,
    bonus, paid, net, currency). An operator's key sees its own players; casino staff see
    every player; a dealer device none."""

    required_permissions = {"GET": VIEW}

    @extend_schema(
        summary="A round: whose turn, what it wants next, your actions and outcomes",
        parameters=[PLAYER_PARAMETER],
        responses=RoundViewSerializer,
    )
    def get(self, request, pk: int):
        rnd = selectors.round_get(pk=pk, **_seen(request))
        player = _query_player(request)
        data = round_view.round_view(
            rnd,
            player_id=player.pk if player else None,
            operator_id=request_scope(request).operator_id,
        )
        return Response(RoundViewSerializer(data).data)


class RoundCloseBettingView(APIView):
    """The dealer closes betting; on a server-shoe table the server deals at once."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    @extend_schema(request=None, responses=RoundSummarySerializer)
    def post(self, request, pk: int):
        rnd = services.round_close_betting(
            actor=_actor(request), round_id=pk, table_id=_table_scope(request)
        )
        return Response(RoundSummarySerializer(rnd).data)


class RoundBetsView(APIView):
    """Place a bet for one of the operator's players (debits the wallet). Late bets get 409
    ``betting-closed`` and are logged."""

    required_permissions = {"POST": "tables.place_bet"}
    write_scope = Scope.MONEY

    class InputSerializer(serializers.Serializer):
        player_id = IdField()
        box = JsonIntegerField(min_value=1, max_value=100)
        stake = JsonIntegerField(min_value=0, max_value=MAX_AMOUNT)
        behind = serializers.BooleanField(required=False, default=False)

    @extend_schema(
        request=InputSerializer,
        responses={201: BetOutputSerializer},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    def post(self, request, pk: int):
        actor = _actor(request)

        def work() -> Response:
            data = validated(self.InputSerializer, request)
            player = _player(request, data.pop("player_id"))
            sandbox = request_scope(request).sandbox
            if sandbox is not None and selectors.round_sandbox(pk=pk) not in (None, sandbox):
                raise NotFound(f"Round {pk} does not exist.")  # the other casino's round
            bet = services.bet_place(  # NotFound for a round that doesn't exist
                actor=actor,
                round_id=pk,
                player=player,
                operator_id=request_scope(request).operator_id,
                **data,
            )
            return Response(BetOutputSerializer(bet).data, status=status.HTTP_201_CREATED)

        try:
            return idempotent(request, work=work)
        except BettingClosed as refusal:
            services.late_bet_record(actor=actor, refusal=refusal)
            raise


class RoundDecisionsView(APIView):
    """A player's decision in the current turn (hit, stand, double, split, surrender, rescue,
    buy, twist; match / decline; insurance / even_money / decline; stake / withdraw). Stakes
    it adds are debited."""

    required_permissions = {"POST": "tables.play_round"}
    write_scope = Scope.MONEY

    class InputSerializer(serializers.Serializer):
        player_id = IdField()
        action = serializers.CharField(max_length=20)
        amount = JsonIntegerField(
            min_value=0, max_value=MAX_AMOUNT, required=False, allow_null=True
        )
        bet_id = serializers.CharField(max_length=40, required=False, allow_null=True)
        box = JsonIntegerField(min_value=1, max_value=100, required=False, allow_null=True)
        hand_index = JsonIntegerField(min_value=0, max_value=100, required=False, allow_null=True)

    @extend_schema(
        request=InputSerializer, responses=PlayedSerializer, parameters=[IDEMPOTENCY_PARAMETER]
    )
    def post(self, request, pk: int):
        def work() -> Response:
            data = validated(self.InputSerializer, request)
            player = _player(request, data["player_id"])
            played = services.decision_make(
                actor=_actor(request),
                round_id=selectors.round_get(pk=pk, **_seen(request)).pk,
                player=player,
                action=data["action"],
                amount=data.get("amount"),
                bet_ref=data.get("bet_id"),
                box=data.get("box"),
                hand_index=data.get("hand_index"),
                operator_id=request_scope(request).operator_id,
            )
            return Response(PlayedSerializer(played).data)

        return idempotent(request, work=work)


class RoundCardsView(APIView):
    """The card reader posts the next card; the answer says which hand it went to (`target`,
    `forced` for a card the rules deal without a decision) and what the round wants next
    (`next`: another card and for which hand, a decision and whose, the banker, settlement).
    An impossible card or a count mismatch suspends the round (409 ``round-suspended``)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        card = serializers.CharField(max_length=3)
        shoe_position = JsonIntegerField(min_value=1, max_value=100_000, required=False)

    @extend_schema(
        summary="Post the next card; the answer says where it went and what comes next",
        request=InputSerializer,
        responses=CardPostedNextSerializer,
    )
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        posted = services.card_post(
            actor=_actor(request),
            round_id=pk,
            card=data["card"],
            shoe_position=data.get("shoe_position"),
            table_id=_table_scope(request),
        )
        rnd = selectors.round_get(pk=posted.round.pk)
        body = {
            "round": rnd,
            "card": posted.card,
            "target": posted.target,
            "next": round_view.round_next(rnd, operator_id=request_scope(request).operator_id),
        }
        return Response(CardPostedNextSerializer(body).data)


class RoundDealerDecisionView(APIView):
    """The banker's hit or stand (banker's-choice games)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=["hit", "stand"])

    @extend_schema(request=InputSerializer, responses=PlayedSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        played = services.dealer_decision_make(
            actor=_actor(request),
            round_id=pk,
            action=data["action"],
            table_id=_table_scope(request),
        )
        return Response(PlayedSerializer(played).data)


class RoundVoidRequestView(APIView):
    """GET: the round's latest void request and, while the round can still be voided, a
    preview of what approving a void would do now (every stake returned, every decided outcome
    that stands, from the engine). POST: a pit boss asks for the round to be voided (with a
    reason); the round is on hold (409 ``round-held`` for cards, decisions and the dealer;
    bets are late) until the request is approved, rejected, cancelled or expires."""

    required_permissions = {"GET": "tables.view_voidrequest", "POST": "tables.request_void"}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=500)

    @extend_schema(responses=RoundVoidSerializer)
    def get(self, request, pk: int):
        rnd = selectors.round_get(pk=pk, **_seen(request))
        body = {
            "void_request": selectors.void_request_json(selectors.void_request_latest(rnd)),
            "preview": selectors.void_preview(rnd),
        }
        return Response(RoundVoidSerializer(body).data)

    @extend_schema(request=InputSerializer, responses={201: VoidRequestOutputSerializer})
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        void = services.void_request(
            actor=_actor(request),
            user=staff_user_required(request, "Only a staff member can do this."),
            round_id=pk,
            reason=data["reason"],
        )
        return Response(VoidRequestOutputSerializer(void).data, status=status.HTTP_201_CREATED)


class VoidDecisionInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


def _void_decision_view(name: str, permission: str, doc: str):
    service = getattr(services, f"void_{name}")

    class VoidDecisionView(APIView):
        required_permissions = {"POST": permission}
        write_scope = Scope.PIT

        @extend_schema(
            request=VoidDecisionInputSerializer, responses=VoidRequestOutputSerializer, summary=doc
        )
        def post(self, request, pk: int):
            data = validated(VoidDecisionInputSerializer, request)
            void = service(
                actor=_actor(request),
                user=staff_user_required(request, "Only a staff member can do this."),
                round_id=pk,
                reason=data["reason"],
            )
            return Response(VoidRequestOutputSerializer(void).data)

    VoidDecisionView.__name__ = VoidDecisionView.__qualname__ = f"RoundVoid{name.title()}View"
    VoidDecisionView.__doc__ = doc
    return VoidDecisionView


RoundVoidRejectView = _void_decision_view(
    "reject",
    "tables.reject_void",
    "A floor supervisor (not the requester) rejects the void request: the hold ends and the "
    "round carries on where it stopped.",
)
# Whoever may request a void may cancel their own request; a pit boss (``cancel_void``) also
# cancels anyone's (the service decides which).
RoundVoidCancelView = _void_decision_view(
    "cancel",
    "tables.request_void",
    "The requester (or a pit boss) cancels the void request: the hold ends and the round "
    "carries on where it stopped.",
)


class RoundVoidApproveView(APIView):
    """A floor supervisor (not the requester) approves the void: decided outcomes stand,
    undecided stakes are returned."""

    required_permissions = {"POST": "tables.approve_void"}
    write_scope = Scope.PIT

    @extend_schema(request=None, responses=RoundSummarySerializer)
    def post(self, request, pk: int):
        rnd = services.void_approve(
            actor=_actor(request),
            user=staff_user_required(request, "Only a staff member can do this."),
            round_id=pk,
        )
        return Response(RoundSummarySerializer(rnd).data)


class RoundResumeView(APIView):
    """The pit resumes a suspended round (the correct card is scanned next)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=500, required=False, default="")

    @extend_schema(request=InputSerializer, responses=RoundSummarySerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        rnd = services.round_resume(actor=_actor(request), round_id=pk, note=data["note"])
        return Response(RoundSummarySerializer(rnd).data)


# --- creating, cloning and retiring tables ------------------------------------------------


def _created(table) -> Response:
    figure = services.rtp_figure(rule_set=table.rule_set, payout_schedule=table.payout_schedule)
    body = {
        "table": table_data(table),
        "theoretical_rtp": figure.rtp,
        "rtp_method": figure.method,
    }
    return Response(TableCreatedSerializer(body).data, status=status.HTTP_201_CREATED)


class TableCloneView(APIView):
    """A new closed table configured as this one (pit, rules, currency, card source, limits
    and timers)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        code = serializers.SlugField(max_length=40)
        name = serializers.CharField(max_length=120)

    @extend_schema(request=InputSerializer, responses={201: TableCreatedSerializer})
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        table = selectors.table_get(pk=pk)
        return _created(services.table_clone(actor=_actor(request), table_id=table.pk, **data))


class TableRetireView(APIView):
    """A closed table leaves the floor for good (its history stays)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    @extend_schema(request=None, responses=TableOutputSerializer)
    def post(self, request, pk: int):
        table = selectors.table_get(pk=pk)
        table = services.table_retire(actor=_actor(request), table_id=table.pk)
        return Response(TableOutputSerializer(table_data(table)).data)


class TableSetupView(APIView):
    """The table's name, pit and card source (omitted fields keep their value; ``pit_id``
    null: no pit); logged. The card source changes only while the table is closed (409)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120, required=False)
        pit_id = IdField(required=False, allow_null=True)
        card_source = serializers.ChoiceField(choices=Table.CardSource.choices, required=False)

    @extend_schema(request=InputSerializer, responses=TableOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        table = selectors.table_get(pk=pk)
        pit = table.pit
        if "pit_id" in data:
            pit = Pit.objects.filter(pk=data["pit_id"]).first() if data["pit_id"] else None
            if data["pit_id"] and pit is None:
                raise ValidationFailed("No such pit.", errors={"pit_id": ["unknown"]})
        table = services.table_setup_set(
            actor=_actor(request),
            table_id=table.pk,
            name=data.get("name", table.name),
            pit=pit,
            card_source=data.get("card_source", table.card_source),
        )
        return Response(TableOutputSerializer(table_data(table)).data)
