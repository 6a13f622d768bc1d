"""Voiding a round: request (with its preview), approve, reject and cancel."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.inputs import no_fields, staff_user_required, validated
from casino.api.models import Scope
from tables import selectors, services
from tables.serializers import (
    RoundSummarySerializer,
    RoundVoidSerializer,
    VoidRequestOutputSerializer,
)
from tables.views.shared import (
    actor_of,
    seen,
)


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
        rnd = selectors.round_get(pk=pk, **seen(request))
        body = {
            "void_request": selectors.void_request_json(selectors.void_request_latest(rnd)),
            "preview": selectors.void_preview(rnd),
        }
        return Response(RoundVoidSerializer(body).data)

    @extend_schema(request=InputSerializer, responses={201: VoidRequestOutputSerializer})
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        void = services.void_request(
            actor=actor_of(request),
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
                actor=actor_of(request),
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
        no_fields(request)
        rnd = services.void_approve(
            actor=actor_of(request),
            user=staff_user_required(request, "Only a staff member can do this."),
            round_id=pk,
        )
        return Response(RoundSummarySerializer(rnd).data)
