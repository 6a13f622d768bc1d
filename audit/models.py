from django.db import models


class AuditEvent(models.Model):
    """One fact, written in the same database transaction as the change it records.

    Append-only: database triggers refuse UPDATE, DELETE and TRUNCATE (migration 0001).
    References to other rows are plain values, not foreign keys, so the log never constrains
    (or cascades with) the rows it describes. ``content_hash`` is the SHA-256 of the event's
    canonical JSON (see ``audit.services.audit_event_content``).
    """

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
        indexes = [models.Index(fields=["actor_kind", "actor_id"], name="audit_actor_idx")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name} by {self.actor_label}"
