"""Operators' players at the table: bets and decisions (money moves; idempotent)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from casino.api.inputs import IdField, JsonIntegerField, validated
from casino.api.models import Scope
from casino.api.permissions import request_scope
from casino.errors import NotFound
from tables import selectors, services
from tables.errors import BettingClosed
from tables.serializers import (
    MAX_AMOUNT,
    BetOutputSerializer,
    PlayedSerializer,
)
from tables.views.shared import (
    actor_of,
    player_for,
    seen,
)


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
        actor = actor_of(request)

        def work() -> Response:
            data = validated(self.InputSerializer, request)
            player = player_for(request, data.pop("player_id"))
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

        try:  # the bet's audit events and idempotency record: one statement
            return idempotent(request, work=work, audit_batched=True)
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
            player = player_for(request, data["player_id"])
            played = services.decision_make(
                actor=actor_of(request),
                round_id=selectors.round_get(pk=pk, **seen(request)).pk,
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
