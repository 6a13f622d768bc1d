"""Running a round: opening it, loading a shoe, the round's view, closing betting, cards, the
banker's decision and resuming a suspended round."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.idempotency import IDEMPOTENCY_PARAMETER_DEALING, idempotent
from casino.api.inputs import JsonIntegerField, ReferenceField, no_fields, validated
from casino.api.models import Scope
from casino.api.permissions import request_scope
from tables import round_view, selectors, services
from tables.errors import RoundSuspended
from tables.serializers import (
    CardPostedNextSerializer,
    PlayedSerializer,
    RoundSummarySerializer,
    RoundViewSerializer,
    ShoeOutputSerializer,
)
from tables.views.shared import (
    DEAL,
    OPERATE,
    PLAYER_PARAMETER,
    VIEW,
    actor_of,
    dealing_at,
    query_player,
    seen,
    table_scope,
)


class TableRoundsView(APIView):
    """The dealer opens a round for bets (its betting timer starts)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    @extend_schema(
        request=None,
        responses={201: RoundSummarySerializer},
        parameters=[IDEMPOTENCY_PARAMETER_DEALING],
    )
    def post(self, request, pk: int):
        def work() -> Response:
            no_fields(request)
            table = selectors.table_get(pk=pk, **seen(request))
            dealing_at(request, table=table)
            rnd = services.round_open(actor=actor_of(request), table_id=table.pk)
            return Response(RoundSummarySerializer(rnd).data, status=status.HTTP_201_CREATED)

        return idempotent(request, work=work, key_required=False)


class TableShoesView(APIView):
    """A reader-fed table loads a new shoe with its shuffle record (before its first card)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        shuffle_method = serializers.CharField(max_length=60)
        device_id = ReferenceField(max_length=64, required=False, default="", allow_blank=True)
        commitment = serializers.RegexField(
            r"^[0-9a-f]{64}$", required=False, default="", allow_blank=True
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: ShoeOutputSerializer},
        parameters=[IDEMPOTENCY_PARAMETER_DEALING],
    )
    def post(self, request, pk: int):
        def work() -> Response:
            data = validated(self.InputSerializer, request)
            table = selectors.table_get(pk=pk, **seen(request))
            dealing_at(request, table=table)
            shoe = services.shoe_load(actor=actor_of(request), table_id=table.pk, **data)
            return Response(ShoeOutputSerializer(shoe).data, status=status.HTTP_201_CREATED)

        return idempotent(request, work=work, key_required=False)


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
        rnd = selectors.round_get(pk=pk, **seen(request))
        player = query_player(request)
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

    @extend_schema(
        request=None,
        responses=RoundSummarySerializer,
        parameters=[IDEMPOTENCY_PARAMETER_DEALING],
    )
    def post(self, request, pk: int):
        def work() -> Response:
            no_fields(request)
            dealing_at(request, round_id=pk)
            rnd = services.round_close_betting(
                actor=actor_of(request), round_id=pk, table_id=table_scope(request)
            )
            return Response(RoundSummarySerializer(rnd).data)

        return idempotent(request, work=work, key_required=False)


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
        parameters=[IDEMPOTENCY_PARAMETER_DEALING],
    )
    def post(self, request, pk: int):
        def work() -> Response:
            data = validated(self.InputSerializer, request)
            dealing_at(request, round_id=pk)
            posted = services.card_post(
                actor=actor_of(request),
                round_id=pk,
                card=data["card"],
                shoe_position=data.get("shoe_position"),
                table_id=table_scope(request),
            )
            rnd = selectors.round_get(pk=posted.round.pk)
            body = {
                "round": rnd,
                "card": posted.card,
                "target": posted.target,
                "next": round_view.round_next(rnd, operator_id=request_scope(request).operator_id),
            }
            return Response(CardPostedNextSerializer(body).data)

        return idempotent(request, work=work, key_required=False, standing_errors=(RoundSuspended,))


class RoundDealerDecisionView(APIView):
    """The banker's hit or stand (banker's-choice games)."""

    required_permissions = {"POST": DEAL}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=["hit", "stand"])

    @extend_schema(
        request=InputSerializer,
        responses=PlayedSerializer,
        parameters=[IDEMPOTENCY_PARAMETER_DEALING],
    )
    def post(self, request, pk: int):
        def work() -> Response:
            data = validated(self.InputSerializer, request)
            dealing_at(request, round_id=pk)
            played = services.dealer_decision_make(
                actor=actor_of(request),
                round_id=pk,
                action=data["action"],
                table_id=table_scope(request),
            )
            return Response(PlayedSerializer(played).data)

        return idempotent(request, work=work, key_required=False)


class RoundResumeView(APIView):
    """The pit resumes a suspended round (the correct card is scanned next)."""

    required_permissions = {"POST": OPERATE}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)

    @extend_schema(request=InputSerializer, responses=RoundSummarySerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        rnd = services.round_resume(actor=actor_of(request), round_id=pk, note=data["note"])
        return Response(RoundSummarySerializer(rnd).data)
