"""The round replay API (read-only); the read is recorded as an ``audit.viewed`` event."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import events
from audit.views import VIEW
from casino import replica
from forensics.replay import round_replay


class ReplayLineSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    bet_ref = serializers.CharField()
    player_id = serializers.CharField()
    hand = serializers.CharField()
    result = serializers.CharField()
    odds = serializers.CharField()
    odds_kind = serializers.CharField()
    stake = serializers.IntegerField()
    currency = serializers.CharField(help_text="The round's: every amount of the line's.")
    stake_returned = serializers.IntegerField()
    winnings = serializers.IntegerField()
    bonus = serializers.IntegerField()
    bonus_kind = serializers.CharField()
    paid = serializers.IntegerField()
    ledger_payout = serializers.IntegerField(allow_null=True)
    ledger_bonus = serializers.IntegerField(allow_null=True)
    ledger_leg_ids = serializers.ListField(child=serializers.IntegerField())
    match = serializers.BooleanField()


class ReplayDifferenceSerializer(serializers.Serializer):
    kind = serializers.CharField(
        help_text="line | stake | recorded | unposted | unknown_bet | event_modified | "
        "event_unaudited | audit_event_modified | replay_failed | card_not_in_shoe_order"
    )
    bet_ref = serializers.CharField()
    line = serializers.IntegerField(allow_null=True)
    hand = serializers.CharField()
    field = serializers.CharField()
    replay = serializers.JSONField(allow_null=True)
    found = serializers.JSONField(allow_null=True)
    source = serializers.CharField()
    detail = serializers.CharField()


class RoundReplayView(APIView):
    """A round re-run from its recorded events through the engine under its pinned rules,
    compared line by line with the ledger, with the proof that its audit events are intact."""

    required_permissions = {"GET": VIEW}

    class OutputSerializer(serializers.Serializer):
        round = serializers.DictField()
        generated_at = serializers.DateTimeField()
        software_version = serializers.CharField()
        status = serializers.ChoiceField(choices=["match", "differences", "not_settled"])
        ok = serializers.BooleanField()
        steps = serializers.ListField(child=serializers.DictField())
        hands = serializers.ListField(child=serializers.DictField())
        dealer = serializers.DictField()
        lines = ReplayLineSerializer(many=True)
        ledger = serializers.DictField()
        differences = ReplayDifferenceSerializer(many=True)
        integrity = serializers.DictField()
        shoes = serializers.ListField(
            child=serializers.DictField(),
            help_text="each shoe's proof: commitments (and when), revealed order, verification",
        )
        settled_at = serializers.DateTimeField(allow_null=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request, pk: int):
        with replica.reads():
            replay = round_replay(round_id=pk)
        events.viewed_by(request, "replay", round_id=pk, status=replay["status"])
        currency = replay["round"].get("currency")
        replay = {**replay, "lines": [{**line, "currency": currency} for line in replay["lines"]]}
        return Response(self.OutputSerializer(replay).data)
