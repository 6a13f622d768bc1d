"""Tables: list and create, detail, the current round, status, limits, rules, dealer, setup,
clone and retire."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.inputs import IdField, JsonIntegerField, no_fields, validated
from casino.api.models import Scope
from casino.api.permissions import request_scope
from casino.errors import NotFound, ValidationFailed
from tables import round_view, rules_view, selectors, services
from tables.filters import TableFilter
from tables.models import Casino, PayoutScheduleVersion, Pit, RuleSetVersion, Table
from tables.serializers import (
    MAX_AMOUNT,
    DealerAssignmentOutputSerializer,
    RoundViewSerializer,
    TableCreatedSerializer,
    TableOutputSerializer,
    TableRulesSerializer,
    table_data,
)
from tables.views.shared import (
    OPERATE,
    PLAYER_PARAMETER,
    VIEW,
    actor_of,
    query_player,
    seen,
)


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
            actor=actor_of(request),
            casino=casino,
            pit=pit,
            rule_set=rule_set,
            payout_schedule=payouts,
            **data,
        )
        return _created(table)

    def get_queryset(self):
        return selectors.table_list_with_current_round(**seen(self.request)).order_by("pk")

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
        table = selectors.table_get(pk=pk, **seen(request))
        rnd = selectors.round_current(table=table)
        data = table_data(table, current_round_id=rnd.pk if rnd else None)
        return Response(TableOutputSerializer(data).data)


class TableCurrentRoundView(APIView):
    """The table's current round as the table shows it; ``player_id`` adds that player's
    legal actions."""

    required_permissions = {"GET": VIEW}

    @extend_schema(parameters=[PLAYER_PARAMETER], responses=RoundViewSerializer)
    def get(self, request, pk: int):
        table = selectors.table_get(pk=pk, **seen(request))
        player = query_player(request)
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
            no_fields(request)
            table = selectors.table_get(pk=pk)
            table = service(actor=actor_of(request), table_id=table.pk)
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
        table = services.table_limits_set(actor=actor_of(request), table_id=table.pk, **data)
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
        table = selectors.table_get(pk=pk, **seen(request))
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
            actor=actor_of(request), table_id=table.pk, rule_set=rule_set, payout_schedule=payouts
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
            actor=actor_of(request), table_id=table.pk, dealer=dealer
        )
        return Response(DealerAssignmentOutputSerializer(assignment).data)


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
        return _created(services.table_clone(actor=actor_of(request), table_id=table.pk, **data))


class TableRetireView(APIView):
    """A closed table leaves the floor for good (its history stays)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    @extend_schema(request=None, responses=TableOutputSerializer)
    def post(self, request, pk: int):
        no_fields(request)
        table = selectors.table_get(pk=pk)
        table = services.table_retire(actor=actor_of(request), table_id=table.pk)
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
            actor=actor_of(request),
            table_id=table.pk,
            name=data.get("name", table.name),
            pit=pit,
            card_source=data.get("card_source", table.card_source),
        )
        return Response(TableOutputSerializer(table_data(table)).data)
