"""Basic admin for the tables app: rounds, bets and shoes are written by services only, so the
console shows them read-only; the pit console's actions come later (on the same services)."""

from django.contrib import admin

from casino.console.admin import ConsoleModelAdmin, ReadOnlyConsoleModelAdmin
from tables import models


@admin.register(models.Casino, models.Pit)
class SiteAdmin(ConsoleModelAdmin):
    list_display = ("code", "name")


@admin.register(models.Table)
class TableAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("code", "name", "status", "rule_set", "payout_schedule", "card_source")
    list_filter = ("status", "card_source")


@admin.register(models.Round)
class RoundAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("table", "number", "phase", "seq", "suspended_reason", "opened_at")
    list_filter = ("phase",)


@admin.register(
    models.RuleSetVersion,
    models.PayoutScheduleVersion,
    models.RtpFigure,
    models.TableChange,
    models.DealerAssignment,
    models.Seat,
    models.Shoe,
    models.Shuffle,
    models.RoundEvent,
    models.Bet,
    models.Hand,
    models.Decision,
    models.VoidRequest,
)
class TablesRecordAdmin(ReadOnlyConsoleModelAdmin):
    pass
