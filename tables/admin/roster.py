"""Shifts and the roster: configuration, edited here and audited as admin changes."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from casino.console.admin import ConsoleModelAdmin
from tables import console_selectors, models, selectors


class ShiftDefinitionInline(admin.TabularInline):
    model = models.ShiftDefinition
    extra = 3


@admin.register(models.ShiftPlan)
class ShiftPlanAdmin(ConsoleModelAdmin):
    list_display = ("casino", "effective_from", "gaming_day_starts", "shift_names")
    list_filter = ("casino",)
    inlines = [ShiftDefinitionInline]

    def get_queryset(self, request):
        return console_selectors.shift_plan_list(super().get_queryset(request))

    @admin.display(description="Shifts")
    def shift_names(self, obj) -> str:
        return ", ".join(f"{s.name} {s.starts:%H:%M}" for s in obj.shifts.all())


class RosterEntryForm(forms.ModelForm):
    class Meta:
        model = models.RosterEntry
        fields = ("casino", "pit", "user", "gaming_day", "shift", "role")

    def clean(self):
        data = super().clean()
        casino, pit, day, shift = (data.get(k) for k in ("casino", "pit", "gaming_day", "shift"))
        if casino and pit and pit.casino_id != casino.pk:
            self.add_error("pit", f"{pit} is not a pit of {casino}.")
        if casino and day and shift:
            names = [s.shift for s in selectors.shift_calendar(casino_id=casino.pk).spans(day)]
            if shift not in names:
                self.add_error("shift", f"The shifts of {day} are {', '.join(names)}.")
        return data


@admin.register(models.RosterEntry)
class RosterEntryAdmin(ConsoleModelAdmin):
    form = RosterEntryForm
    list_display = ("gaming_day", "shift", "casino", "pit", "user", "role")
    list_filter = ("casino", "pit", "shift", "gaming_day")
    date_hierarchy = "gaming_day"

    def get_queryset(self, request):
        return console_selectors.roster_list(super().get_queryset(request))
