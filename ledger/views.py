"""The ledger API: players, wallets, deposits and withdrawals, transactions, corrections,
table accounting and the operators' events feed.

Every queryset is scoped by ``request_scope``: an operator's API key sees only its own players,
wallets, transactions and events (anything else is a 404). Money-moving POSTs run through
``idempotent``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import replica
from casino.actors import Actor
from casino.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from casino.api.inputs import (
    MAX_ID,
    DayField,
    IdField,
    JsonIntegerField,
    staff_user_required,
    validated,
)
from casino.api.models import Scope
from casino.api.pagination import FeedPagination
from casino.api.permissions import request_scope
from casino.errors import PermissionDenied, ValidationFailed
from ledger import selectors, services
from ledger.models import (
    Account,
    Correction,
    Leg,
    Operator,
    OperatorEvent,
    Transaction,
    WebhookCircuit,
)
from ledger.services import MAX_AMOUNT

# --- Serializers shared by several views ----------------------------------------------------


class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    operator_id = serializers.IntegerField()
    external_ref = serializers.CharField()
    display_name = serializers.CharField()
    created_at = serializers.DateTimeField()


class WalletOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    operator_id = serializers.IntegerField()
    currency = serializers.CharField()
    balance = serializers.IntegerField(help_text="Minor units.")
    created_at = serializers.DateTimeField()


class LegOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    account_id = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="Minor units; positive flows into the account.")
    currency = serializers.CharField()
    kind = serializers.ChoiceField(choices=Leg.Kind.choices)
    bet_ref = serializers.CharField()


class TransactionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text=f"One of: {', '.join(Transaction.Kind.values)}.")
    reference = serializers.CharField()
    description = serializers.CharField()
    posted_at = serializers.DateTimeField()
    actor_kind = serializers.CharField()
    actor_label = serializers.CharField()
    operator_id = serializers.IntegerField(allow_null=True)
    table_id = serializers.IntegerField(allow_null=True)
    round_id = serializers.IntegerField(allow_null=True)
    dealer_id = serializers.IntegerField(allow_null=True)
    shift = serializers.CharField()
    reverses_id = serializers.IntegerField(allow_null=True)
    legs = LegOutputSerializer(many=True, source="legs.all")


class AmountInputSerializer(serializers.Serializer):
    amount = JsonIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="Minor units.")
    reference = serializers.RegexField(
        r"^[\x21-\x7e]{1,64}$",
        required=False,
        help_text="Your own id for this movement; repeating it returns the first transaction.",
    )


class FundsMovedOutputSerializer(serializers.Serializer):
    transaction = TransactionOutputSerializer()
    wallet = WalletOutputSerializer()


def _int_param(request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValidationFailed(f"{name} must be an integer.", errors={name: ["integer"]}) from None
    if not -(2**63) <= value < 2**63:
        raise ValidationFailed(f"{name} is out of range.", errors={name: ["out of range"]})
    return value


# --- Players --------------------------------------------------------------------------------


class PlayerListCreateView(generics.GenericAPIView):
    """Players. An operator's key lists and creates its own players only."""

    required_permissions = {"GET": "ledger.view_player", "POST": "ledger.add_player"}
    write_scope = Scope.MONEY
    serializer_class = PlayerOutputSerializer

    class InputSerializer(serializers.Serializer):
        external_ref = serializers.CharField(max_length=64)
        display_name = serializers.CharField(
            max_length=120, required=False, default="", allow_blank=True
        )
        operator_id = IdField(
            required=False, help_text="Staff only; an API key always creates for its operator."
        )

    def get_queryset(self):
        return selectors.player_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(
        responses=PlayerOutputSerializer(many=True),
        parameters=[OpenApiParameter("external_ref", OpenApiTypes.STR)],
    )
    def get(self, request):
        qs = self.get_queryset()
        if ref := request.query_params.get("external_ref"):
            qs = qs.filter(external_ref=ref)
        page = self.paginate_queryset(qs)
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

    class InputSerializer(serializers.Serializer):
        player_id = IdField()
        currency = serializers.RegexField(r"^[A-Z]{3}$", help_text="ISO 4217, e.g. EUR.")

    def get_queryset(self):
        return selectors.wallet_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(
        responses=WalletOutputSerializer(many=True),
        parameters=[
            OpenApiParameter("player", OpenApiTypes.INT),
            OpenApiParameter("currency", OpenApiTypes.STR),
        ],
    )
    def get(self, request):
        qs = self.get_queryset()
        if (player := _int_param(request, "player")) is not None:
            qs = qs.filter(player_id=player)
        if currency := request.query_params.get("currency"):
            qs = qs.filter(currency=currency)
        page = self.paginate_queryset(qs)
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


# --- Transactions ---------------------------------------------------------------------------


class TransactionListView(generics.GenericAPIView):
    """Transactions with their legs (an operator sees the legs on its own accounts only)."""

    required_permissions = {"GET": "ledger.view_transaction"}
    serializer_class = TransactionOutputSerializer

    def get_queryset(self):
        return selectors.transaction_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(
        responses=TransactionOutputSerializer(many=True),
        parameters=[
            OpenApiParameter("wallet", OpenApiTypes.INT),
            OpenApiParameter("round", OpenApiTypes.INT),
            OpenApiParameter("table", OpenApiTypes.INT),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=Transaction.Kind.values),
        ],
    )
    def get(self, request):
        qs = self.get_queryset()
        if (wallet := _int_param(request, "wallet")) is not None:
            qs = qs.filter(legs__account_id=wallet).distinct()
        if (round_id := _int_param(request, "round")) is not None:
            qs = qs.filter(round_id=round_id)
        if (table := _int_param(request, "table")) is not None:
            qs = qs.filter(table_id=table)
        if kind := request.query_params.get("kind"):
            qs = qs.filter(kind=kind)
        page = self.paginate_queryset(qs)
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
    bet_ref = serializers.CharField(max_length=64, required=False, default="")


_CORRECTIONS_BY_STAFF = "Corrections are requested and approved by staff members."


class CorrectionListCreateView(generics.GenericAPIView):
    """Corrections: requested by one staff member, approved or rejected by another."""

    required_permissions = {"GET": "ledger.view_correction", "POST": "ledger.add_correction"}
    write_scope = Scope.MONEY
    serializer_class = CorrectionOutputSerializer

    def get_queryset(self):
        return selectors.correction_list()

    class InputSerializer(serializers.Serializer):
        transaction_id = IdField()
        reason = serializers.CharField(max_length=500)
        replacement_legs = ReplacementLegInputSerializer(many=True, required=False, default=list)

    @extend_schema(
        responses=CorrectionOutputSerializer(many=True),
        parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=Correction.Status.values)],
    )
    def get(self, request):
        qs = self.get_queryset()
        if state := request.query_params.get("status"):
            qs = qs.filter(status=state)
        page = self.paginate_queryset(qs)
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


# --- Table accounting -----------------------------------------------------------------------


class TableAccountingView(APIView):
    """Handle, payouts, bonuses, win and hold % grouped by table, operator, day, shift, dealer.

    Computed from the legs of player wallets at tables, so it reconciles exactly with the
    ledger. An operator's key sees its own players' play only.
    """

    required_permissions = {"GET": "ledger.view_accounting"}

    class QuerySerializer(serializers.Serializer):
        group_by = serializers.CharField(required=False, default="table")
        date_from = DayField(required=False)
        date_to = DayField(required=False)
        table = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        operator = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        dealer = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        currency = serializers.RegexField(r"^[A-Z]{3}$", required=False)

        def validate_group_by(self, value):
            dims = [d for d in value.split(",") if d]
            unknown = set(dims) - selectors.ACCOUNTING_DIMENSIONS.keys()
            if unknown:
                raise serializers.ValidationError(
                    f"unknown {sorted(unknown)}; use {sorted(selectors.ACCOUNTING_DIMENSIONS)}"
                )
            return dims

    class OutputSerializer(serializers.Serializer):
        table = serializers.IntegerField(required=False)
        operator = serializers.IntegerField(required=False)
        day = serializers.DateField(required=False)
        shift = serializers.CharField(required=False)
        dealer = serializers.IntegerField(required=False, allow_null=True)
        currency = serializers.CharField()
        handle = serializers.IntegerField()
        payouts = serializers.IntegerField()
        bonuses = serializers.IntegerField()
        win = serializers.IntegerField()
        hold_pct = serializers.DecimalField(max_digits=30, decimal_places=2, allow_null=True)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "group_by",
                OpenApiTypes.STR,
                description="Comma-separated: table, operator, day, shift, dealer.",
            ),
            OpenApiParameter("date_from", OpenApiTypes.DATE),
            OpenApiParameter("date_to", OpenApiTypes.DATE),
            OpenApiParameter("table", OpenApiTypes.INT),
            OpenApiParameter("operator", OpenApiTypes.INT),
            OpenApiParameter("dealer", OpenApiTypes.INT),
            OpenApiParameter("currency", OpenApiTypes.STR),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        q = query.validated_data
        scope = request_scope(request)
        with replica.reads():
            rows = selectors.table_accounting(
                group_by=q["group_by"],
                filters=selectors.AccountingFilter(
                    date_from=q.get("date_from"),
                    date_to=q.get("date_to"),
                    table_id=q.get("table"),
                    operator_id=scope.operator_or(q.get("operator")),
                    dealer_id=q.get("dealer"),
                    currency=q.get("currency"),
                ),
            )
        return Response(self.OutputSerializer(rows, many=True).data)


# --- Operator events ------------------------------------------------------------------------


class OperatorEventOutputSerializer(serializers.Serializer):
    id = serializers.CharField(source="public_id", help_text="Opaque; the webhook-id header.")
    operator_id = serializers.IntegerField()
    kind = serializers.CharField()
    created_at = serializers.DateTimeField()
    payload = serializers.JSONField()
    delivery = serializers.ChoiceField(choices=OperatorEvent.Delivery.choices)
    attempts = serializers.IntegerField()


class OperatorEventFeedView(generics.GenericAPIView):
    """The operator's events, oldest first, for polling (every event, whatever the webhook
    endpoint subscribes to).

    Paginated like every list (``cursor``, ``page_size``, ``next``), except that the feed never
    ends: ``next`` is always a link; follow it to poll for what came after this page.
    """

    required_permissions = {"GET": "ledger.view_operatorevent"}
    serializer_class = OperatorEventOutputSerializer
    pagination_class = FeedPagination
    queryset = OperatorEvent.objects.none()  # the schema's model; get() selects the scoped rows

    class QuerySerializer(serializers.Serializer):
        operator = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    @extend_schema(
        parameters=[OpenApiParameter("operator", OpenApiTypes.INT, description="Staff only.")],
        responses=OperatorEventOutputSerializer(many=True),
    )
    def get(self, request):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        operator_id = request_scope(request).operator_or(query.validated_data.get("operator"))
        page = self.paginate_queryset(selectors.operator_event_list(operator_id=operator_id))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


class OperatorEventRedeliverView(APIView):
    """Send a past event to the operator's webhook endpoint again (same ``webhook-id``), as a
    new series of attempts; audited. An operator's key redelivers its own events; staff any.
    409 while an attempt is in flight, for the webhook's own circuit events, and when the
    operator has no webhook URL."""

    required_permissions = {"POST": "ledger.redeliver_operatorevent"}
    write_scope = Scope.MONEY

    @extend_schema(request=None, responses={202: OperatorEventOutputSerializer})
    def post(self, request, event_id: str):
        event = get_object_or_404(
            selectors.operator_event_list(operator_id=request_scope(request).operator_id),
            public_id=event_id,
        )
        event = services.operator_event_redeliver(actor=Actor.from_request(request), event=event)
        return Response(OperatorEventOutputSerializer(event).data, status=status.HTTP_202_ACCEPTED)


class WebhookInputSerializer(serializers.Serializer):
    event_types = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=50,
        help_text="The event types to deliver (empty: all); omitted: unchanged. "
        "Others stay in the feed only.",
    )
    rotate_secret = serializers.BooleanField(
        required=False,
        default=True,
        help_text="Issue a new signing secret (shown once). The previous one keeps signing "
        "alongside it for 24 hours. Always true when there is no secret yet.",
    )


class OperatorWebhookOutputSerializer(serializers.Serializer):
    operator_id = serializers.IntegerField()
    url = serializers.CharField()
    event_types = serializers.ListField(child=serializers.CharField())
    secret = serializers.CharField(
        allow_null=True,
        help_text="The new signing secret (whsec_...): shown this once only; null when the "
        "secret was not rotated.",
    )
    previous_secret_until = serializers.DateTimeField(
        allow_null=True, help_text="Until then deliveries are also signed with the old secret."
    )


def _webhook_set_response(request, operator: Operator, url: str, data: dict) -> Response:
    operator, secret = services.operator_webhook_set(
        actor=Actor.from_request(request),
        operator=operator,
        url=url,
        event_types=data.get("event_types"),
        rotate_secret=data["rotate_secret"],
    )
    return Response(
        {
            "operator_id": operator.pk,
            "url": operator.webhook_url,
            "event_types": operator.webhook_event_types,
            "secret": secret,
            "previous_secret_until": _previous_until(operator),
        }
    )


def _previous_until(operator: Operator):
    until = operator.webhook_secret_previous_until
    return until if operator.webhook_secret_previous_sealed and until else None


class OperatorWebhookView(APIView):
    """Staff: an operator's webhook URL and event types; rotates the signing secret (shown
    once) unless ``rotate_secret`` is false. Refused targets (ledger/egress.py) are a 400
    naming ``webhook_url``."""

    required_permissions = {"POST": "ledger.change_operator"}
    write_scope = Scope.MONEY

    class InputSerializer(WebhookInputSerializer):
        url = serializers.CharField(max_length=500, allow_blank=True)

    @extend_schema(request=InputSerializer, responses=OperatorWebhookOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        operator = get_object_or_404(Operator, pk=pk)
        return _webhook_set_response(request, operator, data["url"], data)


class OwnWebhookView(APIView):
    """An operator's API key: its own webhook URL, subscribed event types and the state of its
    circuit breaker; PUT sets the URL ("" for the events feed only) and event types, and
    rotates the signing secret (shown once in the response; the previous one keeps signing
    alongside for 24 hours) unless ``rotate_secret`` is false. Refused targets
    (ledger/egress.py) are a 400 naming ``webhook_url``."""

    required_permissions = {"GET": "ledger.view_operatorevent", "PUT": "ledger.manage_own_webhook"}
    # Where the operator's money notifications go: a key that may move money may set it.
    write_scope = Scope.MONEY

    class InputSerializer(WebhookInputSerializer):
        webhook_url = serializers.CharField(max_length=500, allow_blank=True)

    def _operator(self, request) -> Operator:
        operator_id = request_scope(request).operator_id
        if operator_id is None:
            raise PermissionDenied("Only an operator's API key has a webhook of its own.")
        return get_object_or_404(Operator, pk=operator_id)

    @extend_schema(
        responses=inline_serializer(
            "OwnWebhook",
            {
                "operator_id": serializers.IntegerField(),
                "url": serializers.CharField(),
                "event_types": serializers.ListField(child=serializers.CharField()),
                "previous_secret_until": serializers.DateTimeField(allow_null=True),
                "circuit": serializers.ChoiceField(choices=WebhookCircuit.State.choices),
                "consecutive_failures": serializers.IntegerField(),
                "open_until": serializers.DateTimeField(allow_null=True),
            },
        )
    )
    def get(self, request):
        operator = self._operator(request)
        circuit = selectors.webhook_circuit_of(operator_id=operator.pk)
        return Response(
            {
                "operator_id": operator.pk,
                "url": operator.webhook_url,
                "event_types": operator.webhook_event_types,
                "previous_secret_until": _previous_until(operator),
                "circuit": circuit.state,
                "consecutive_failures": circuit.consecutive_failures,
                "open_until": circuit.open_until,
            }
        )

    @extend_schema(request=InputSerializer, responses=OperatorWebhookOutputSerializer)
    def put(self, request):
        data = validated(self.InputSerializer, request)
        operator = self._operator(request)
        return _webhook_set_response(request, operator, data["webhook_url"], data)
