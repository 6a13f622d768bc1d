"""Transactions, house accounts and four-eyes corrections (table accounting is
tables/views/accounting.py: it needs the casinos' gaming days)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import Actor
from casino.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from casino.api.inputs import (
    IdField,
    JsonIntegerField,
    staff_user_required,
    validated,
)
from casino.api.models import Scope
from casino.api.permissions import request_scope
from casino.errors import PermissionDenied
from ledger import filters, selectors, services
from ledger.models import (
    Account,
    Correction,
    Leg,
    Transaction,
)
from ledger.services import MAX_AMOUNT
from ledger.views.shared import (
    TransactionOutputSerializer,
)


class TransactionListView(generics.GenericAPIView):
    """Transactions with their legs (an operator sees the legs on its own accounts only)."""

    required_permissions = {"GET": "ledger.view_transaction"}
    serializer_class = TransactionOutputSerializer
    filterset_class = filters.TransactionFilter

    def get_queryset(self):
        return selectors.transaction_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(responses=TransactionOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(TransactionOutputSerializer(page, many=True).data)


class TransactionDetailView(APIView):
    required_permissions = {"GET": "ledger.view_transaction"}

    @extend_schema(responses=TransactionOutputSerializer)
    def get(self, request, pk: int):
        qs = selectors.transaction_list(operator_id=request_scope(request).operator_id)
        return Response(TransactionOutputSerializer(get_object_or_404(qs, pk=pk)).data)


class HouseAccountListView(APIView):
    """House-side accounts with balances derived from their legs (staff only)."""

    required_permissions = {"GET": "ledger.view_transaction"}

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        kind = serializers.CharField(help_text=f"One of: {', '.join(Account.Kind.values)}.")
        currency = serializers.CharField()
        table_id = serializers.IntegerField(allow_null=True)
        operator_id = serializers.IntegerField(allow_null=True)
        balance = serializers.IntegerField()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request):
        scope = request_scope(request)
        if scope.operator_id is not None:
            raise PermissionDenied("House accounts are visible to casino staff only.")
        rows = [
            {
                "id": account.pk,
                "kind": account.kind,
                "currency": account.currency,
                "table_id": account.table_id,
                "operator_id": account.operator_id,
                "balance": balance,
            }
            for account, balance in selectors.house_account_list()
        ]
        return Response(self.OutputSerializer(rows, many=True).data)


# --- Corrections ----------------------------------------------------------------------------


class CorrectionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    original_id = serializers.IntegerField()
    reason = serializers.CharField()
    replacement_legs = serializers.JSONField()
    status = serializers.ChoiceField(choices=Correction.Status.choices)
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = serializers.DateTimeField()
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_note = serializers.CharField()
    reversal_id = serializers.IntegerField(allow_null=True)
    replacement_id = serializers.IntegerField(allow_null=True)


class ReplacementLegInputSerializer(serializers.Serializer):
    account_id = IdField()
    amount = JsonIntegerField(min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT)
    kind = serializers.ChoiceField(choices=Leg.Kind.choices)
    bet_ref = serializers.CharField(max_length=64, required=False, default="", allow_blank=True)


_CORRECTIONS_BY_STAFF = "Corrections are requested and approved by staff members."


class CorrectionListCreateView(generics.GenericAPIView):
    """Corrections: requested by one staff member, approved or rejected by another."""

    required_permissions = {"GET": "ledger.view_correction", "POST": "ledger.add_correction"}
    write_scope = Scope.MONEY
    serializer_class = CorrectionOutputSerializer
    filterset_class = filters.CorrectionFilter

    def get_queryset(self):
        return selectors.correction_list()

    class InputSerializer(serializers.Serializer):
        transaction_id = IdField()
        reason = serializers.CharField(max_length=500)
        replacement_legs = ReplacementLegInputSerializer(many=True, required=False, default=list)

    @extend_schema(responses=CorrectionOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(CorrectionOutputSerializer(page, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: CorrectionOutputSerializer})
    def post(self, request):
        data = validated(self.InputSerializer, request)
        user = staff_user_required(request, _CORRECTIONS_BY_STAFF)
        original = get_object_or_404(Transaction, pk=data["transaction_id"])
        correction = services.correction_request(
            actor=Actor.from_request(request),
            user=user,
            original=original,
            reason=data["reason"],
            replacement_legs=[dict(leg) for leg in data["replacement_legs"]],
        )
        return Response(CorrectionOutputSerializer(correction).data, status=status.HTTP_201_CREATED)


class CorrectionDetailView(APIView):
    required_permissions = {"GET": "ledger.view_correction"}

    @extend_schema(responses=CorrectionOutputSerializer)
    def get(self, request, pk: int):
        correction = get_object_or_404(selectors.correction_list(), pk=pk)
        return Response(CorrectionOutputSerializer(correction).data)


class DecisionInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


class CorrectionApproveView(APIView):
    """Approve: posts the reversal and the replacement. Idempotent; the requester can't."""

    required_permissions = {"POST": "ledger.approve_correction"}
    write_scope = Scope.MONEY

    @extend_schema(
        request=DecisionInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses=CorrectionOutputSerializer,
    )
    def post(self, request, pk: int):
        def work():
            data = validated(DecisionInputSerializer, request)
            user = staff_user_required(request, _CORRECTIONS_BY_STAFF)
            correction = get_object_or_404(Correction, pk=pk)
            correction = services.correction_approve(
                actor=Actor.from_request(request),
                user=user,
                correction=correction,
                note=data["note"],
            )
            correction = selectors.correction_list().get(pk=correction.pk)
            return Response(CorrectionOutputSerializer(correction).data)

        return idempotent(request, work=work)


class CorrectionRejectView(APIView):
    required_permissions = {"POST": "ledger.approve_correction"}
    write_scope = Scope.MONEY

    @extend_schema(request=DecisionInputSerializer, responses=CorrectionOutputSerializer)
    def post(self, request, pk: int):
        data = validated(DecisionInputSerializer, request)
        user = staff_user_required(request, _CORRECTIONS_BY_STAFF)
        correction = get_object_or_404(Correction, pk=pk)
        correction = services.correction_reject(
            actor=Actor.from_request(request), user=user, correction=correction, note=data["note"]
        )
        correction = selectors.correction_list().get(pk=correction.pk)
        return Response(CorrectionOutputSerializer(correction).data)
