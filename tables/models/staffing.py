"""The floor's staffing: shift plans, the roster, dealer rotations and breaks.

Who works where and when, apart from the play itself (rounds, bets) in ``tables.models``;
``tables/shifts.py`` and ``tables/services/rotation.py`` read and write these rows. Re-exported
by ``tables.models``; relations to the floor's own models (casino, pit, table) are by name.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ShiftPlan(models.Model):
    """The casino's shifts from a gaming day on, until the next plan takes over.

    The gaming day starts at ``gaming_day_starts`` (local) and each shift runs from its local
    start to the next one's; ``tables/shifts.py`` turns them into UTC intervals, DST included.
    """

    casino = models.ForeignKey("Casino", on_delete=models.PROTECT, related_name="shift_plans")
    effective_from = models.DateField(help_text="The first gaming day under this plan.")
    gaming_day_starts = models.TimeField(help_text="Local time; one of the shifts' starts.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["casino", "-effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["casino", "effective_from"], name="shiftplan_one_per_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.casino} shifts from {self.effective_from}"


class ShiftDefinition(models.Model):
    plan = models.ForeignKey(ShiftPlan, on_delete=models.CASCADE, related_name="shifts")
    name = models.SlugField(max_length=20)
    starts = models.TimeField(help_text="Local start time.")

    class Meta:
        ordering = ["plan", "starts"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "name"], name="shift_unique_name"),
            models.UniqueConstraint(fields=["plan", "starts"], name="shift_unique_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} from {self.starts:%H:%M}"


class RosterEntry(models.Model):
    """A staff member rostered to a shift of a gaming day, in a pit (or the whole casino)."""

    casino = models.ForeignKey("Casino", on_delete=models.PROTECT, related_name="roster")
    pit = models.ForeignKey(
        "Pit", null=True, blank=True, on_delete=models.PROTECT, related_name="roster"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.SlugField(max_length=20)
    role = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["-gaming_day", "shift", "pit", "user"]
        verbose_name_plural = "roster entries"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "gaming_day", "shift"], name="roster_one_place_per_shift"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.gaming_day} {self.shift} {self.pit or self.casino}"


class DealerAssignment(models.Model):
    """The rotation log: who dealt at a table, from when to when."""

    table = models.ForeignKey("Table", on_delete=models.PROTECT, related_name="dealer_assignments")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    assigned_by = models.CharField(max_length=200)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(ended_at__isnull=True),
                name="dealer_one_current_assignment_per_table",
            ),
            # One table per dealer at a time (the service refuses first, with the table named).
            models.UniqueConstraint(
                fields=["dealer"],
                condition=models.Q(ended_at__isnull=True),
                name="dealer_one_table_at_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"dealer {self.dealer_id} at table {self.table_id} from {self.started_at}"


class DealerBreak(models.Model):
    """A dealer's break; ``table`` is the one they were dealing at when it began, if any (its
    dealer of record is then away: the floor says so while the table is open)."""

    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(
        "Table", null=True, blank=True, on_delete=models.PROTECT, related_name="dealer_breaks"
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.CharField(max_length=200)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"],
                condition=models.Q(ended_at__isnull=True),
                name="dealer_one_break_at_a_time",
            )
        ]

    def __str__(self) -> str:
        return f"dealer {self.dealer_id} on break from {self.started_at}"
