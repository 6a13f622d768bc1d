"""Output shapes of the tables API (inputs live in their views, as nested InputSerializers)."""

from rest_framework import serializers

from tables.models import VoidRequest
from tables.selectors import round_current_id

MAX_AMOUNT = 10**15


class TableOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()
    casino = serializers.CharField()
    pit = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=["closed", "open", "paused"])
    rule_set_id = serializers.IntegerField(allow_null=True)
    rule_set = serializers.CharField(allow_null=True)
    payout_schedule_id = serializers.IntegerField(allow_null=True)
    payout_schedule = serializers.CharField(allow_null=True)
    currency = serializers.CharField()
    min_bet = serializers.IntegerField()
    max_bet = serializers.IntegerField()
    box_max = serializers.IntegerField(allow_null=True)
    min_unit = serializers.IntegerField()
    decision_seconds = serializers.IntegerField()
    betting_seconds = serializers.IntegerField()
    card_source = serializers.ChoiceField(choices=["server_shoe", "card_reader"])
    dealer_id = serializers.IntegerField(allow_null=True)
    rounds_played = serializers.IntegerField()
    current_round_id = serializers.IntegerField(allow_null=True)


_UNKNOWN = object()


def table_data(table, *, current_round_id=_UNKNOWN) -> dict:
    """A table as the API shows it. ``current_round_id``: the table's round as
    ``selectors.round_current`` gives it, from the queryset's annotation
    (``table_list_with_current_round``) or the caller, else read here."""
    if current_round_id is _UNKNOWN:
        current_round_id = getattr(table, "current_round_id", _UNKNOWN)
    if current_round_id is _UNKNOWN:
        current_round_id = round_current_id(table_id=table.pk)
    data = {f: getattr(table, f, None) for f in TableOutputSerializer._declared_fields}
    data.update(
        casino=table.casino.code,
        pit=table.pit.code if table.pit else None,
        rule_set=str(table.rule_set) if table.rule_set else None,
        payout_schedule=str(table.payout_schedule) if table.payout_schedule else None,
        current_round_id=current_round_id,
    )
    return data


class CardTargetSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="box | dealer")
    box = serializers.IntegerField(allow_null=True)
    hand_index = serializers.IntegerField(allow_null=True)
    forced = serializers.BooleanField(
        help_text="the rules deal this card without a decision (§6 doubled hand under hard "
        "15, §7 the fifth card of four cards hard 11 or less)"
    )


class TurnSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="hand | match | insurance | staking | dealer")
    box = serializers.IntegerField(allow_null=True)
    hand_index = serializers.IntegerField(allow_null=True)
    bets = serializers.ListField(child=serializers.CharField())


class LegalActionSerializer(serializers.Serializer):
    action = serializers.CharField()
    bet_id = serializers.CharField()
    amount_min = serializers.IntegerField(allow_null=True, help_text="Minor units of `currency`.")
    amount_max = serializers.IntegerField(allow_null=True, help_text="Minor units of `currency`.")
    currency = serializers.CharField()


class HandStateSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    cards = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="null: a face-down card (the box's own player sees it)",
    )
    forced_cards = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="positions in cards of the cards dealt by the rules, without a decision",
    )
    total = serializers.IntegerField(allow_null=True, help_text="null while a card is face down")
    soft = serializers.BooleanField()
    status = serializers.CharField()
    doubles = serializers.IntegerField()
    split = serializers.BooleanField()
    stakes = serializers.DictField(
        child=serializers.IntegerField(), help_text="Minor units of `currency`, by bet id."
    )
    currency = serializers.CharField()


class BetStateSerializer(serializers.Serializer):
    bet_id = serializers.CharField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="null: another operator's player"
    )
    stake = serializers.IntegerField(help_text="Minor units of `currency`.")
    currency = serializers.CharField()
    behind = serializers.BooleanField()
    insurance = serializers.IntegerField(help_text="Minor units of `currency`.")
    withdrawn = serializers.BooleanField()


class BoxStateSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    controller = serializers.IntegerField(
        allow_null=True, help_text="the box's player; null: another operator's player"
    )
    bets = BetStateSerializer(many=True)
    hands = HandStateSerializer(many=True)


class DealerStateSerializer(serializers.Serializer):
    cards = serializers.ListField(
        child=serializers.CharField(allow_null=True), help_text="null: a face-down card"
    )
    total = serializers.IntegerField(allow_null=True)


class VoidRequestOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round_id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=VoidRequest.Status.choices,
        help_text="requested: the round is on hold until the request is decided or expires",
    )
    reason = serializers.CharField()
    requested_by_id = serializers.IntegerField()
    requested_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    decided_by_id = serializers.IntegerField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_note = serializers.CharField(allow_blank=True)


class VoidRequestStateSerializer(serializers.Serializer):
    """A round's void request as the table shows it (who asked and decided: staff-only)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=VoidRequest.Status.choices,
        help_text="requested: the round is on hold until the request is decided or expires",
    )
    reason = serializers.CharField()
    requested_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class RoundStateSerializer(serializers.Serializer):
    """The public state of a round: what the table shows, whose turn, the caller's actions."""

    round_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=["open", "closed", "dealing", "playing", "dealer", "settling", "settled", "voided"]
    )
    engine_phase = serializers.CharField()
    seq = serializers.IntegerField()
    suspended_reason = serializers.CharField(allow_blank=True)
    currency = serializers.CharField()
    rule_set = serializers.CharField()
    payout_schedule = serializers.CharField()
    dealer = DealerStateSerializer()
    boxes = BoxStateSerializer(many=True)
    turn = TurnSerializer(allow_null=True)
    next_card = CardTargetSerializer(allow_null=True)
    held = serializers.BooleanField(
        help_text="a void request holds the round: no card, decision or settlement until it "
        "is approved, rejected, cancelled or expires"
    )
    void_request = VoidRequestStateSerializer(allow_null=True, help_text="the latest one")
    your_actions = LegalActionSerializer(many=True)
    betting_closes_at = serializers.DateTimeField(allow_null=True)
    decision_deadline = serializers.DateTimeField(allow_null=True)

    def to_representation(self, instance):
        return super().to_representation(_with_currency(instance))


def _with_currency(state: dict) -> dict:
    """Every object of the round's state that holds an amount carries its currency (the
    round's), as every money field of the API does."""
    currency = state["currency"]

    def each(items):
        return [{**item, "currency": currency} for item in items]

    boxes = [
        {**box, "bets": each(box["bets"]), "hands": each(box["hands"])} for box in state["boxes"]
    ]
    return {**state, "boxes": boxes, "your_actions": each(state["your_actions"])}


class RoundSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField()
    phase = serializers.CharField()
    seq = serializers.IntegerField()
    suspended_reason = serializers.CharField(allow_blank=True)
    held_since = serializers.DateTimeField(allow_null=True)
    betting_closes_at = serializers.DateTimeField(allow_null=True)
    decision_deadline = serializers.DateTimeField(allow_null=True)


class BetOutputSerializer(serializers.Serializer):
    id = serializers.CharField(
        source="ref",
        help_text="The bet's one id: decisions name it as `bet_id`, the round's state lists "
        "it, the ledger's legs carry it as `bet_ref`.",
    )
    round_id = serializers.IntegerField()
    box = serializers.IntegerField()
    behind = serializers.BooleanField()
    player_id = serializers.IntegerField()
    wallet_id = serializers.IntegerField()
    stake = serializers.IntegerField(help_text="Minor units of `currency`.")
    staked_total = serializers.IntegerField(help_text="Minor units of `currency`.")
    currency = serializers.CharField(source="round.currency")


class PlayedSerializer(serializers.Serializer):
    round_id = serializers.IntegerField(source="round.pk")
    seq = serializers.IntegerField()
    event = serializers.DictField()
    phase = serializers.CharField(source="round.phase")


class CardPostedSerializer(serializers.Serializer):
    round_id = serializers.IntegerField(source="round.pk")
    card = serializers.CharField()
    target = CardTargetSerializer()
    phase = serializers.CharField(source="round.phase")
    seq = serializers.IntegerField(source="round.seq")


class ShoeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    source = serializers.CharField()
    deck_kind = serializers.CharField()
    decks = serializers.IntegerField()
    shuffle_method = serializers.CharField()
    device_id = serializers.CharField(allow_blank=True)
    cards_dealt = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class DealerAssignmentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    dealer_id = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    assigned_by = serializers.CharField()


class VoidPreviewLineSerializer(serializers.Serializer):
    bet_id = serializers.CharField()
    player_id = serializers.IntegerField(allow_null=True)
    box = serializers.IntegerField()
    hand_index = serializers.IntegerField()
    result = serializers.CharField(help_text="void_returned, or the decided outcome that stands")
    stake = serializers.IntegerField(help_text="Minor units of `currency`.")
    paid = serializers.IntegerField(help_text="Minor units of `currency`.")
    currency = serializers.CharField()


class VoidPreviewSerializer(serializers.Serializer):
    currency = serializers.CharField()
    returned = VoidPreviewLineSerializer(many=True, help_text="undecided stakes given back")
    standing = VoidPreviewLineSerializer(many=True, help_text="decided outcomes that stand")
    total_stake = serializers.IntegerField()
    total_returned = serializers.IntegerField()
    total_paid = serializers.IntegerField()

    def to_representation(self, instance):
        currency = instance["currency"]
        lines = {
            key: [{**line, "currency": currency} for line in instance[key]]
            for key in ("returned", "standing")
        }
        return super().to_representation({**instance, **lines})


class RoundVoidSerializer(serializers.Serializer):
    """A round's latest void request and, while the round can still be voided, what approving
    a void now would return and pay (minor units)."""

    void_request = VoidRequestOutputSerializer(allow_null=True)
    preview = VoidPreviewSerializer(allow_null=True)


# A table created or cloned, with its rules' theoretical RTP.


class TableCreatedSerializer(serializers.Serializer):
    table = TableOutputSerializer()
    theoretical_rtp = serializers.DecimalField(max_digits=9, decimal_places=6, allow_null=True)
    rtp_method = serializers.CharField()


# --- the round as an integrator reads it (tables/round_view.py) -------------------------------


class WaitingForSerializer(serializers.Serializer):
    bet_id = serializers.CharField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="null: another operator's player (anonymous)"
    )
    box = serializers.IntegerField()
    hand_index = serializers.IntegerField()


class TurnViewSerializer(TurnSerializer):
    bets = serializers.ListField(
        child=serializers.CharField(),
        help_text="the bets the turn waits for: a hand's turn, its box's controller (bets "
        "behind follow); a window (insurance, match, staking), every bet still to answer",
    )
    waiting_for = WaitingForSerializer(many=True, help_text="the same bets, with their players")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the server applies the rule book's default"
    )


class PlayerActionSerializer(LegalActionSerializer):
    player_id = serializers.IntegerField(allow_null=True)


class RoundNextSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[
            "bets",
            "card",
            "decision",
            "dealer_decision",
            "void_decision",
            "pit",
            "settlement",
            "nothing",
        ],
        help_text="what the round waits for: bets (betting open), card (the reader or shoe; "
        "`card` says for which hand and whether it is forced), decision (a player: "
        "`turn.waiting_for`), dealer_decision (the banker), void_decision (a void request "
        "holds the round), pit (suspended: resume or void), settlement (the worker is "
        "settling), nothing (settled or voided)",
    )
    card = CardTargetSerializer(allow_null=True)
    turn = TurnViewSerializer(allow_null=True)
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="betting closes / the decision window ends"
    )


class OutcomeLineSerializer(serializers.Serializer):
    box = serializers.IntegerField()
    hand_index = serializers.IntegerField()
    result = serializers.CharField(
        help_text="win pontoon five_card_trick even_money lose bust push surrender "
        "surrender_void rescue obbo_returned insurance_win insurance_lose envy_bonus "
        "void_returned"
    )
    odds = serializers.CharField(help_text="the payout schedule's row (win, pontoon, ...)")
    stake = serializers.IntegerField()
    returned = serializers.IntegerField()
    winnings = serializers.IntegerField()
    bonus = serializers.IntegerField()
    bonus_kind = serializers.CharField(allow_blank=True)
    paid = serializers.IntegerField()
    currency = serializers.CharField()


class BetOutcomeSerializer(serializers.Serializer):
    """A bet's outcome as its settlement (or void) posted it to the ledger (minor units of
    ``currency``)."""

    bet_id = serializers.CharField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="null: another operator's player (anonymous)"
    )
    box = serializers.IntegerField()
    result = serializers.CharField(help_text="the lines' result, or `mixed` when they differ")
    stake = serializers.IntegerField(help_text="everything the bet had at risk")
    returned = serializers.IntegerField(help_text="stakes given back")
    winnings = serializers.IntegerField()
    bonus = serializers.IntegerField()
    paid = serializers.IntegerField(help_text="everything credited to the wallet")
    net = serializers.IntegerField(help_text="paid - stake")
    currency = serializers.CharField()
    lines = OutcomeLineSerializer(many=True)


class RoundViewSerializer(RoundStateSerializer):
    """A round as the caller sees it: the table's state, whose turn (bets and players), what
    the round wants next, the legal actions of every one of the caller's players, and once
    settled or voided each bet's outcome."""

    turn = TurnViewSerializer(allow_null=True)
    your_actions = PlayerActionSerializer(
        many=True,
        help_text="the legal actions now of each of the caller's players (an operator: all its "
        "players; `player_id` narrows to one)",
    )
    next = RoundNextSerializer()
    outcomes = BetOutcomeSerializer(
        many=True, allow_null=True, help_text="null until the round is settled or voided"
    )


class CardPostedNextSerializer(CardPostedSerializer):
    next = RoundNextSerializer(help_text="what the round wants now that the card is dealt")


# --- a table's rules as an operator reads them (tables/rules_view.py) -------------------------


class RuleVersionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    label = serializers.CharField(help_text="as tables show it: `<name> v<version>`")
    document = serializers.DictField(help_text="the engine's JSON document of this version")


class StakingSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(
        choices=["stake_with_bet", "join_then_stake"],
        help_text="join_then_stake: bet with stake 0, stake in the staking window",
    )
    description = serializers.CharField()
    currency = serializers.CharField()
    min_bet = serializers.IntegerField()
    max_bet = serializers.IntegerField()
    box_max = serializers.IntegerField(allow_null=True)
    min_unit = serializers.IntegerField(help_text="smallest partial double or insurance")
    boxes = serializers.IntegerField()
    bets_per_box = serializers.IntegerField(help_text="more than 1: bets behind")
    max_boxes_per_player = serializers.IntegerField()


class GameDecisionsSerializer(serializers.Serializer):
    hand = serializers.ListField(child=serializers.CharField())
    windows = serializers.ListField(child=serializers.CharField())


class TimersSerializer(serializers.Serializer):
    betting_seconds = serializers.IntegerField()
    decision_seconds = serializers.IntegerField()
    on_timeout = serializers.CharField()


class TableRulesSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    game = serializers.CharField(help_text="the rule set's name (a preset or a custom game)")
    rule_set = RuleVersionSerializer()
    payout_schedule = RuleVersionSerializer()
    theoretical_rtp = serializers.DecimalField(max_digits=9, decimal_places=6, allow_null=True)
    rtp_method = serializers.CharField()
    staking = StakingSerializer()
    decisions = GameDecisionsSerializer()
    timers = TimersSerializer()
