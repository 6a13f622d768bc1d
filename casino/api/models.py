from django.contrib.postgres.fields import ArrayField
from django.db import models


class Scope(models.TextChoices):
    """What a credential may do, narrowing (never widening) its role's permissions.

    Reads (GET) need ``read``; every other method needs the ``write_scope`` its view declares
    (casino/api/scopes.py)."""

    READ = "read", "read: GET endpoints"
    MONEY = "money", "money: players, wallets, deposits, withdrawals, bets, decisions"
    PIT = "pit", "pit: running tables and rounds (dealer devices, pit work)"


def scopes_all() -> list[str]:
    return list(Scope.values)


class Credential(models.Model):
    """A secret shown once and stored only as its SHA-256 (the secret is 256 random bits).

    A rotation replaces the secret under the same prefix and keeps the previous one valid
    until ``previous_valid_until`` (the overlap), so a client can switch without downtime."""

    prefix = models.CharField(max_length=16, unique=True)
    secret_hash = models.CharField(max_length=64)
    label = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()
    scopes = ArrayField(models.CharField(max_length=8, choices=Scope.choices), default=scopes_all)
    # CIDRs (normalised by casino.api.credentials.networks_normalize); empty: any address.
    allowed_networks = ArrayField(models.CharField(max_length=49), default=list, blank=True)
    rotated_at = models.DateTimeField(null=True, blank=True)
    previous_secret_hash = models.CharField(max_length=64, blank=True, default="")
    previous_valid_until = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    last_used_ip = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class ApiKey(Credential):
    """An operator's integration key: sees and touches only that operator's players."""

    operator = models.ForeignKey(
        "ledger.Operator", on_delete=models.PROTECT, related_name="api_keys"
    )

    class Meta:
        ordering = ["id"]
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.label} ({self.prefix}…)"


class DeviceToken(Credential):
    """A dealer device's token, bound to exactly one table."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="device_tokens"
    )
    device_id = models.CharField(max_length=64)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.device_id} @ {self.table_id} ({self.prefix}…)"


class IdempotencyRecord(models.Model):
    """A money-moving request's key, fingerprint and stored response.

    Written in the same transaction as the work, so a stored response always means the work
    committed, and a rolled-back attempt leaves no record (a retry simply runs again).
    """

    scope = models.CharField(max_length=64)  # whose keys: "operator:7", "device:2", "user:3"
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    # The response's exact bytes (UTF-8 JSON), replayed as they are: jsonb would keep the
    # data but not the key order or the spacing. ``response_body`` is what records written
    # before it held (a replay of one renders it again).
    response_content = models.TextField(blank=True, default="")
    response_body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_unique_scope_key")
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"


class StaffToken(Credential):
    """A staff member's personal API token (``Bearer st_…``): it acts as its owner, with one of
    the owner's roles only (and only while the owner is active and still holds that role), for
    hours (``API_STAFF_TOKEN_LIFETIME_HOURS`` at most). Minted from a console session that
    passed the second factor, never from another credential (``casino/api/staff_tokens.py``).
    Four-eyes rules see the owner: one person's two tokens are still one person."""

    user = models.ForeignKey("auth.User", on_delete=models.PROTECT, related_name="staff_tokens")
    role = models.CharField(max_length=60)

    class Meta:
        ordering = ["id"]
        permissions = [("own_stafftoken", "Can hold personal staff API tokens")]

    def __str__(self) -> str:
        return f"{self.label} of {self.user_id} as {self.role} ({self.prefix}…)"
