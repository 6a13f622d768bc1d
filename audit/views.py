"""The audit log's API (read-only): events, verification, the signed head, the public keys.
Every read is itself recorded as an ``audit.viewed`` event. The investigation endpoints
(replay, reports, disputes) are in ``forensics``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import events, selectors, signing
from audit.filters import AuditEventFilter
from audit.heads import audit_head_current, audit_head_export
from casino import replica

VIEW = "audit.view_auditevent"


class AuditEventOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    occurred_at = serializers.DateTimeField()
    name = serializers.CharField()
    actor_kind = serializers.CharField()
    actor_id = serializers.CharField()
    actor_label = serializers.CharField()
    request_id = serializers.CharField()
    operator_id = serializers.IntegerField(allow_null=True)
    casino_id = serializers.IntegerField(allow_null=True)
    table_id = serializers.IntegerField(allow_null=True)
    round_id = serializers.IntegerField(allow_null=True)
    bet_id = serializers.IntegerField(allow_null=True)
    wallet_id = serializers.IntegerField(allow_null=True)
    payload = serializers.JSONField()
    content_hash = serializers.CharField()


class AuditEventListView(generics.GenericAPIView):
    """Audit events, newest first; filter by name, actor, table, round, bet, wallet, time."""

    required_permissions = {"GET": VIEW}
    serializer_class = AuditEventOutputSerializer
    filterset_class = AuditEventFilter

    def get_queryset(self):
        return selectors.audit_event_list()

    @extend_schema(responses=AuditEventOutputSerializer(many=True))
    def get(self, request):
        with replica.reads():
            page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        # The filters applied, not every parameter sent: one the filter set does not declare
        # was ignored, and the log must not claim the read was narrowed by it.
        declared = AuditEventFilter.base_filters
        filters = {k: v for k, v in request.query_params.items() if k in declared}
        events.viewed_by(request, "events", filters=filters, event_ids=[event.pk for event in page])
        return self.get_paginated_response(AuditEventOutputSerializer(page, many=True).data)


class SealRefSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    chain_hash = serializers.CharField()
    sealed_at = serializers.DateTimeField()


class AuditEventDetailView(APIView):
    """One event, with the seal that chains it (null while it is not sealed yet)."""

    required_permissions = {"GET": VIEW}

    class OutputSerializer(AuditEventOutputSerializer):
        seal = SealRefSerializer(allow_null=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request, pk: int):
        with replica.reads():
            event = get_object_or_404(selectors.audit_event_list(), pk=pk)
            event.seal = selectors.audit_event_seal(event)
        events.viewed_by(request, "event", event_id=event.pk)
        return Response(self.OutputSerializer(event).data)


class HeadSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    chain_hash = serializers.CharField()
    sealed_at = serializers.DateTimeField(allow_null=True)
    last_event = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class VerificationStatusView(APIView):
    """The last recorded verification, the current chain head and how much awaits sealing."""

    required_permissions = {"GET": VIEW}

    class OutputSerializer(serializers.Serializer):
        last_verification = serializers.DictField(allow_null=True)
        head = HeadSerializer()
        events_pending = serializers.IntegerField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request):
        head = audit_head_current()
        body = {
            "last_verification": selectors.audit_verification_latest(),
            "head": head,
            "events_pending": selectors.audit_events_pending(head["last_event"]),
        }
        events.viewed_by(request, "verification", head_seq=head["seq"])
        return Response(self.OutputSerializer(body).data)


class PublicKeySerializer(serializers.Serializer):
    key_id = serializers.CharField()
    algorithm = serializers.CharField()
    public_key = serializers.CharField(help_text="the raw 32-byte Ed25519 public key, base64")
    active = serializers.BooleanField(help_text="whether it signs new seals and exports")


class PublicKeysView(APIView):
    """The public keys that verify audit seals, exported heads and export bundles.

    Public by design (anyone may read them: a verifier needs nothing else), so no credential
    and no audit event; the private halves never leave the settings.
    """

    public = True
    authentication_classes = []

    class OutputSerializer(serializers.Serializer):
        keys = PublicKeySerializer(many=True)

    @extend_schema(responses=OutputSerializer, auth=[])
    def get(self, request):
        return Response(self.OutputSerializer({"keys": signing.public_keys()}).data)


class HeadExportView(APIView):
    """The chain head, signed (Ed25519 over RFC 8785 JSON), to anchor outside the database."""

    required_permissions = {"GET": VIEW}

    class OutputSerializer(serializers.Serializer):
        head = serializers.DictField()
        algorithm = serializers.CharField()
        canonicalization = serializers.CharField()
        signature = serializers.CharField()
        keys = PublicKeySerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request):
        exported = audit_head_export()
        events.viewed_by(request, "head", head_seq=exported["head"]["seq"])
        return Response(self.OutputSerializer(exported).data)
