from django.db import models


class Operator(models.Model):
    """An operator's platform: owns players and their wallets, integrates through API keys."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["code"]

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
