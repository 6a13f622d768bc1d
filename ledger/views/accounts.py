"""Players and wallets: listing and opening them, balances, deposits and withdrawals."""

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
    ReferenceField,
    validated,
)
from casino.api.models import Scope
from casino.api.permissions import request_scope
from casino.errors import PermissionDenied, ValidationFailed
from ledger import filters, selectors, services
from ledger.models import (
    Account,
    Operator,
)
from ledger.views.shared import (
    AmountInputSerializer,
    FundsMovedOutputSerializer,
    PlayerOutputSerializer,
    WalletOutputSerializer,
)


class PlayerListCreateView(generics.GenericAPIView):
    """Players. An operator's key lists and creates its own players only."""

    required_permissions = {"GET": "ledger.view_player", "POST": "ledger.add_player"}
    write_scope = Scope.MONEY
    serializer_class = PlayerOutputSerializer
    filterset_class = filters.PlayerFilter

    class InputSerializer(serializers.Serializer):
        external_ref = ReferenceField(max_length=64)
        display_name = serializers.CharField(
            max_length=120, required=False, default="", allow_blank=True
        )
        operator_id = IdField(
            required=False, help_text="Staff only; an API key always creates for its operator."
        )

    def get_queryset(self):
        return selectors.player_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(responses=PlayerOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(PlayerOutputSerializer(page, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: PlayerOutputSerializer})
    def post(self, request):
        data = validated(self.InputSerializer, request)
        scope = request_scope(request)
        if scope.operator_id is not None and data.get("operator_id") not in (
            None,
            scope.operator_id,
        ):
            raise PermissionDenied("You may create players for your own operator only.")
        operator_id = scope.operator_or(data.get("operator_id"))
        if operator_id is None:
            raise ValidationFailed("operator_id is required.", errors={"operator_id": ["required"]})
        operator = get_object_or_404(Operator, pk=operator_id)
        player = services.player_create(
            actor=Actor.from_request(request),
            operator=operator,
            external_ref=data["external_ref"],
            display_name=data["display_name"],
        )
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(APIView):
    required_permissions = {"GET": "ledger.view_player"}

    @extend_schema(responses=PlayerOutputSerializer)
    def get(self, request, pk: int):
        scope = request_scope(request)
        player = get_object_or_404(selectors.player_list(operator_id=scope.operator_id), pk=pk)
        return Response(PlayerOutputSerializer(player).data)


# --- Wallets --------------------------------------------------------------------------------


class WalletListCreateView(generics.GenericAPIView):
    """Player wallets, one per player and currency. Opening one that exists returns it (200)."""

    required_permissions = {"GET": "ledger.view_account", "POST": "ledger.add_account"}
    write_scope = Scope.MONEY
    serializer_class = WalletOutputSerializer
    filterset_class = filters.WalletFilter

    class InputSerializer(serializers.Serializer):
        player_id = IdField()
        currency = serializers.RegexField(r"^[A-Z]{3}$", help_text="ISO 4217, e.g. EUR.")

    def get_queryset(self):
        return selectors.wallet_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(responses=WalletOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(WalletOutputSerializer(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={200: WalletOutputSerializer, 201: WalletOutputSerializer},
    )
    def post(self, request):
        data = validated(self.InputSerializer, request)
        scope = request_scope(request)
        player = get_object_or_404(
            selectors.player_list(operator_id=scope.operator_id), pk=data["player_id"]
        )
        wallet, created = services.wallet_open(
            actor=Actor.from_request(request), player=player, currency=data["currency"]
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(WalletOutputSerializer(wallet).data, status=code)


def _wallet_for(request, pk: int) -> Account:
    scope = request_scope(request)
    return get_object_or_404(selectors.wallet_list(operator_id=scope.operator_id), pk=pk)


class WalletDetailView(APIView):
    required_permissions = {"GET": "ledger.view_account"}

    @extend_schema(responses=WalletOutputSerializer)
    def get(self, request, pk: int):
        return Response(WalletOutputSerializer(_wallet_for(request, pk)).data)


class WalletBalanceView(APIView):
    """The wallet's balance, with the same figure recomputed from its legs."""

    required_permissions = {"GET": "ledger.view_account"}

    class OutputSerializer(serializers.Serializer):
        wallet_id = serializers.IntegerField()
        currency = serializers.CharField()
        balance = serializers.IntegerField()
        balance_from_legs = serializers.IntegerField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request, pk: int):
        wallet = _wallet_for(request, pk)
        data = {
            "wallet_id": wallet.pk,
            "currency": wallet.currency,
            "balance": wallet.balance,
            "balance_from_legs": selectors.legs_total(wallet),
        }
        return Response(self.OutputSerializer(data).data)


class _FundsView(APIView):
    required_permissions = {"POST": "ledger.move_funds"}
    write_scope = Scope.MONEY
    service = None

    def post(self, request, pk: int):
        def work():
            data = validated(AmountInputSerializer, request)
            wallet = _wallet_for(request, pk)
            txn, created = type(self).service(
                actor=Actor.from_request(request),
                wallet=wallet,
                amount=data["amount"],
                reference=data.get("reference"),
            )
            wallet.refresh_from_db()
            txn = selectors.transaction_list(operator_id=None).get(pk=txn.pk)
            body = {"transaction": txn, "wallet": wallet}
            code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
            return Response(FundsMovedOutputSerializer(body).data, status=code)

        return idempotent(request, work=work)


class DepositView(_FundsView):
    """Credit a wallet from the operator's cash account. Idempotent."""

    service = staticmethod(services.wallet_deposit)

    @extend_schema(
        request=AmountInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: FundsMovedOutputSerializer, 200: FundsMovedOutputSerializer},
    )
    def post(self, request, pk: int):
        return super().post(request, pk)


class WithdrawalView(_FundsView):
    """Debit a wallet to the operator's cash account. Idempotent; 422 insufficient-funds."""

    service = staticmethod(services.wallet_withdraw)

    @extend_schema(
        request=AmountInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: FundsMovedOutputSerializer, 200: FundsMovedOutputSerializer},
    )
    def post(self, request, pk: int):
        return super().post(request, pk)
