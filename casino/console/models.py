"""The pit console's own rows: which operator a member of an operator's staff works for."""

from django.conf import settings
from django.db import models


class OperatorStaff(models.Model):
    """Links a staff user (role ``operator_staff``) to the one operator whose players they see.

    The console filters players, wallets, transactions and operator events by this link; a user
    of that role without a link sees nothing.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="operator_staff"
    )
    operator = models.ForeignKey("ledger.Operator", on_delete=models.PROTECT, related_name="staff")

    class Meta:
        verbose_name = "operator staff member"
        verbose_name_plural = "operator staff"

    def __str__(self) -> str:
        return f"{self.user} for {self.operator}"


def operator_scope(user) -> int | None:
    """The operator id a console user is limited to, or None for casino staff (no limit).

    Returns 0 (matches nothing) for a member of an operator's staff with no link, or whose
    operator is deactivated.
    """
    operator_id, active = operator_link(user)
    return operator_id if active else 0


def operator_link(user) -> tuple[int | None, bool]:
    """``(operator_scope(user), whether that operator is active)``, in one query for a linked
    user. A deactivated operator's staff keep their link but every API call is refused."""
    from casino.api import roles

    if user.is_superuser:
        return None, True
    link = (
        OperatorStaff.objects.filter(user=user)
        .values_list("operator_id", "operator__is_active")
        .first()
    )
    if link is not None:
        return link
    if user.groups.filter(name=roles.OPERATOR_STAFF).exists():
        return 0, True
    return None, True
