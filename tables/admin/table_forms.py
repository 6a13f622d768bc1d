"""Forms of the table buttons and the "Add table" page."""

from __future__ import annotations

from django import forms

from casino.console.admin import ReasonForm
from tables import console_selectors, models, selectors
from tables.admin.common import NoteForm

TIMER_FIELDS = ("decision_seconds", "betting_seconds")
LIMIT_FIELDS = ("min_bet", "max_bet", "box_max", "min_unit", *TIMER_FIELDS)


class LimitsForm(NoteForm):
    min_bet = forms.IntegerField(min_value=1, help_text="Minor units (cents).")
    max_bet = forms.IntegerField(min_value=1)
    box_max = forms.IntegerField(min_value=1, required=False, help_text="Empty: no box limit.")
    min_unit = forms.IntegerField(min_value=1)
    decision_seconds = forms.IntegerField(min_value=1, max_value=600)
    betting_seconds = forms.IntegerField(min_value=1, max_value=3600)

    field_order = [*LIMIT_FIELDS, "reason"]


class DealerForm(NoteForm):
    # A lazy queryset, evaluated afresh by each form (ModelChoiceField copies it).
    dealer = forms.ModelChoiceField(queryset=selectors.dealer_list().order_by("username"))
    field_order = ["dealer", "reason"]


class CloneForm(NoteForm):
    code = forms.SlugField(max_length=40, help_text="The new table's code (unique).")
    name = forms.CharField(max_length=120)
    field_order = ["code", "name", "reason"]


class RulesForm(ReasonForm):
    rule_set = forms.ModelChoiceField(queryset=console_selectors.rule_set_choices())
    payout_schedule = forms.ModelChoiceField(queryset=console_selectors.payout_schedule_choices())
    field_order = ["rule_set", "payout_schedule", "reason", "confirm"]


class SetupForm(NoteForm):
    name = forms.CharField(max_length=120)
    pit = forms.ModelChoiceField(
        queryset=console_selectors.pit_choices(), required=False, help_text="Empty: no pit."
    )
    card_source = forms.ChoiceField(
        choices=models.Table.CardSource.choices,
        help_text="Changed only while the table is closed.",
    )
    field_order = ["name", "pit", "card_source", "reason"]


class ShoeForm(NoteForm):
    shuffle_method = forms.CharField(max_length=60, initial="automatic shuffler")
    device_id = forms.CharField(max_length=64, required=False)
    commitment = forms.RegexField(
        regex=r"^[0-9a-f]{64}$",
        required=False,
        help_text="The shuffler's SHA-256 commitment, if it gives one.",
    )
    field_order = ["shuffle_method", "device_id", "commitment", "reason"]


class TableCreateForm(LimitsForm):
    """A new closed table: everything ``table_create`` takes."""

    code = forms.SlugField(max_length=40, help_text="Unique; the API and devices use it.")
    name = forms.CharField(max_length=120)
    casino = forms.ModelChoiceField(queryset=console_selectors.casino_choices())
    pit = forms.ModelChoiceField(queryset=console_selectors.pit_choices(), required=False)
    rule_set = forms.ModelChoiceField(queryset=console_selectors.rule_set_choices())
    payout_schedule = forms.ModelChoiceField(queryset=console_selectors.payout_schedule_choices())
    currency = forms.RegexField(regex=r"^[A-Z]{3}$", initial="EUR", max_length=3)
    card_source = forms.ChoiceField(
        choices=models.Table.CardSource.choices, initial=models.Table.CardSource.SERVER_SHOE
    )

    field_order = [
        "code",
        "name",
        "casino",
        "pit",
        "rule_set",
        "payout_schedule",
        "currency",
        "card_source",
        *LIMIT_FIELDS,
        "reason",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in LIMIT_FIELDS:  # the model's defaults, as the API's create
            default = models.Table._meta.get_field(name).default
            self.fields[name].initial = default if isinstance(default, int) else None

    def clean(self):
        data = super().clean()
        casino, pit = data.get("casino"), data.get("pit")
        if casino and pit and pit.casino_id != casino.pk:
            self.add_error("pit", f"{pit} is not a pit of {casino}.")
        return data
