"""Output and input shapes several ledger views share."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.inputs import (
    JsonIntegerField,
)
from ledger.models import (
    Leg,
    Transaction,
)
from ledger.services import MAX_AMOUNT


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
