"""Dispute cases in the API: the pit opens and works them, a floor supervisor resolves them,
auditors read them. Staff only (API keys and devices hold none of these permissions)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import events
from audit.filters import DisputeFilter
from audit.models import DisputeCase, DisputeNote
from casino.actors import Actor
from casino.api.inputs import IdField, JsonIntegerField, staff_user_required, validated
from casino.api.models import Scope
from casino.errors import NotFound
from forensics import disputes

MAX_ADJUSTMENT = 10**12


_WORKED_BY_STAFF = "Dispute cases are worked by staff users."


def _cases():
    return DisputeCase.objects.select_related(
        "round", "bet", "opened_by", "resolved_by", "correction"
    ).prefetch_related("notes__author")


def _case(pk: int) -> DisputeCase:
    case = _cases().filter(pk=pk).first()
    if case is None:
        raise NotFound(f"Dispute case {pk} does not exist.")
    return case


class DisputeNoteOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DisputeNote.Kind.choices)
    text = serializers.CharField()
    evidence_ref = serializers.CharField()
    author = serializers.CharField(source="author.username")
    created_at = serializers.DateTimeField()


class DisputeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round_id = serializers.IntegerField()
    bet_ref = serializers.CharField(source="bet.ref", allow_null=True, default=None)
    claim = serializers.CharField()
    claimant = serializers.CharField()
    status = serializers.ChoiceField(choices=DisputeCase.Status.choices)
    opened_by = serializers.CharField(source="opened_by.username")
    opened_at = serializers.DateTimeField()
    replay = serializers.DictField(allow_null=True)
    resolution = serializers.CharField()
    resolved_by = serializers.CharField(
        source="resolved_by.username", allow_null=True, default=None
    )
    resolved_at = serializers.DateTimeField(allow_null=True)
    correction_id = serializers.IntegerField(allow_null=True)
    correction_status = serializers.CharField(
        source="correction.status", allow_null=True, default=None
    )
    notes = DisputeNoteOutputSerializer(many=True, source="notes.all")


class EvidenceInputSerializer(serializers.Serializer):
    reference = serializers.CharField(max_length=200, help_text="e.g. camera 3 14:03:22.400")
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class DisputeListCreateView(generics.GenericAPIView):
    """Dispute cases, newest first (filter by ``status`` or ``round``); open one."""

    required_permissions = {"GET": "audit.view_disputecase", "POST": "audit.add_disputecase"}
    write_scope = Scope.PIT
    serializer_class = DisputeOutputSerializer
    filterset_class = DisputeFilter

    class InputSerializer(serializers.Serializer):
        round_id = IdField()
        bet_ref = serializers.CharField(max_length=40, required=False, default="", allow_blank=True)
        claim = serializers.CharField(max_length=2000)
        claimant = serializers.CharField(
            max_length=200, required=False, default="", allow_blank=True
        )
        evidence = EvidenceInputSerializer(many=True, required=False, default=list)

    def get_queryset(self):
        return _cases()

    @extend_schema(responses=DisputeOutputSerializer(many=True))
    def get(self, request):
        qs = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(qs)
        events.viewed_by(request, "disputes", dispute_ids=[case.pk for case in page])
        return self.get_paginated_response(DisputeOutputSerializer(page, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: DisputeOutputSerializer})
    def post(self, request):
        data = validated(self.InputSerializer, request)
        case = disputes.dispute_open(
            actor=Actor.from_request(request),
            user=staff_user_required(request, _WORKED_BY_STAFF),
            round_id=data["round_id"],
            bet_ref=data["bet_ref"],
            claim=data["claim"],
            claimant=data["claimant"],
            evidence=data["evidence"],
        )
        return Response(
            DisputeOutputSerializer(_case(case.pk)).data, status=status.HTTP_201_CREATED
        )


class DisputeDetailView(APIView):
    required_permissions = {"GET": "audit.view_disputecase"}

    @extend_schema(responses=DisputeOutputSerializer)
    def get(self, request, pk: int):
        case = _case(pk)
        events.viewed_by(request, "dispute", dispute_id=case.pk)
        return Response(DisputeOutputSerializer(case).data)


class DisputeNoteView(APIView):
    """Add a staff note, or an evidence reference (``kind=evidence`` with ``evidence_ref``)."""

    required_permissions = {"POST": "audit.work_dispute"}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=DisputeNote.Kind.choices, default="note")
        text = serializers.CharField(max_length=2000)
        evidence_ref = serializers.CharField(
            max_length=200, required=False, default="", allow_blank=True
        )

    @extend_schema(request=InputSerializer, responses={201: DisputeOutputSerializer})
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        disputes.dispute_note_add(
            actor=Actor.from_request(request),
            user=staff_user_required(request, _WORKED_BY_STAFF),
            case_id=pk,
            **data,
        )
        return Response(DisputeOutputSerializer(_case(pk)).data, status=status.HTTP_201_CREATED)


class DisputeInvestigateView(APIView):
    """open -> investigating (the replay attached to the case is refreshed)."""

    required_permissions = {"POST": "audit.work_dispute"}
    write_scope = Scope.PIT

    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)

    @extend_schema(request=InputSerializer, responses=DisputeOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        disputes.dispute_investigate(
            actor=Actor.from_request(request),
            user=staff_user_required(request, _WORKED_BY_STAFF),
            case_id=pk,
            note=data["note"],
        )
        return Response(DisputeOutputSerializer(_case(pk)).data)


class AdjustmentInputSerializer(serializers.Serializer):
    bet_ref = serializers.CharField(max_length=40)
    amount = JsonIntegerField(
        min_value=-MAX_ADJUSTMENT,
        max_value=MAX_ADJUSTMENT,
        help_text="Minor units; positive pays the player, negative takes back.",
    )


class DisputeResolveView(APIView):
    """investigating -> resolved_upheld (a ledger correction is requested, to be approved by
    another staff member) or resolved_rejected."""

    required_permissions = {"POST": "audit.resolve_dispute"}
    write_scope = Scope.MONEY

    class InputSerializer(serializers.Serializer):
        outcome = serializers.ChoiceField(choices=["upheld", "rejected"])
        resolution = serializers.CharField(max_length=2000)
        adjustments = AdjustmentInputSerializer(
            many=True,
            required=False,
            default=list,
            help_text="Upheld only: what the resolution grants per bet. Empty: pay what the "
            "replay computes where the ledger differs from it.",
        )

    @extend_schema(request=InputSerializer, responses=DisputeOutputSerializer)
    def post(self, request, pk: int):
        data = validated(self.InputSerializer, request)
        actor, user = Actor.from_request(request), staff_user_required(request, _WORKED_BY_STAFF)
        if data["outcome"] == "rejected":
            disputes.dispute_reject(
                actor=actor, user=user, case_id=pk, resolution=data["resolution"]
            )
        else:
            adjustments: dict[str, int] = {}
            for item in data["adjustments"]:
                adjustments[item["bet_ref"]] = adjustments.get(item["bet_ref"], 0) + item["amount"]
            disputes.dispute_uphold(
                actor=actor,
                user=user,
                case_id=pk,
                resolution=data["resolution"],
                adjustments=adjustments or None,  # zero totals are refused, never dropped
            )
        return Response(DisputeOutputSerializer(_case(pk)).data)
