from django.db import models


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
    name = models.CharField(max_length=80, db_index=True)
    actor_kind = models.CharField(max_length=20)
    actor_id = models.CharField(max_length=64, blank=True, default="")
    actor_label = models.CharField(max_length=150)
    request_id = models.CharField(max_length=64, blank=True, default="")
    operator_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    casino_id = models.BigIntegerField(null=True, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    round_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    bet_id = models.BigIntegerField(null=True, blank=True)
    wallet_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    payload = models.JSONField(default=dict)
    content_hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["actor_kind", "actor_id"], name="audit_actor_idx"),
            models.Index(fields=["txid", "id"], name="audit_seal_order_idx"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name} by {self.actor_label}"


class AuditSeal(models.Model):
    """A signed link of the hash chain: the digests of a run of events in (txid, id) order.

    A seal covers every event whose key ``(txid, id)`` lies after the previous seal's last key
    and up to its own last key; ``event_ids`` (big-endian int64s) and ``event_digests``
    (32-byte SHA-256s) list them in that order, so verification can name the exact event that
    was modified, removed or slipped in. ``chain_hash`` covers the header, which carries
    ``prev_hash`` and ``batch_hash``; ``signature`` is an HMAC of ``chain_hash`` with a key
    the database does not hold. Append-only, like the events.
    """

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
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=64)

    class Meta:
        ordering = ["seq"]
        indexes = [models.Index(fields=["last_txid", "last_event_id"], name="audit_seal_key_idx")]

    def __str__(self) -> str:
        return f"seal {self.seq} ({self.event_count} events)"
