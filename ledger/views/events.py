"""The operators' events feed, redelivery, and webhook endpoints (staff's and the
operator's own)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import Actor
from casino.api.inputs import (
    no_fields,
    validated,
)
from casino.api.models import Scope
from casino.api.pagination import FeedPagination
from casino.api.permissions import request_scope
from casino.errors import PermissionDenied
from ledger import egress, filters, selectors, services
from ledger.models import (
    Operator,
    OperatorEvent,
    WebhookCircuit,
)


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
    filterset_class = filters.OperatorEventFilter

    def get_queryset(self):
        return selectors.operator_event_list(operator_id=request_scope(self.request).operator_id)

    @extend_schema(responses=OperatorEventOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


class OperatorEventRedeliverView(APIView):
    """Send a past event to the operator's webhook endpoint again (same ``webhook-id``), as a
    new series of attempts; audited. An operator's key redelivers its own events; staff any.
    The body, if any, is an empty object: a field in it is a 400 naming it. 409 while an
    attempt is in flight, for the webhook's own circuit events, and when the operator has no
    webhook URL."""

    required_permissions = {"POST": "ledger.redeliver_operatorevent"}
    write_scope = Scope.MONEY

    @extend_schema(request=None, responses={202: OperatorEventOutputSerializer})
    def post(self, request, event_id: str):
        no_fields(request)
        event = get_object_or_404(
            selectors.operator_event_list(operator_id=request_scope(request).operator_id),
            public_id=event_id,
        )
        event = services.operator_event_redeliver(actor=Actor.from_request(request), event=event)
        return Response(OperatorEventOutputSerializer(event).data, status=status.HTTP_202_ACCEPTED)


def _url_field() -> serializers.CharField:
    # Kept as sent: a space around the URL is refused by the egress check, not trimmed away.
    return serializers.CharField(
        max_length=egress.MAX_LENGTH, allow_blank=True, trim_whitespace=False
    )


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


def _webhook_set_response(request, operator: Operator, data: dict, url_field: str) -> Response:
    try:
        operator, secret = services.operator_webhook_set(
            actor=Actor.from_request(request),
            operator=operator,
            url=data[url_field],
            event_types=data.get("event_types"),
            rotate_secret=data["rotate_secret"],
        )
    except egress.EgressRefused as exc:
        # The service names the model's field; the caller needs the one it sent.
        raise exc.named(url_field) from None
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
    naming ``url``."""

    required_permissions = {"POST": "ledger.change_operator"}
    write_scope = Scope.MONEY

    class InputSerializer(WebhookInputSerializer):
        url = _url_field()

    @extend_schema(request=InputSerializer, responses=OperatorWebhookOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        operator = get_object_or_404(Operator, pk=pk)
        return _webhook_set_response(request, operator, data, "url")


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
        webhook_url = _url_field()

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
        return _webhook_set_response(request, operator, data, "webhook_url")
