from django.conf import settings
from django.db import models
from django_fsm import FSMField, transition


class CurrentTransactionId(models.Func):
    """The writing transaction's 64-bit id (``xid8`` as bigint): the event's sealing order.

    A column default evaluated by PostgreSQL, so recording it costs the writer nothing: no
    lock, no extra statement. Savepoints share the top-level id, so every event of one
    business transaction carries the same value.
    """

    template = "(pg_current_xact_id()::text::bigint)"
    output_field = models.BigIntegerField()


class AuditEvent(models.Model):
    """One fact, written in the same database transaction as the change it records.

    Append-only: database triggers refuse UPDATE, DELETE and TRUNCATE (migration 0002), and the
    application's database role holds only INSERT and SELECT here (``db_roles_setup``).
    References to other rows are plain values, not foreign keys, so the log never constrains
    (or cascades with) the rows it describes. ``content_hash`` is the SHA-256 of the event's
    canonical JSON (see ``audit.services.audit_event_content``). ``txid`` orders events for
    sealing (``audit.sealing``): once every transaction below a seal's horizon has finished,
    its events are final and can be chained without ever making a writer wait.
    """

    txid = models.BigIntegerField(db_default=CurrentTransactionId(), editable=False)
    occurred_at = models.DateTimeField(db_index=True)
    name = models.CharField(max_length=80)
    actor_kind = models.CharField(max_length=20)
    actor_id = models.CharField(max_length=64, blank=True, default="")
    actor_label = models.CharField(max_length=150)
    request_id = models.CharField(max_length=64, blank=True, default="")
    operator_id = models.BigIntegerField(null=True, blank=True)
    casino_id = models.BigIntegerField(null=True, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    round_id = models.BigIntegerField(null=True, blank=True)
    bet_id = models.BigIntegerField(null=True, blank=True)
    wallet_id = models.BigIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    content_hash = models.CharField(max_length=80)  # "jcs:" + hex, or bare hex (older events)

    class Meta:
        ordering = ["id"]
        permissions = [("view_report", "Can view and export the audit reports")]
        # Every index is written on every event, and a bet writes two (migration 0008): the
        # name's one index serves exact names and prefixes (varchar_pattern_ops: =, IN and
        # LIKE 'x%'); the references, NULL on many events, are indexed where present (every
        # filter on them is an equality, which implies IS NOT NULL).
        indexes = [
            models.Index(fields=["actor_kind", "actor_id"], name="audit_actor_idx"),
            models.Index(fields=["txid", "id"], name="audit_seal_order_idx"),
            models.Index(fields=["name"], name="audit_name_idx", opclasses=["varchar_pattern_ops"]),
            *(
                models.Index(
                    fields=[column],
                    name=f"audit_{column.removesuffix('_id')}_idx",
                    condition=models.Q(**{f"{column}__isnull": False}),
                )
                for column in ("operator_id", "table_id", "round_id", "wallet_id")
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name} by {self.actor_label}"


class AuditSeal(models.Model):
    """A signed link of the hash chain: the digests of a run of events in (txid, id) order.

    A seal covers every event whose key ``(txid, id)`` lies after the previous seal's last key
    and up to its own last key; ``event_ids`` (big-endian int64s) and ``event_digests``
    (32-byte SHA-256s) list them in that order, so verification can name the exact event that
    was modified, removed or slipped in. ``chain_hash`` covers the header, which carries
    ``prev_hash`` and ``batch_hash``; ``signature`` signs ``chain_hash`` with a key the
    database does not hold. ``scheme`` says how: 2, the header in RFC 8785 JSON and an Ed25519
    signature anyone can check with the public key; 1, seals written before, the header in
    ``canonical_json`` and an HMAC-SHA256. Append-only, like the events.
    """

    class Scheme(models.IntegerChoices):
        LEGACY_HMAC = 1
        ED25519_JCS = 2

    seq = models.BigIntegerField(primary_key=True)
    sealed_at = models.DateTimeField()
    horizon_txid = models.BigIntegerField()
    first_txid = models.BigIntegerField()
    first_event_id = models.BigIntegerField()
    last_txid = models.BigIntegerField()
    last_event_id = models.BigIntegerField()
    event_count = models.PositiveIntegerField()
    event_ids = models.BinaryField()
    event_digests = models.BinaryField()
    digest_format = models.PositiveSmallIntegerField()
    batch_hash = models.CharField(max_length=64)
    prev_hash = models.CharField(max_length=64)
    chain_hash = models.CharField(max_length=64, unique=True)
    scheme = models.PositiveSmallIntegerField(choices=Scheme.choices)
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)  # hex

    class Meta:
        ordering = ["seq"]
        indexes = [models.Index(fields=["last_txid", "last_event_id"], name="audit_seal_key_idx")]

    def __str__(self) -> str:
        return f"seal {self.seq} ({self.event_count} events)"


class DisputeCase(models.Model):
    """A player's or operator's claim against a round or one bet, worked by the pit.

    open -> investigating -> resolved_upheld | resolved_rejected (django-fsm; every step is a
    service in ``forensics/disputes.py`` that records its audit event). An upheld case asks the
    ledger for a correction of the round's settlement (``correction``), which another staff
    member must approve. ``replay`` is the round's replay as attached to the case (summary:
    status, differences, per-bet totals, when and by which software version).
    """

    class Status(models.TextChoices):
        OPEN = "open"
        INVESTIGATING = "investigating"
        RESOLVED_UPHELD = "resolved_upheld"
        RESOLVED_REJECTED = "resolved_rejected"

    round = models.ForeignKey("tables.Round", on_delete=models.PROTECT, related_name="+")
    bet = models.ForeignKey(
        "tables.Bet", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    claim = models.TextField(max_length=2000)
    claimant = models.CharField(max_length=200, blank=True, default="")
    status = FSMField(default=Status.OPEN, choices=Status.choices)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    replay = models.JSONField(null=True, blank=True)
    resolution = models.TextField(max_length=2000, blank=True, default="")
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    correction = models.ForeignKey(
        "ledger.Correction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-id"]
        permissions = [
            ("work_dispute", "Can investigate dispute cases and add notes and evidence"),
            ("resolve_dispute", "Can resolve dispute cases (uphold or reject)"),
        ]

    def __str__(self) -> str:
        return f"dispute #{self.pk} on round {self.round_id} ({self.status})"

    @transition(field=status, source=Status.OPEN, target=Status.INVESTIGATING)
    def investigate(self) -> None:
        pass

    @transition(field=status, source=Status.INVESTIGATING, target=Status.RESOLVED_UPHELD)
    def uphold(self) -> None:
        pass

    @transition(field=status, source=Status.INVESTIGATING, target=Status.RESOLVED_REJECTED)
    def reject(self) -> None:
        pass


class DisputeNote(models.Model):
    """A staff note or an evidence reference (e.g. a video timecode) on a dispute case."""

    class Kind(models.TextChoices):
        NOTE = "note"
        EVIDENCE = "evidence"

    case = models.ForeignKey(DisputeCase, on_delete=models.PROTECT, related_name="notes")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.NOTE)
    text = models.TextField(max_length=2000)
    evidence_ref = models.CharField(max_length=200, blank=True, default="")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind} on dispute {self.case_id}"
