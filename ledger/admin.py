"""The ledger in the pit console: read-only money (services write it), corrections requested
by one staff member and approved by another, and an operator's staff scoped to its players."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from casino.console.admin import (
    ConsoleModelAdmin,
    ObjectAction,
    ObjectActionsMixin,
    ReadOnlyConsoleModelAdmin,
    ReadOnlyInline,
    ReasonForm,
    json_block,
)
from casino.console.models import operator_scope
from ledger import selectors, services
from ledger.models import (
    Account,
    Correction,
    Leg,
    Operator,
    OperatorEvent,
    Player,
    Transaction,
    WebhookAttempt,
    WebhookCircuit,
)


class OperatorScopedMixin:
    """An operator's staff (``casino.console.models.OperatorStaff``) see only their operator's
    rows; casino staff see everything. ``operator_path`` is the lookup to the operator id."""

    operator_path = "operator_id"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        scope = operator_scope(request.user)
        return qs if scope is None else qs.filter(**{self.operator_path: scope})


@admin.register(Operator)
class OperatorAdmin(OperatorScopedMixin, ConsoleModelAdmin):
    operator_path = "pk"
    list_display = ("code", "name", "is_active", "webhook_url", "created_at")
    fields = ("code", "name", "is_active", "webhook_url", "created_at")
    readonly_fields = ("webhook_url", "created_at")
    search_fields = ("code", "name")


@admin.register(Player)
class PlayerAdmin(OperatorScopedMixin, ReadOnlyConsoleModelAdmin):
    list_display = ("id", "external_ref", "display_name", "operator", "created_at")
    list_filter = ("operator",)
    search_fields = ("external_ref", "display_name")
    list_select_related = ("operator",)

    def get_list_filter(self, request):
        return () if operator_scope(request.user) is not None else self.list_filter


@admin.register(Account)
class AccountAdmin(OperatorScopedMixin, ReadOnlyConsoleModelAdmin):
    list_display = ("id", "kind", "currency", "player", "operator", "table", "balance")
    list_filter = ("kind", "currency")
    search_fields = ("player__external_ref",)
    list_select_related = ("player__operator", "operator", "table")
    show_full_result_count = False


class LegInline(OperatorScopedMixin, ReadOnlyInline):
    model = Leg
    fields = ("account", "amount", "currency", "kind", "bet_ref")
    operator_path = "account__operator_id"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("account")


class CorrectionRequestForm(ReasonForm):
    replacement_legs = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "class": "console-code"}),
        initial="[]",
        help_text='What should have been posted, as JSON: [{"account_id": 1, "amount": -500, '
        '"kind": "payout", "bet_ref": "..."}, ...], balanced per currency. Empty list: the '
        "original is only reversed.",
    )
    field_order = ["replacement_legs", "reason", "confirm"]

    def clean_replacement_legs(self):
        try:
            legs = json.loads(self.cleaned_data["replacement_legs"] or "[]")
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from None
        if not isinstance(legs, list):
            raise forms.ValidationError("A JSON list of legs.")
        return legs


def _correction_request(*, request, obj, actor, data):
    correction = services.correction_request(
        actor=actor,
        user=request.user,
        original=obj,
        reason=data["reason"],
        replacement_legs=data["replacement_legs"],
    )
    return reverse("admin:ledger_correction_change", args=[correction.pk])


@admin.register(Transaction)
class TransactionAdmin(ObjectActionsMixin, ReadOnlyConsoleModelAdmin):
    list_display = ("id", "kind", "reference", "posted_at", "actor_label", "table_id", "round_id")
    list_filter = ("kind",)
    search_fields = ("reference", "=round_id", "=table_id")
    date_hierarchy = "posted_at"
    show_full_result_count = False
    inlines = [LegInline]
    object_actions = (
        ObjectAction(
            name="correct",
            label="Request correction",
            perform=_correction_request,
            permissions=("ledger.add_correction",),
            form=CorrectionRequestForm,
            available=lambda t: t.kind != Transaction.Kind.REVERSAL,
            dangerous=True,
            help="The original is never edited: once another staff member approves, it is "
            "reversed and the replacement posted.",
            references=lambda t: {"table_id": t.table_id, "round_id": t.round_id},
        ),
    )

    def get_queryset(self, request):
        scope = operator_scope(request.user)
        qs = selectors.transaction_list(operator_id=scope) if scope is not None else None
        base = super().get_queryset(request)
        return base if qs is None else base.filter(pk__in=qs.values("pk"))


def _approve(*, request, obj, actor, data):
    services.correction_approve(actor=actor, user=request.user, correction=obj, note=data["reason"])
    return f"{obj}: approved; the reversal and replacement are posted."


def _reject(*, request, obj, actor, data):
    services.correction_reject(actor=actor, user=request.user, correction=obj, note=data["reason"])
    return f"{obj}: rejected."


def _waiting(c) -> bool:
    return c.status == Correction.Status.REQUESTED


@admin.register(Correction)
class CorrectionAdmin(ObjectActionsMixin, ReadOnlyConsoleModelAdmin):
    list_display = ("id", "original_link", "status", "reason", "requested_by", "decided_by")
    list_filter = ("status",)
    list_select_related = ("original", "requested_by", "decided_by")
    readonly_fields = ("legs_pretty",)
    exclude = ("replacement_legs",)
    object_actions = (
        ObjectAction(
            name="approve",
            label="Approve correction",
            perform=_approve,
            permissions=("ledger.approve_correction",),
            available=_waiting,
            dangerous=True,
            help="Posts the reversal and the replacement. You can't approve your own request.",
        ),
        ObjectAction(
            name="reject",
            label="Reject correction",
            perform=_reject,
            permissions=("ledger.approve_correction",),
            available=_waiting,
            dangerous=True,
        ),
    )

    @admin.display(description="original")
    def original_link(self, obj):
        url = reverse("admin:ledger_transaction_change", args=[obj.original_id])
        return format_html('<a href="{}">{}</a>', url, obj.original)

    @admin.display(description="replacement legs")
    def legs_pretty(self, obj):
        return json_block(obj.replacement_legs)


@admin.register(OperatorEvent)
class OperatorEventAdmin(OperatorScopedMixin, ReadOnlyConsoleModelAdmin):
    list_display = ("public_id", "operator", "kind", "delivery", "attempts", "created_at")
    list_filter = ("delivery", "kind")
    show_full_result_count = False


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(OperatorScopedMixin, ReadOnlyConsoleModelAdmin):
    operator_path = "event__operator_id"
    list_display = ("event", "attempt", "url", "status_code", "error", "attempted_at")


@admin.register(WebhookCircuit)
class WebhookCircuitAdmin(OperatorScopedMixin, ReadOnlyConsoleModelAdmin):
    """Each operator endpoint's circuit breaker (its changes are also in the operator events
    and the audit log)."""

    list_display = ("operator", "state", "consecutive_failures", "open_until", "changed_at")
    list_filter = ("state",)
    list_select_related = ("operator",)
