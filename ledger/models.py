"""The double-entry ledger: accounts, transactions and their legs, corrections, operator events.

Money is integer minor units with an ISO 4217 currency code. A transaction is a set of legs whose
amounts sum to zero per currency; the database refuses any other commit (a deferred constraint
trigger, migration 0003) and refuses any UPDATE or DELETE of legs and transactions.

Balances (the design choice, see also ``ledger/lock_objects.py``):
- **Wallets keep an eager running balance** (``Account.balance``), because the "never negative"
  rule is a CHECK constraint on that column. The database itself maintains it: a statement-level
  trigger on the legs table adds each statement's per-account sums to the wallet rows, so the
  balance equals the sum of the wallet's legs even for raw SQL. Callers lock the wallet row
  first (one row per player: no cross-player contention).
- **House-side balances are derived** (stakes in play per table, house revenue, bonus pool,
  operator cash): their rows are never updated, only referenced by new legs, so placing a bet at
  table 7 never waits for a bet at table 8 on a shared "house" row. Their balance is
  ``SUM(amount)`` over an index-only scan of ``(account_id, amount)``.
- **Archived months are carried forward.** Legs are partitioned by month of ``posted_at``
  (migration 0007, README "Retention"); when an old month is detached to the archive, each
  account's legs of that month are summed into one ``CarryForward`` row in the same
  transaction. An account's balance is therefore ``SUM(carry-forward) + SUM(legs)``
  (``selectors.legs_total``), and a wallet's ``balance`` still equals it.
"""

import secrets

from django.contrib.postgres.fields import ArrayField
from django.db import models

from casino.jsontext import JSONText

CURRENCY_MAX = 3


class Operator(models.Model):
    """An operator's platform: owns players and their wallets, integrates through API keys."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Signed webhooks (ledger/webhooks.py): an empty URL means "poll the events feed only".
    # The URL is checked against the egress allow-list (ledger/egress.py) when it is set and at
    # every delivery; setting it (services.operator_webhook_set) rotates the signing secret,
    # stored encrypted (ledger/sealed.py: read it with ``sealed.unseal``).
    webhook_url = models.URLField(max_length=500, blank=True, default="")
    webhook_secret_sealed = models.TextField(blank=True, default="", editable=False)
    # Rotation with overlap: until ``webhook_secret_previous_until`` deliveries carry a second
    # signature made with the previous secret, so a receiver can switch at its own pace.
    webhook_secret_previous_sealed = models.TextField(blank=True, default="", editable=False)
    webhook_secret_previous_until = models.DateTimeField(null=True, blank=True, editable=False)
    # The event types the endpoint subscribes to; empty: every type. The others stay in the feed.
    webhook_event_types = ArrayField(
        models.CharField(max_length=40), blank=True, default=list, size=50
    )

    class Meta:
        ordering = ["code"]
        permissions = [
            ("manage_own_webhook", "Can set its own operator's webhook URL (rotates the secret)")
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A player of one operator, known to us by the operator's own reference."""

    operator = models.ForeignKey(Operator, on_delete=models.PROTECT, related_name="players")
    external_ref = models.CharField(max_length=64)
    display_name = models.CharField(max_length=120, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["operator", "external_ref"], name="player_unique_ref_per_operator"
            )
        ]

    def __str__(self) -> str:
        return f"{self.operator.code}:{self.external_ref}"


class Account(models.Model):
    class Kind(models.TextChoices):
        WALLET = "wallet", "Player wallet"  # per player and currency; eager balance, >= 0
        STAKES = "stakes", "Stakes in play"  # per table and currency: the table's own money
        HOUSE = "house", "House revenue"  # per currency
        BONUS_POOL = "bonus_pool", "Bonus pool"  # per currency: Super and envy bonuses
        OPERATOR_CASH = "operator_cash", "Operator cash"  # per operator: deposits, withdrawals

    kind = models.CharField(max_length=16, choices=Kind.choices)
    currency = models.CharField(max_length=CURRENCY_MAX)
    operator = models.ForeignKey(
        Operator, null=True, blank=True, on_delete=models.PROTECT, related_name="accounts"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="wallets"
    )
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Maintained by the database for wallets only (see the module docstring); 0 elsewhere.
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        permissions = [("move_funds", "Can deposit to and withdraw from wallets")]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "currency", "operator", "player", "table"],
                name="account_unique_identity",
                nulls_distinct=False,
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="wallet") | models.Q(balance__gte=0),
                name="account_wallet_never_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"), name="account_currency_iso"
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(
                        kind="wallet",
                        player__isnull=False,
                        operator__isnull=False,
                        table__isnull=True,
                    )
                    | models.Q(
                        kind="stakes",
                        table__isnull=False,
                        player__isnull=True,
                        operator__isnull=True,
                    )
                    | models.Q(
                        kind__in=["house", "bonus_pool"],
                        table__isnull=True,
                        player__isnull=True,
                        operator__isnull=True,
                    )
                    | models.Q(
                        kind="operator_cash",
                        operator__isnull=False,
                        player__isnull=True,
                        table__isnull=True,
                    )
                ),
                name="account_kind_shape",
            ),
        ]

    def __str__(self) -> str:
        owner = self.player_id or self.table_id or self.operator_id or ""
        return f"{self.kind}:{owner}:{self.currency}"


class Transaction(models.Model):
    """One balanced movement of money. Append-only; ``reference`` makes every posting unique.

    The dimension columns (table, round, dealer, shift, operator) make table accounting a
    GROUP BY over legs. References to other apps' rows are plain values, like the audit log's.
    """

    class Kind(models.TextChoices):
        DEPOSIT = "deposit"
        WITHDRAWAL = "withdrawal"
        STAKE = "stake"
        STAKE_REFUND = "stake_refund"
        SETTLEMENT = "settlement"
        REVERSAL = "reversal"
        REPLACEMENT = "replacement"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    reference = models.CharField(max_length=120)
    description = models.CharField(max_length=255, blank=True, default="")
    posted_at = models.DateTimeField(db_index=True)
    actor_kind = models.CharField(max_length=20)
    actor_id = models.CharField(max_length=64, blank=True, default="")
    actor_label = models.CharField(max_length=150)
    operator_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    table_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    round_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    dealer_id = models.BigIntegerField(null=True, blank=True)
    shift = models.CharField(max_length=40, blank=True, default="")
    reverses = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        db_index=False,
    )

    class Meta:
        ordering = ["id"]
        permissions = [("view_accounting", "Can view table accounting")]
        # Every index is written on every posting (migration 0008): ``reference`` is unique
        # without Django's extra varchar_pattern_ops index (nothing looks references up by
        # prefix), and ``reverses``, set on reversals only, is indexed where present.
        constraints = [
            models.UniqueConstraint(fields=["reference"], name="ledger_transaction_reference_key")
        ]
        indexes = [
            models.Index(
                fields=["reverses"],
                name="ledger_txn_reverses_idx",
                condition=models.Q(reverses__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.reference}"


class Leg(models.Model):
    """One side of a transaction on one account. Append-only.

    ``amount`` is signed: positive flows into the account, negative out of it. The database
    checks the account exists and holds the leg's currency (migration 0003), so a leg can't post
    euros to a pound wallet.
    """

    class Kind(models.TextChoices):
        DEPOSIT = "deposit"
        WITHDRAWAL = "withdrawal"
        STAKE = "stake"
        STAKE_REFUND = "stake_refund"
        SETTLE_STAKE = "settle_stake"  # a settled stake leaving in-play for the house
        PAYOUT = "payout"  # stake returned plus winnings, from the house
        BONUS = "bonus"  # from the bonus pool

    # Both references are checked once per statement or per transaction by the triggers of
    # migration 0003, not by per-row foreign keys (two lookups per leg would dominate a 20,000-
    # leg settlement, and KEY SHARE locks on the shared house rows would add contention).
    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, related_name="legs", db_constraint=False
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="legs", db_constraint=False, db_index=False
    )
    amount = models.BigIntegerField()
    currency = models.CharField(max_length=CURRENCY_MAX)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    bet_ref = models.CharField(max_length=64, blank=True, default="")
    # Its transaction's ``posted_at`` (the database refuses any other at commit: migration
    # 0007), and the month partition it lives in. The primary key is (id, posted_at) in the
    # database; ids stay unique (one identity sequence).
    posted_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["account", "amount"], name="leg_account_amount_idx"),
            models.Index(
                fields=["bet_ref"], name="leg_bet_ref_idx", condition=~models.Q(bet_ref="")
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="leg_amount_nonzero"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.currency} on {self.account_id}"


class CarryForward(models.Model):
    """One account's legs of one archived month, summed (README "Retention").

    Written only by the detach of a month of legs (``casino.retention``), in the transaction
    that takes the month out of ``ledger_leg``: from then on the account's balance is its
    carry-forward rows plus its legs still attached. Append-only. The month's legs themselves
    are in the archive schema (``casino_archive.ledger_leg_p<YYYYMM>``) and its export, where an
    auditor recomputes these sums.
    """

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="carried")
    currency = models.CharField(max_length=CURRENCY_MAX)
    month = models.DateField()  # the archived month's first day (UTC)
    amount = models.BigIntegerField()  # the sum of the account's legs of that month
    legs = models.BigIntegerField()  # how many legs
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["month", "account"]
        constraints = [
            models.UniqueConstraint(fields=["account", "month"], name="carry_forward_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.currency} on {self.account_id} for {self.month:%Y-%m}"


class Correction(models.Model):
    """A reversing transaction plus a replacement, asked by one staff member, approved by another.

    The original transaction is never edited: approval posts the reversal (every leg negated)
    and, when replacement legs are given, the corrected posting.
    """

    class Status(models.TextChoices):
        REQUESTED = "requested"
        APPROVED = "approved"
        REJECTED = "rejected"

    original = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="corrections")
    reason = models.CharField(max_length=500)
    # [{"account_id": int, "amount": int, "kind": str, "bet_ref": str}], balanced per currency.
    replacement_legs = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REQUESTED)
    requested_by = models.ForeignKey("auth.User", on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.CharField(max_length=500, blank=True, default="")
    reversal = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    replacement = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        permissions = [("approve_correction", "Can approve or reject corrections")]
        constraints = [
            # At most one live (requested or approved) correction per original transaction.
            models.UniqueConstraint(
                fields=["original"],
                condition=models.Q(status__in=["requested", "approved"]),
                name="correction_one_live_per_transaction",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="approved")
                | ~models.Q(decided_by=models.F("requested_by")),
                name="correction_four_eyes",
            ),
        ]

    def __str__(self) -> str:
        return f"correction #{self.pk} of {self.original_id} ({self.status})"


def event_public_id() -> str:
    """An opaque event id (``evt_`` + 128 random bits): it reveals neither volume nor order.
    The raw settlement INSERT (ledger/services/settlement.py) builds the same shape in SQL."""
    return "evt_" + secrets.token_hex(16)


class OperatorEvent(models.Model):
    """The transactional outbox of operator notifications, and the operator's events feed.

    Written in the same transaction as the money movement it reports; delivered by
    ``ledger.tasks`` as a signed webhook, and readable at ``/api/v1/operator-events/``.
    """

    class Delivery(models.TextChoices):
        PENDING = "pending"
        DELIVERED = "delivered"
        FAILED = "failed"  # gave up after the last retry; still in the feed
        NOT_CONFIGURED = "not_configured"  # the operator has no webhook URL: feed only
        FEED_ONLY = "feed_only"  # about the webhook itself (its circuit): never sent to it
        NOT_SUBSCRIBED = "not_subscribed"  # a type the endpoint does not subscribe to: feed only

    # The id operators see (feed, webhook-id header, redelivery path); the pk stays internal.
    public_id = models.CharField(
        max_length=40, unique=True, default=event_public_id, editable=False
    )
    operator = models.ForeignKey(Operator, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=40)
    payload = JSONText()  # a round.settled event lists every bet: casino/jsontext.py
    created_at = models.DateTimeField(auto_now_add=True)
    transaction = models.ForeignKey(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    delivery = models.CharField(max_length=16, choices=Delivery.choices, default=Delivery.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # An attempt is in flight until then (set, and cleared, outside the HTTP call: webhooks.py).
    claimed_until = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        permissions = [("redeliver_operatorevent", "Can send a past event to the webhook again")]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="operator_event_pending_idx",
                condition=models.Q(delivery="pending"),
            ),
            # The attempts in flight per operator (the in-flight bound): a handful of rows.
            models.Index(
                fields=["operator"],
                name="operator_event_claimed_idx",
                condition=models.Q(claimed_until__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.public_id} {self.kind} for {self.operator_id}"


class WebhookAttempt(models.Model):
    """The delivery log: one row per HTTP attempt of one event."""

    event = models.ForeignKey(OperatorEvent, on_delete=models.CASCADE, related_name="attempt_log")
    attempt = models.PositiveIntegerField()
    url = models.URLField(max_length=500)
    attempted_at = models.DateTimeField(auto_now_add=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True, default="")
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"event {self.event_id} attempt {self.attempt}: {self.status_code or self.error}"

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class WebhookCircuit(models.Model):
    """The circuit breaker of one operator's webhook endpoint (ledger/webhooks.py).

    Closed: deliveries go (at most ``LEDGER_WEBHOOK_MAX_IN_FLIGHT`` at once). After
    ``LEDGER_WEBHOOK_CIRCUIT_FAILURES`` consecutive failed attempts it opens: deliveries wait
    (nothing is lost or counted as an attempt) until ``open_until``; then it is half-open and
    one probe delivery decides: success closes it, failure opens it again. Each change is an
    audit event and a ``webhook.circuit_*`` event in the operator's feed.
    """

    class State(models.TextChoices):
        CLOSED = "closed"
        OPEN = "open"
        HALF_OPEN = "half_open"

    operator = models.OneToOneField(
        Operator, primary_key=True, on_delete=models.CASCADE, related_name="webhook_circuit"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.CLOSED)
    consecutive_failures = models.PositiveIntegerField(default=0)
    open_until = models.DateTimeField(null=True, blank=True)
    probe_until = models.DateTimeField(null=True, blank=True)  # the half-open probe's claim
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"webhook circuit of {self.operator_id}: {self.state}"
