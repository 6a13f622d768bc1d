"""Rule set and payout schedule versions (immutable; a new version from an old one, validated
by the engine) and their theoretical RTP figures."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from casino.console.admin import (
    ObjectAction,
    ObjectActionsMixin,
    ReadOnlyConsoleModelAdmin,
    json_block,
)
from tables import console_selectors, models, services
from tables import engine as eng
from tables.admin.common import NoteForm, rtp_text


def _pretty(document) -> str:
    return json.dumps(document, indent=2, sort_keys=True)


class _VersionForm(NoteForm):
    name = forms.SlugField(max_length=60)
    document = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 24, "cols": 90, "class": "console-code"}),
        help_text="The engine's JSON document; validated by the engine before it is saved.",
    )
    field_order = ["name", "document", "reason"]
    engine_class = None

    def clean_document(self):
        try:
            document = json.loads(self.cleaned_data["document"])
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from None
        if not isinstance(document, dict):
            raise forms.ValidationError("The document must be a JSON object.")
        try:
            self.engine_class.from_json(document).check_operator_bounds()
        except (eng.EngineError, ValueError, TypeError, KeyError) as exc:
            raise forms.ValidationError(f"The engine refuses it: {exc}") from None
        return document


class RuleSetForm(_VersionForm):
    engine_class = eng.RuleSet


class PayoutScheduleForm(_VersionForm):
    engine_class = eng.PayoutSchedule


def _version_create(service, admin_name: str):
    def perform(*, request, obj, actor, data):
        version = service(
            actor=actor, name=data["name"], document=data["document"], user=request.user
        )
        return reverse(f"admin:tables_{admin_name}_change", args=[version.pk])

    return perform


def _new_version(service, admin_name: str, form, permission: str, help: str) -> ObjectAction:
    return ObjectAction(
        name="new-version",
        label="New version from this",
        perform=_version_create(service, admin_name),
        permissions=(permission,),
        form=form,
        initial=lambda v: {"name": v.name, "document": _pretty(v.document)},
        help=help,
    )


class _VersionAdmin(ObjectActionsMixin, ReadOnlyConsoleModelAdmin):
    """Versions are immutable (the database refuses edits of versions in use): the page is
    read-only; "New version from this" opens a form prefilled with the document."""

    list_display = ("name", "version", "in_use", "created_at", "created_by")
    list_filter = ("name",)
    search_fields = ("name",)
    exclude = ("document",)
    readonly_fields = ("document_pretty", "in_use", "rtp_figures")
    used_by_field = ""

    @admin.display(description="document")
    def document_pretty(self, obj):
        return json_block(obj.document, sort_keys=True)

    @admin.display(description="in use", boolean=True)
    def in_use(self, obj):
        return console_selectors.version_in_use(field=self.used_by_field, version=obj)

    @admin.display(description="theoretical RTP")
    def rtp_figures(self, obj):
        figures = console_selectors.version_rtp_figures(field=self.used_by_field, version=obj)
        if not figures:
            return "none computed yet (choose a pair under a table's “Change rules”)"
        rows = format_html_join(
            "",
            "<li>{} / {}: <strong>{}</strong></li>",
            ((f.rule_set, f.payout_schedule, rtp_text(f)) for f in figures),
        )
        return format_html("<ul class='console-rtp'>{}</ul>", rows)


@admin.register(models.RuleSetVersion)
class RuleSetVersionAdmin(_VersionAdmin):
    used_by_field = "rule_set"
    object_actions = (
        _new_version(
            services.rule_set_version_create,
            "rulesetversion",
            RuleSetForm,
            "tables.add_rulesetversion",
            "Edit the rules; the engine validates them. The new version is activated on a "
            "table with “Change rules”, which shows its theoretical RTP first.",
        ),
    )


@admin.register(models.PayoutScheduleVersion)
class PayoutScheduleVersionAdmin(_VersionAdmin):
    used_by_field = "payout_schedule"
    object_actions = (
        _new_version(
            services.payout_schedule_version_create,
            "payoutscheduleversion",
            PayoutScheduleForm,
            "tables.add_payoutscheduleversion",
            "Edit the payouts; the engine validates them. Activate the new version on a "
            "table with “Change rules”, which shows its theoretical RTP first.",
        ),
    )


@admin.register(models.RtpFigure)
class RtpFigureAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("rule_set", "payout_schedule", "rtp", "method", "computed_at")
