"""Live tables: rule versions, tables, seats and boxes, shoes, rounds, bets, hands, decisions.

The engine (``tables.engine``) is the authority on every move of a round; these rows are its
persistence. A round is event-sourced: ``RoundEvent`` rows (engine event JSON, numbered by
``seq``, but bets: ``tables/services/bets.py``) are the truth, ``Round.state`` is a cache of
``fold(events)`` written in the same transaction as every event after the betting (bets are
folded in when it closes), and ``Hand`` / ``Decision`` are read projections. django-fsm
guards the coarse phases of ``Table.status`` and ``Round.phase``; row locks
(``tables/lock_objects.py``) make racing transitions serialise so exactly one wins. The
floor's staffing (shift plans, roster, dealer rotations and breaks) is ``tables.models.staffing``,
re-exported here.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django_fsm import FSMField, transition

from audit.models import CurrentTransactionId
from casino.jsontext import JSONText
from tables.models.staffing import DealerAssignment as DealerAssignment
from tables.models.staffing import DealerBreak as DealerBreak
from tables.models.staffing import RosterEntry as RosterEntry
from tables.models.staffing import ShiftDefinition as ShiftDefinition
from tables.models.staffing import ShiftPlan as ShiftPlan


def _time_zone_valid(value: str) -> None:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(f"{value!r} is not an IANA time zone") from exc


class Casino(models.Model):
    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    # Gaming days and shifts are local (``tables/shifts.py``); the default keeps UTC days.
    time_zone = models.CharField(max_length=64, default="UTC", validators=[_time_zone_valid])

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


class Pit(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    code = models.SlugField(max_length=40)
    name = models.CharField(max_length=120)
    # A dealer is due to rotate off a table after this long on it (the floor's alert).
    rotation_minutes = models.PositiveIntegerField(default=30)

    class Meta:
        ordering = ["casino", "code"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "code"], name="pit_unique_code_per_casino")
        ]

    def __str__(self) -> str:
        return self.name


class _RuleDocument(models.Model):
    """A versioned, immutable engine JSON document (migration 0002 refuses edits in the DB).

    Editing creates a new version (``services.rule_set_version_create``).
    """

    name = models.SlugField(max_length=60)
    version = models.PositiveIntegerField()
    document = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        abstract = True
        ordering = ["name", "-version"]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"


class RuleSetVersion(_RuleDocument):
    class Meta(_RuleDocument.Meta):
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="ruleset_unique_version")
        ]


class PayoutScheduleVersion(_RuleDocument):
    class Meta(_RuleDocument.Meta):
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="payouts_unique_version")
        ]


class RtpFigure(models.Model):
    """The theoretical RTP of a (rule set, payout schedule) pair from the engine's game maths,
    shown to the pit before it activates the pair on a table (``tables/rtp.py``)."""

    rule_set = models.ForeignKey(RuleSetVersion, on_delete=models.PROTECT, related_name="+")
    payout_schedule = models.ForeignKey(
        PayoutScheduleVersion, on_delete=models.PROTECT, related_name="+"
    )
    rtp = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    method = models.CharField(max_length=200, blank=True, default="")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rule_set", "payout_schedule"], name="rtp_unique_pair")
        ]

    def __str__(self) -> str:
        return f"RTP {self.rule_set} / {self.payout_schedule}: {self.rtp}"


class Table(models.Model):
    class Status(models.TextChoices):
        CLOSED = "closed"
        OPEN = "open"
        PAUSED = "paused"

    class CardSource(models.TextChoices):
        SERVER_SHOE = "server_shoe", "Server shoe (CSPRNG)"
        CARD_READER = "card_reader", "Dealer's card reader"

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="tables")
    pit = models.ForeignKey(
        Pit, null=True, blank=True, on_delete=models.PROTECT, related_name="tables"
    )
    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    status = FSMField(default=Status.CLOSED, choices=Status.choices)
    rule_set = models.ForeignKey(
        RuleSetVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payout_schedule = models.ForeignKey(
        PayoutScheduleVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    currency = models.CharField(max_length=3, default="EUR")
    min_bet = models.BigIntegerField(default=100)
    max_bet = models.BigIntegerField(default=100_000)
    box_max = models.BigIntegerField(null=True, blank=True)
    min_unit = models.BigIntegerField(default=1)
    decision_seconds = models.PositiveIntegerField(default=20)
    betting_seconds = models.PositiveIntegerField(default=30)
    card_source = models.CharField(
        max_length=16, choices=CardSource.choices, default=CardSource.SERVER_SHOE
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rounds_played = models.PositiveIntegerField(default=0)
    # A retired table stays for its history (rounds, ledger, audit) but never opens again.
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["code"]
        permissions = [
            ("operate_table", "Can open, pause and close tables, set limits and dealers"),
            ("deal_round", "Can run rounds as the dealer (betting, cards, dealer decisions)"),
            ("place_bet", "Can place bets for players"),
            ("play_round", "Can make players' decisions"),
            ("request_void", "Can request a round void"),
            ("approve_void", "Can approve a round void"),
            ("reject_void", "Can reject another staff member's void request"),
            ("cancel_void", "Can cancel any void request (the requester cancels their own)"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_bet__gte=1) & models.Q(max_bet__gte=models.F("min_bet")),
                name="table_limits_ordered",
            ),
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"), name="table_currency_iso"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # FSM: closed -> open <-> paused -> closed
    @transition(field=status, source=Status.CLOSED, target=Status.OPEN)
    def open(self) -> None:
        pass

    @transition(field=status, source=Status.OPEN, target=Status.PAUSED)
    def pause(self) -> None:
        pass

    @transition(field=status, source=Status.PAUSED, target=Status.OPEN)
    def resume(self) -> None:
        pass

    @transition(field=status, source=[Status.OPEN, Status.PAUSED], target=Status.CLOSED)
    def close(self) -> None:
        pass


class TableChange(models.Model):
    """Log of limit, rule and dealer changes; each takes effect from the next round."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="changes")
    kind = models.CharField(max_length=20)  # limits | rules | dealer | status
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    changed_by = models.CharField(max_length=200)
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.table_id} {self.kind} by {self.changed_by}"


class Seat(models.Model):
    """A player at a table; controls the boxes that point at it. Bets behind need no seat."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey("ledger.Player", on_delete=models.PROTECT, related_name="+")
    seated_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=models.Q(left_at__isnull=True),
                name="seat_one_per_player_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} at table {self.table_id}"


class Box(models.Model):
    """A box of a table. Its row is what a bet locks (``tables/lock_objects.py``), and it keeps
    what the rules check a new bet against: the bets on it so far in ``round`` (the table's
    live round; the figures are zero for any other), kept by each bet, so that a bet neither
    reads nor rewrites the round's state."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="boxes")
    number = models.PositiveSmallIntegerField()
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="boxes"
    )
    round = models.ForeignKey(
        "Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    controller = models.ForeignKey(
        "ledger.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    bets = models.PositiveIntegerField(default=0)
    stake_total = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="box_unique_number")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} box {self.number}"


class Shoe(models.Model):
    """A shoe: its composition, its shuffles (each with a commitment), cards dealt, retirement.

    A server shoe keeps its card order here (never exposed by the API until retirement); a
    reader-fed shoe keeps only the counts of the cards seen, to refuse impossible cards.
    """

    class Source(models.TextChoices):
        SERVER = "server"
        READER = "reader"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    source = models.CharField(max_length=8, choices=Source.choices)
    deck_kind = models.CharField(max_length=10)
    decks = models.PositiveSmallIntegerField()
    shuffle_method = models.CharField(max_length=60)
    device_id = models.CharField(max_length=64, blank=True, default="")
    cut_index = models.PositiveIntegerField(null=True, blank=True)
    cards_dealt = models.PositiveIntegerField(default=0)
    # server shoe: current order (secret), position in it; reader shoe: counts seen
    order = models.JSONField(default=list)
    position = models.PositiveIntegerField(default=0)
    seen = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True)
    verified = models.BooleanField(null=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(retired_at__isnull=True),
                name="shoe_one_active_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"shoe {self.pk} ({self.source}, {self.decks}x{self.deck_kind})"

    @property
    def cut_card_out(self) -> bool:
        return self.cut_index is not None and self.position >= self.cut_index


class Shuffle(models.Model):
    """One shuffle record of a shoe: commitment before the first card, reveal at retirement."""

    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="shuffles")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=60)
    device_id = models.CharField(max_length=64, blank=True, default="")
    commitment = models.CharField(max_length=64, blank=True, default="")
    cards = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # secret until the shoe is retired (server shoes)
    salt = models.CharField(max_length=64, blank=True, default="")
    sealed_order = models.JSONField(default=list)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["shoe", "number"]
        constraints = [
            models.UniqueConstraint(fields=["shoe", "number"], name="shuffle_unique_number")
        ]

    def __str__(self) -> str:
        return f"shoe {self.shoe_id} shuffle {self.number}"


class Round(models.Model):
    class Phase(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"
        DEALING = "dealing"
        PLAYING = "playing"
        DEALER = "dealer"
        SETTLING = "settling"
        SETTLED = "settled"
        VOIDED = "voided"

    LIVE = (Phase.OPEN, Phase.CLOSED, Phase.DEALING, Phase.PLAYING, Phase.DEALER)
    UNFINISHED = (*LIVE, Phase.SETTLING)  # can still be voided; the console keeps refreshing it

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    phase = FSMField(default=Phase.OPEN, choices=Phase.choices)
    rule_set = models.ForeignKey(RuleSetVersion, on_delete=models.PROTECT, related_name="rounds")
    payout_schedule = models.ForeignKey(
        PayoutScheduleVersion, on_delete=models.PROTECT, related_name="rounds"
    )
    currency = models.CharField(max_length=3)
    limits = models.JSONField()
    card_source = models.CharField(max_length=16, choices=Table.CardSource.choices)
    decision_seconds = models.PositiveIntegerField()
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    shoe = models.ForeignKey(
        Shoe, null=True, blank=True, on_delete=models.PROTECT, related_name="rounds"
    )
    seq = models.PositiveIntegerField(default=0)  # engine events applied
    state = models.JSONField()  # cache of fold(events); rebuilt from RoundEvent when needed
    suspended_reason = models.CharField(max_length=500, blank=True, default="")
    # Set while a void request holds the round (§8): no card, decision, timer default or
    # settlement until the request is approved, rejected, cancelled or expires.
    held_since = models.DateTimeField(null=True, blank=True)
    # timers: the betting deadline, and the current decision window (token = seq it opened at)
    betting_closes_at = models.DateTimeField(null=True, blank=True)
    decision_deadline = models.DateTimeField(null=True, blank=True)
    decision_token = models.PositiveIntegerField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    settling_since = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    settlement = JSONText(null=True, blank=True)  # megabytes at 10,000 bets: casino/jsontext.py
    ledger_transaction_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_unique_number"),
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(phase__in=["open", "closed", "dealing", "playing", "dealer"]),
                name="round_one_live_per_table",
            ),
        ]
        indexes = [models.Index(fields=["phase", "settling_since"], name="round_phase_idx")]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.number}"

    # FSM: open -> closed -> dealing -> playing -> dealer -> settling -> settled; any live
    # phase (and settling) -> voided. Phases may be skipped where the engine skips them (no
    # bets: closed -> settling; a dealer peek Pontoon: dealing -> settling; ...).
    @transition(field=phase, source=Phase.OPEN, target=Phase.CLOSED)
    def close_betting(self) -> None:
        pass

    @transition(field=phase, source=Phase.CLOSED, target=Phase.DEALING)
    def deal(self) -> None:
        pass

    @transition(field=phase, source=Phase.DEALING, target=Phase.PLAYING)
    def play(self) -> None:
        pass

    @transition(field=phase, source=[Phase.DEALING, Phase.PLAYING], target=Phase.DEALER)
    def dealer_turn(self) -> None:
        pass

    @transition(
        field=phase,
        source=[Phase.CLOSED, Phase.DEALING, Phase.PLAYING, Phase.DEALER],
        target=Phase.SETTLING,
    )
    def complete(self) -> None:
        pass

    @transition(field=phase, source=Phase.SETTLING, target=Phase.SETTLED)
    def settle(self) -> None:
        pass

    @transition(field=phase, source=list(UNFINISHED), target=Phase.VOIDED)
    def void(self) -> None:
        pass


class RoundEvent(models.Model):
    """One event of a round, in order. ``kind='engine'`` rows are the engine's events (the fold
    input); ``kind='meta'`` rows record the rest for the live stream (opened, suspended, ...).
    ``public`` is what the live stream shows (a face-down card is hidden until revealed)."""

    # Indexed by the constraint and the indexes below (each index is work on every event). The
    # table is the round's (whose key protects it): no constraint, whose check would lock the
    # table's row for every bet of every player at the table.
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    table = models.ForeignKey(
        Table, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False, db_index=False
    )
    kind = models.CharField(max_length=8, default="engine")
    # Engine events after the bets: n + 1, n + 2, ... for a round of n bets. Bets and meta rows
    # have none: the fold takes the bets first, in id order (``selectors.round_state_replay``).
    seq = models.PositiveIntegerField(null=True, blank=True)
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    public = models.JSONField()
    actor = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    # The writing transaction's id: the live stream follows (txid, id), emitting only rows of
    # finished transactions, so an event that commits late (a settlement in the worker while
    # the next round plays) is never skipped by a reader already past its id.
    txid = models.BigIntegerField(db_default=CurrentTransactionId(), editable=False)

    # The engine events of a round in the order the fold takes them (bets first, by id).
    FOLD_ORDER = (models.F("seq").asc(nulls_first=True), "id")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seq"], name="round_event_unique_seq")
        ]
        indexes = [
            models.Index(fields=["table", "id"], name="round_event_table_idx"),
            models.Index(fields=["table", "txid", "id"], name="round_event_stream_idx"),
        ]

    def __str__(self) -> str:
        return f"round {self.round_id} {self.seq or self.kind} {self.type}"


class Bet(models.Model):
    """A bet on a box: the controller's own or a bet behind. ``ref`` is its engine bet id and
    its ledger ``bet_ref``."""

    # Every index and foreign key is work on each bet (bench/bets_live.py). The round is
    # indexed with box and player (below: a bet checks whether its player is on the box). The
    # wallet and the operator carry no constraint: accounts are never deleted (a trigger
    # refuses it; ledger legs refer to them the same way) and the operator is the player's
    # (whose own key protects it); the unique ref needs no LIKE index (a constraint, below).
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="bets", db_index=False)
    ref = models.CharField(max_length=40)
    box = models.PositiveSmallIntegerField()
    behind = models.BooleanField(default=False)
    player = models.ForeignKey("ledger.Player", on_delete=models.PROTECT, related_name="+")
    wallet = models.ForeignKey(
        "ledger.Account",
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    operator = models.ForeignKey(
        "ledger.Operator", on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    stake = models.BigIntegerField()  # the original stake
    staked_total = models.BigIntegerField(default=0)  # everything debited for it
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["round", "box", "player"], name="bet_round_box_player_idx")]
        constraints = [models.UniqueConstraint(fields=["ref"], name="bet_unique_ref")]

    def __str__(self) -> str:
        return f"bet {self.ref}"


class Hand(models.Model):
    """Projection of the engine's hands (for reads and the admin)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hands")
    box = models.PositiveSmallIntegerField()
    index = models.PositiveSmallIntegerField()
    cards = models.JSONField(default=list)
    status = models.CharField(max_length=12)
    total = models.PositiveSmallIntegerField(default=0)
    doubles = models.PositiveSmallIntegerField(default=0)
    split = models.BooleanField(default=False)
    stakes = models.JSONField(default=dict)

    class Meta:
        ordering = ["round", "box", "index"]
        constraints = [
            models.UniqueConstraint(fields=["round", "box", "index"], name="hand_unique_position")
        ]

    def __str__(self) -> str:
        return f"round {self.round_id} box {self.box} hand {self.index}"


class Decision(models.Model):
    """Every decision made in a round: players', the dealer's, and the server's timeout."""

    class Source(models.TextChoices):
        PLAYER = "player"
        DEALER = "dealer"
        TIMEOUT = "timeout"

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="decisions")
    seq = models.PositiveIntegerField()
    source = models.CharField(max_length=8, choices=Source.choices)
    box = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_index = models.PositiveSmallIntegerField(null=True, blank=True)
    bet = models.ForeignKey(Bet, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=20)
    amount = models.BigIntegerField(null=True, blank=True)
    actor = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "seq"]

    def __str__(self) -> str:
        return f"round {self.round_id} #{self.seq} {self.action}"


class VoidRequest(models.Model):
    """A request to void a round (§8). While it is open (``requested``) the round is held
    (``Round.held_since``); approval voids the round, rejection, cancellation or expiry ends
    the hold and the round carries on where it stopped."""

    class Status(models.TextChoices):
        REQUESTED = "requested"
        APPROVED = "approved"
        REJECTED = "rejected"  # by another staff member (four eyes, as approval)
        CANCELLED = "cancelled"  # by the requester or a pit boss
        EXPIRED = "expired"  # nobody decided within TABLES_VOID_REQUEST_EXPIRES_S

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="void_requests")
    reason = models.CharField(max_length=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REQUESTED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    # Betting time left when the hold froze the betting (a request during betting); a round
    # that resumes gets it back.
    betting_left = models.DurationField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=models.Q(status="requested"),
                name="void_one_open_request_per_round",
            ),
            models.CheckConstraint(
                condition=~models.Q(status__in=["approved", "rejected"])
                | ~models.Q(decided_by=models.F("requested_by")),
                name="void_two_people",
            ),
        ]

    def __str__(self) -> str:
        return f"void of round {self.round_id} ({self.status})"
