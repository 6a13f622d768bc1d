from datetime import timedelta

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import health
from casino.actors import Actor
from casino.api import selectors, services
from casino.api.inputs import IdField, ReferenceField, staff_user, validated
from casino.api.models import Scope
from casino.api.permissions import request_scope
from casino.api.principals import ApiKeyPrincipal, DevicePrincipal
from ledger.models import Operator
from tables.models import Table


class HealthView(APIView):
    public = True
    authentication_classes = []
    throttle_classes = []

    class OutputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=["ok", "unavailable"])
        database = serializers.DictField()
        broker = serializers.DictField()
        cache = serializers.DictField()

    @extend_schema(responses={200: OutputSerializer, 503: OutputSerializer}, auth=[])
    def get(self, request):
        report = health.readiness_public()
        code = (
            status.HTTP_200_OK if report["status"] == "ok" else status.HTTP_503_SERVICE_UNAVAILABLE
        )
        return Response(self.OutputSerializer(report).data, status=code)


class MeView(APIView):
    """Who the caller is, which role it acts with and what it may see."""

    required_permissions = {"GET": ()}

    class OutputSerializer(serializers.Serializer):
        kind = serializers.CharField()
        name = serializers.CharField()
        roles = serializers.ListField(child=serializers.CharField())
        operator_id = serializers.IntegerField(allow_null=True)
        table_id = serializers.IntegerField(allow_null=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request):
        user = request.user
        if isinstance(user, (ApiKeyPrincipal, DevicePrincipal)):
            kind, roles = user.kind, [user.role]
        else:
            kind, roles = "user", sorted(user.groups.values_list("name", flat=True))
        scope = request_scope(request)
        data = {
            "kind": kind,
            "name": user.get_username(),
            "roles": roles,
            "operator_id": scope.operator_id or None,  # (0, "no operator", is internal)
            "table_id": scope.table_id,
        }
        return Response(self.OutputSerializer(data).data)


class CredentialOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    prefix = serializers.CharField()
    label = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=Scope.choices))
    allowed_networks = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    rotated_at = serializers.DateTimeField(allow_null=True)
    previous_valid_until = serializers.DateTimeField(
        allow_null=True, help_text="until when the secret replaced by the last rotation works"
    )
    revoked_at = serializers.DateTimeField(allow_null=True)
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="to the minute")
    last_used_ip = serializers.IPAddressField(allow_null=True)


class CredentialInputSerializer(serializers.Serializer):
    """What a new credential may do, from where, until when (defaults: its kind's scopes, any
    address, the longest lifetime allowed)."""

    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=Scope.choices),
        min_length=1,
        max_length=len(Scope.values),
        required=False,
    )
    allowed_networks = serializers.ListField(
        child=serializers.CharField(max_length=49), max_length=100, required=False, default=list
    )
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class RotateInputSerializer(serializers.Serializer):
    overlap_hours = serializers.IntegerField(
        min_value=0,
        max_value=24 * 366,  # bounds the input; the service allows API_ROTATION_OVERLAP_HOURS
        required=False,
        allow_null=True,
        default=None,
        help_text="how long the replaced secret keeps working (default and most: "
        "API_ROTATION_OVERLAP_HOURS)",
    )
    reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


def _rotate_data(request) -> dict:
    data = validated(RotateInputSerializer, request)
    hours = data["overlap_hours"]
    return {
        "overlap": None if hours is None else timedelta(hours=hours),
        "reason": data["reason"],
    }


class ApiKeyOutputSerializer(CredentialOutputSerializer):
    operator_id = serializers.IntegerField()


class DeviceTokenOutputSerializer(CredentialOutputSerializer):
    table_id = serializers.IntegerField()
    device_id = serializers.CharField()


class RevokeInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class ApiKeyListCreateView(generics.GenericAPIView):
    """API keys of operators. The secret is in the creation response only, never again."""

    required_permissions = {"GET": "api.view_apikey", "POST": "api.add_apikey"}
    write_scope = Scope.PIT
    serializer_class = ApiKeyOutputSerializer
    filterset_fields = ["operator"]

    class InputSerializer(CredentialInputSerializer):
        operator_id = IdField()
        label = serializers.CharField(max_length=120)

    def get_queryset(self):
        return selectors.api_key_list()

    @extend_schema(responses=ApiKeyOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(ApiKeyOutputSerializer(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "ApiKeyCreated",
                {"api_key": ApiKeyOutputSerializer(), "secret": serializers.CharField()},
            )
        },
    )
    def post(self, request):
        data = validated(self.InputSerializer, request)
        operator = get_object_or_404(Operator, pk=data["operator_id"])
        api_key, raw = services.api_key_issue(
            actor=Actor.from_request(request),
            operator=operator,
            label=data["label"],
            scopes=data.get("scopes"),
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
            created_by=staff_user(request),
        )
        body = {"api_key": ApiKeyOutputSerializer(api_key).data, "secret": raw}
        return Response(body, status=status.HTTP_201_CREATED)


class ApiKeyRotateView(APIView):
    """A new secret (shown once, a fresh lifetime); the old one works for the overlap."""

    required_permissions = {"POST": "api.change_apikey"}
    write_scope = Scope.PIT

    @extend_schema(
        request=RotateInputSerializer,
        responses=inline_serializer(
            "ApiKeyRotated",
            {"api_key": ApiKeyOutputSerializer(), "secret": serializers.CharField()},
        ),
    )
    def post(self, request, pk: int):
        rotation = _rotate_data(request)
        api_key = get_object_or_404(selectors.api_key_list(), pk=pk)
        api_key, raw = services.api_key_rotate(
            actor=Actor.from_request(request), api_key=api_key, **rotation
        )
        return Response({"api_key": ApiKeyOutputSerializer(api_key).data, "secret": raw})


class ApiKeyRevokeView(APIView):
    required_permissions = {"POST": "api.change_apikey"}
    write_scope = Scope.PIT

    @extend_schema(request=RevokeInputSerializer, responses=ApiKeyOutputSerializer)
    def post(self, request, pk: int):
        data = validated(RevokeInputSerializer, request)
        api_key = get_object_or_404(selectors.api_key_list(), pk=pk)
        api_key = services.api_key_revoke(
            actor=Actor.from_request(request), api_key=api_key, reason=data["reason"]
        )
        return Response(ApiKeyOutputSerializer(api_key).data)


class DeviceTokenListCreateView(generics.GenericAPIView):
    """Dealer device tokens, each bound to one table. The secret is shown once."""

    required_permissions = {"GET": "api.view_devicetoken", "POST": "api.add_devicetoken"}
    write_scope = Scope.PIT
    serializer_class = DeviceTokenOutputSerializer
    filterset_fields = ["table"]

    class InputSerializer(CredentialInputSerializer):
        table_id = IdField()
        device_id = ReferenceField(max_length=64)
        label = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)

    def get_queryset(self):
        return selectors.device_token_list()

    @extend_schema(responses=DeviceTokenOutputSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(DeviceTokenOutputSerializer(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "DeviceTokenCreated",
                {"device_token": DeviceTokenOutputSerializer(), "secret": serializers.CharField()},
            )
        },
    )
    def post(self, request):
        data = validated(self.InputSerializer, request)
        table = get_object_or_404(Table, pk=data["table_id"])
        token, raw = services.device_token_issue(
            actor=Actor.from_request(request),
            table=table,
            device_id=data["device_id"],
            label=data["label"],
            scopes=data.get("scopes"),
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
            created_by=staff_user(request),
        )
        body = {"device_token": DeviceTokenOutputSerializer(token).data, "secret": raw}
        return Response(body, status=status.HTTP_201_CREATED)


class DeviceTokenRotateView(APIView):
    """A new secret (shown once, a fresh lifetime); the old one works for the overlap."""

    required_permissions = {"POST": "api.change_devicetoken"}
    write_scope = Scope.PIT

    @extend_schema(
        request=RotateInputSerializer,
        responses=inline_serializer(
            "DeviceTokenRotated",
            {"device_token": DeviceTokenOutputSerializer(), "secret": serializers.CharField()},
        ),
    )
    def post(self, request, pk: int):
        rotation = _rotate_data(request)
        token = get_object_or_404(selectors.device_token_list(), pk=pk)
        token, raw = services.device_token_rotate(
            actor=Actor.from_request(request), token=token, **rotation
        )
        return Response({"device_token": DeviceTokenOutputSerializer(token).data, "secret": raw})


class DeviceTokenRevokeView(APIView):
    required_permissions = {"POST": "api.change_devicetoken"}
    write_scope = Scope.PIT

    @extend_schema(request=RevokeInputSerializer, responses=DeviceTokenOutputSerializer)
    def post(self, request, pk: int):
        data = validated(RevokeInputSerializer, request)
        token = get_object_or_404(selectors.device_token_list(), pk=pk)
        token = services.device_token_revoke(
            actor=Actor.from_request(request), token=token, reason=data["reason"]
        )
        return Response(DeviceTokenOutputSerializer(token).data)
