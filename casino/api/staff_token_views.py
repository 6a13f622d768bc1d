"""Staff API tokens over the API (``casino/api/staff_tokens.py``): list your own, mint one from
a session that passed the second factor, revoke one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import Actor
from casino.api import staff_tokens
from casino.api.inputs import staff_user_required, validated
from casino.api.models import Scope, StaffToken
from casino.api.views import CredentialInputSerializer, CredentialOutputSerializer
from casino.errors import PermissionDenied

OWN = "api.own_stafftoken"
_STAFF_ONLY = "Staff API tokens belong to staff members; API keys and devices have none."


class StaffTokenOutputSerializer(CredentialOutputSerializer):
    role = serializers.CharField(help_text="the one role the token acts with")
    user_id = serializers.IntegerField(help_text="its owner")


class StaffTokenListCreateView(generics.GenericAPIView):
    """Your own staff API tokens; POST mints one (from a verified console session only).

    A staff API token (`Authorization: Bearer st_…`) acts as you, with ONE of your roles (the
    `role` you name), for at most `API_STAFF_TOKEN_LIFETIME_HOURS` (12) hours, with its scopes
    (default `read`, `pit`) and optional address allow-list: script pit work such as a void
    request (pit boss) or its approval (floor supervisor) without a browser. It can only be
    minted from a console session that passed the second factor (not with a key, a device token
    or another staff token), and stops working when revoked, expired, or when you lose the role
    or are deactivated. Four-eyes rules compare people: your token cannot approve your own
    request. The secret is in the creation answer only; listings never show it. Issue and
    revocation are audited (`staff_token.issued`, `staff_token.revoked`)."""

    required_permissions = {"GET": OWN, "POST": OWN}
    write_scope = Scope.PIT
    serializer_class = StaffTokenOutputSerializer

    class InputSerializer(CredentialInputSerializer):
        label = serializers.CharField(max_length=120)
        role = serializers.CharField(max_length=60, help_text="one of your roles")

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no caller
            return StaffToken.objects.none()
        return staff_tokens.staff_token_list(user=staff_user_required(self.request, _STAFF_ONLY))

    @extend_schema(
        summary="List your own staff API tokens (no secrets)",
        responses=StaffTokenOutputSerializer(many=True),
    )
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(StaffTokenOutputSerializer(page, many=True).data)

    @extend_schema(
        summary="Mint a personal staff API token (verified console session only)",
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "StaffTokenCreated",
                {"staff_token": StaffTokenOutputSerializer(), "secret": serializers.CharField()},
            )
        },
    )
    def post(self, request):
        from casino.staff.mfa import is_verified

        user = staff_user_required(request, _STAFF_ONLY)
        # A session's request has no credential; the session authentication has already
        # refused one that did not pass the second factor (checked again: it is the rule).
        if request.auth is not None or not is_verified(request._request.user):
            raise PermissionDenied(
                "A staff API token is minted from a console session that passed the second "
                "factor, not with another credential."
            )
        data = validated(self.InputSerializer, request)
        token, raw = staff_tokens.staff_token_issue(
            actor=Actor.from_request(request),
            user=user,
            role=data["role"],
            label=data["label"],
            scopes=data.get("scopes"),
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
        )
        body = {"staff_token": StaffTokenOutputSerializer(token).data, "secret": raw}
        return Response(body, status=status.HTTP_201_CREATED)


class StaffTokenRevokeView(APIView):
    """Revoke one of your staff API tokens: it stops working at once (audited)."""

    required_permissions = {"POST": OWN}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)

    @extend_schema(
        summary="Revoke one of your staff API tokens",
        request=InputSerializer,
        responses=StaffTokenOutputSerializer,
    )
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        token = staff_tokens.staff_token_revoke(
            actor=Actor.from_request(request),
            user=staff_user_required(request, _STAFF_ONLY),
            token_id=pk,
            reason=data["reason"],
        )
        return Response(StaffTokenOutputSerializer(token).data)
