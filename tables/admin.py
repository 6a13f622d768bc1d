"""The pit console for tables: the floor dashboard, table and round pages with buttons that call
the same services as the API (``tables.services``), and versioned rules with their RTP.

Rows are written by services only, so every page is read-only; changes are the buttons.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import JsonResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince

from casino.console import selectors as console_selectors
from casino.console.admin import (
    ConsoleModelAdmin,
    ObjectAction,
    ObjectActionsMixin,
    ReadOnlyConsoleModelAdmin,
    ReadOnlyInline,
    ReasonForm,
    confirmed_action,
    json_block,
)
from casino.console.links import audit_links
from casino.errors import Conflict
from casino.money import money_text
from tables import engine as eng
from tables import models, selectors, services
from tables.services.versions import rtp_by_stake

OPERATE = "tables.operate_table"
DEAL = "tables.deal_round"


def _badge(value: str) -> str:
    return format_html('<span class="console-badge console-{}">{}</span>', value, value)


# --- forms ---------------------------------------------------------------------------------


class NoteForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=500, required=False, label="Note"
    )


class LimitsForm(NoteForm):
    min_bet = forms.IntegerField(min_value=1, help_text="Minor units (cents).")
    max_bet = forms.IntegerField(min_value=1)
    box_max = forms.IntegerField(min_value=1, required=False, help_text="Empty: no box limit.")
    min_unit = forms.IntegerField(min_value=1)
    decision_seconds = forms.IntegerField(min_value=1, max_value=600)
    betting_seconds = forms.IntegerField(min_value=1, max_value=3600)

    field_order = [
        "min_bet",
        "max_bet",
        "box_max",
        "min_unit",
        "decision_seconds",
        "betting_seconds",
        "reason",
    ]


class DealerForm(NoteForm):
    dealer = forms.ModelChoiceField(queryset=get_user_model().objects.none())
    field_order = ["dealer", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dealer"].queryset = selectors.dealer_list().order_by("username")


class CloneForm(NoteForm):
    code = forms.SlugField(max_length=40, help_text="The new table's code (unique).")
    name = forms.CharField(max_length=120)
    field_order = ["code", "name", "reason"]


class RulesForm(ReasonForm):
    rule_set = forms.ModelChoiceField(queryset=models.RuleSetVersion.objects.all())
    payout_schedule = forms.ModelChoiceField(queryset=models.PayoutScheduleVersion.objects.all())
    field_order = ["rule_set", "payout_schedule", "reason", "confirm"]


class ShoeForm(NoteForm):
    shuffle_method = forms.CharField(max_length=60, initial="automatic shuffler")
    device_id = forms.CharField(max_length=64, required=False)
    commitment = forms.RegexField(
        regex=r"^[0-9a-f]{64}$",
        required=False,
        help_text="The shuffler's SHA-256 commitment, if it gives one.",
    )
    field_order = ["shuffle_method", "device_id", "commitment", "reason"]


# --- table actions -------------------------------------------------------------------------


def _status(name: str, verb: str):
    service = getattr(services, f"table_{name}")

    def perform(*, request, obj, actor, data):
        table = service(actor=actor, table_id=obj.pk)
        return f"Table {table.code} {verb}."

    return perform


def _limits(*, request, obj, actor, data):
    services.table_limits_set(
        actor=actor,
        table_id=obj.pk,
        min_bet=data["min_bet"],
        max_bet=data["max_bet"],
        box_max=data["box_max"],
        min_unit=data["min_unit"],
        decision_seconds=data["decision_seconds"],
        betting_seconds=data["betting_seconds"],
    )
    return f"New limits for {obj.code}: they apply from the next round."


def _dealer(*, request, obj, actor, data):
    services.table_dealer_assign(actor=actor, table_id=obj.pk, dealer=data["dealer"])
    return f"{data['dealer']} deals at {obj.code} from the next round."


def _clone(*, request, obj, actor, data):
    table = services.table_clone(actor=actor, table_id=obj.pk, code=data["code"], name=data["name"])
    return reverse("admin:tables_table_change", args=[table.pk])


def _retire(*, request, obj, actor, data):
    services.table_retire(actor=actor, table_id=obj.pk)
    return f"Table {obj.code} is retired."


def _dealer_break(*, request, obj, actor, data):
    services.dealer_break_start(actor=actor, dealer=obj.dealer)
    return f"{obj.dealer} is on break."


def _dealer_back(*, request, obj, actor, data):
    if services.dealer_break_end(actor=actor, dealer=obj.dealer) is None:
        raise Conflict(f"{obj.dealer} is not on break.")
    return f"{obj.dealer} is back from break."


def _dealer_release(*, request, obj, actor, data):
    services.table_dealer_release(actor=actor, table_id=obj.pk)
    return f"{obj.code} has no dealer now."


def _rtp_text(figure: models.RtpFigure) -> str:
    if figure.rtp is None:
        return "pending (the game maths is computing; refresh in a few seconds)"
    return f"{figure.rtp * 100:.4f} %"


def _rules(*, request, obj, actor, data):
    _, figure = services.table_rules_set(
        actor=actor,
        table_id=obj.pk,
        rule_set=data["rule_set"],
        payout_schedule=data["payout_schedule"],
    )
    return (
        f"{obj.code} plays {data['rule_set']} / {data['payout_schedule']} from the next round "
        f"(theoretical RTP {_rtp_text(figure)})."
    )


def _rules_preview(*, obj, data):
    rule_set = data.get("rule_set") or obj.rule_set
    payouts = data.get("payout_schedule") or obj.payout_schedule
    if isinstance(rule_set, str | int):
        rule_set = models.RuleSetVersion.objects.filter(pk=rule_set).first()
    if isinstance(payouts, str | int):
        payouts = models.PayoutScheduleVersion.objects.filter(pk=payouts).first()
    if rule_set is None or payouts is None:
        return {"Theoretical RTP": "choose a rule set and a payout schedule"}
    figure = services.rtp_figure(rule_set=rule_set, payout_schedule=payouts)
    by_stake = rtp_by_stake(rule_set=rule_set, payout_schedule=payouts)
    return {
        "Rule set": str(rule_set),
        "Payout schedule": str(payouts),
        "Theoretical RTP": _rtp_text(figure),
        **({"RTP by stake (fixed Super Bonus prizes)": by_stake} if by_stake else {}),
        "Method": figure.method,
        "Currently": f"{obj.rule_set} / {obj.payout_schedule}",
    }


def _shoe(*, request, obj, actor, data):
    shoe = services.shoe_load(
        actor=actor,
        table_id=obj.pk,
        shuffle_method=data["shuffle_method"],
        device_id=data["device_id"],
        commitment=data["commitment"],
    )
    return f"New shoe {shoe.pk} loaded at {obj.code}; the previous shoe is retired."


def _server_shoe(*, request, obj, actor, data):
    shoe = services.shoe_replace(actor=actor, table_id=obj.pk)
    return f"New shoe {shoe.pk} shuffled at {obj.code}; the previous shoe is retired and revealed."


def _table_refs(obj) -> dict:
    return {"table_id": obj.pk, "casino_id": obj.casino_id}


TABLE_ACTIONS = (
    ObjectAction(
        name="open",
        label="Open table",
        perform=_status("open", "is open"),
        permissions=(OPERATE,),
        available=lambda t: t.status == models.Table.Status.CLOSED,
        one_click=True,
        references=_table_refs,
    ),
    ObjectAction(
        name="resume",
        label="Resume table",
        perform=_status("resume", "is open again"),
        permissions=(OPERATE,),
        available=lambda t: t.status == models.Table.Status.PAUSED,
        one_click=True,
        references=_table_refs,
    ),
    ObjectAction(
        name="pause",
        label="Pause table",
        perform=_status("pause", "is paused: the round in play finishes, no new round opens"),
        permissions=(OPERATE,),
        available=lambda t: t.status == models.Table.Status.OPEN,
        dangerous=True,
        help="The round in play finishes; no new round opens until the table is resumed.",
        references=_table_refs,
    ),
    ObjectAction(
        name="close",
        label="Close table",
        perform=_status("close", "is closed"),
        permissions=(OPERATE,),
        available=lambda t: t.status != models.Table.Status.CLOSED,
        dangerous=True,
        help="Refused while a round is in play. The shoe is retired and its shuffle revealed; "
        "every player leaves their seat.",
        references=_table_refs,
    ),
    ObjectAction(
        name="limits",
        label="Change limits",
        perform=_limits,
        permissions=(OPERATE,),
        form=LimitsForm,
        initial=lambda t: {
            "min_bet": t.min_bet,
            "max_bet": t.max_bet,
            "box_max": t.box_max,
            "min_unit": t.min_unit,
            "decision_seconds": t.decision_seconds,
            "betting_seconds": t.betting_seconds,
        },
        help="Limits and timers apply from the next round; the change is logged.",
        references=_table_refs,
    ),
    ObjectAction(
        name="dealer",
        label="Assign dealer",
        perform=_dealer,
        permissions=(OPERATE,),
        form=DealerForm,
        initial=lambda t: {"dealer": t.dealer_id},
        help="The new dealer deals from the next round; the rotation log records it. "
        "A dealer holding another table is refused: relieve them there first.",
        references=_table_refs,
    ),
    ObjectAction(
        name="clone",
        label="Clone table",
        perform=_clone,
        permissions=(OPERATE,),
        form=CloneForm,
        help="A new closed table with this one's pit, rules, currency, card source, limits "
        "and timers; change them on its page, then open it.",
        references=_table_refs,
    ),
    ObjectAction(
        name="retire",
        label="Retire table",
        perform=_retire,
        permissions=(OPERATE,),
        available=lambda t: t.status == models.Table.Status.CLOSED and t.retired_at is None,
        dangerous=True,
        help="The table leaves the floor for good and never opens again; its history stays.",
        references=_table_refs,
    ),
    ObjectAction(
        name="dealer_break",
        label="Dealer on break",
        perform=_dealer_break,
        permissions=(OPERATE,),
        available=lambda t: t.dealer_id is not None,
        help="The dealer of record leaves for a break; the floor shows the table as dealer "
        "away while it is open, until they are back or relieved.",
        references=_table_refs,
    ),
    ObjectAction(
        name="dealer_back",
        label="Dealer back",
        perform=_dealer_back,
        permissions=(OPERATE,),
        available=lambda t: t.dealer_id is not None,
        one_click=True,
        references=_table_refs,
    ),
    ObjectAction(
        name="dealer_release",
        label="Release dealer",
        perform=_dealer_release,
        permissions=(OPERATE,),
        available=lambda t: t.dealer_id is not None,
        help="The dealer leaves the table with no relief; the table has no dealer.",
        references=_table_refs,
    ),
    ObjectAction(
        name="rules",
        label="Change rules",
        perform=_rules,
        permissions=(OPERATE,),
        form=RulesForm,
        initial=lambda t: {"rule_set": t.rule_set_id, "payout_schedule": t.payout_schedule_id},
        preview=_rules_preview,
        preview_button="Show theoretical RTP",
        dangerous=True,
        help="Check the pair's theoretical RTP, then activate it: it applies from the next round.",
        references=_table_refs,
    ),
    ObjectAction(
        name="shoe",
        label="New shoe",
        perform=_shoe,
        permissions=(OPERATE, DEAL),
        form=ShoeForm,
        available=lambda t: (
            t.card_source == models.Table.CardSource.CARD_READER
            and t.status != models.Table.Status.CLOSED
        ),
        help="Load a new shoe into the card reader with its shuffle record; the current shoe "
        "is retired (a live round continues from the new shoe).",
        references=_table_refs,
    ),
    ObjectAction(
        name="server_shoe",
        label="New shoe",
        perform=_server_shoe,
        permissions=(OPERATE,),
        available=lambda t: (
            t.card_source == models.Table.CardSource.SERVER_SHOE
            and t.status != models.Table.Status.CLOSED
        ),
        dangerous=True,
        help="Retire the current shoe (its order is revealed and checked against the "
        "commitment) and shuffle a new one for the next round.",
        references=_table_refs,
    ),
)


# --- round actions -------------------------------------------------------------------------


def _close_betting(*, request, obj, actor, data):
    services.round_close_betting(actor=actor, round_id=obj.pk)
    return f"Betting closed on round {obj}."


def _void_request(*, request, obj, actor, data):
    services.void_request(actor=actor, user=request.user, round_id=obj.pk, reason=data["reason"])
    return f"Void of round {obj} requested: the round is on hold until a floor supervisor decides."


def _void_approve(*, request, obj, actor, data):
    services.void_approve(actor=actor, user=request.user, round_id=obj.pk)
    return f"Round {obj} voided: undecided stakes are returned."


def _void_reject(*, request, obj, actor, data):
    services.void_reject(actor=actor, user=request.user, round_id=obj.pk, reason=data["reason"])
    return f"Void of round {obj} rejected: the round carries on."


def _void_cancel(*, request, obj, actor, data):
    services.void_cancel(actor=actor, user=request.user, round_id=obj.pk, reason=data["reason"])
    return f"Void request of round {obj} cancelled: the round carries on."


def _resume(*, request, obj, actor, data):
    services.round_resume(actor=actor, round_id=obj.pk, note=data["reason"])
    return f"Round {obj} resumed."


def _live(rnd) -> bool:
    return rnd.phase in models.Round.LIVE


def _voidable(rnd) -> bool:
    return rnd.phase in models.Round.UNFINISHED


def _open_void(rnd) -> models.VoidRequest | None:
    return (
        rnd.void_requests.filter(status=models.VoidRequest.Status.REQUESTED)
        .select_related("requested_by")
        .first()
    )


def _void_waiting(rnd) -> bool:
    return _voidable(rnd) and _open_void(rnd) is not None


def _void_request_rows(rnd) -> dict[str, str]:
    """The open request as the deciding staff member must see it."""
    request = _open_void(rnd)
    if request is None:
        return {"Void request": "none open (decided or expired meanwhile)"}
    now = timezone.now()
    expiry = f"{request.expires_at:%H:%M:%S} UTC"
    expiry += f" (in {timesince(now, request.expires_at)})" if request.expires_at > now else ""
    return {
        "Reason": request.reason,
        "Requested by": str(request.requested_by),
        "Requested": f"{timesince(request.requested_at, now)} ago, "
        f"at {request.requested_at:%H:%M:%S} UTC",
        "Expires": expiry,
        "Round": f"{rnd} ({rnd.phase}; on hold since the request)",
    }


def _void_approve_preview(*, obj, data):
    """The request, then every stake the void returns and every decided outcome that stands,
    from the engine (``selectors.void_preview``), money by the currency's exponent."""
    rows = _void_request_rows(obj)
    preview = selectors.void_preview(obj)
    if preview is None:
        return rows
    currency = preview["currency"]

    def money(amount: int) -> str:
        return money_text(amount, currency)

    for line in preview["returned"]:
        label = f"Returned: box {line['box']}, player {line['player_id']} ({line['bet_id']})"
        rows[label] = money(line["paid"])
    for line in preview["standing"]:
        label = (
            f"Stands: box {line['box']}, player {line['player_id']} ({line['bet_id']}): "
            f"{line['result'].replace('_', ' ')}"
        )
        rows[label] = f"stake {money(line['stake'])}, pays {money(line['paid'])}"
    if not preview["returned"] and not preview["standing"]:
        rows["Bets"] = "none: nothing to return or pay"
    rows["Total returned"] = money(preview["total_returned"])
    rows["Total paid (returned + standing outcomes)"] = money(preview["total_paid"])
    return rows


def _void_decision_preview(*, obj, data):
    return _void_request_rows(obj)


def _round_refs(obj) -> dict:
    return {"round_id": obj.pk, "table_id": obj.table_id}


ROUND_ACTIONS = (
    ObjectAction(
        name="close-betting",
        label="Close betting",
        perform=_close_betting,
        permissions=(DEAL, OPERATE),
        available=lambda r: r.phase == models.Round.Phase.OPEN and r.held_since is None,
        one_click=True,
        references=_round_refs,
    ),
    ObjectAction(
        name="resume",
        label="Resume round",
        perform=_resume,
        permissions=(OPERATE,),
        available=lambda r: bool(r.suspended_reason) and _live(r),
        dangerous=True,
        help="Resume after the correct card has been placed next in the reader.",
        references=_round_refs,
    ),
    ObjectAction(
        name="void-request",
        label="Request void",
        perform=_void_request,
        permissions=("tables.request_void",),
        available=lambda r: _voidable(r) and _open_void(r) is None,
        dangerous=True,
        help="The round is held (no card, decision or settlement) until a different floor "
        "supervisor approves or rejects, you cancel, or the request expires. If approved, "
        "outcomes already decided stand and every undecided stake is returned.",
        references=_round_refs,
    ),
    ObjectAction(
        name="void-approve",
        label="Approve void",
        perform=_void_approve,
        permissions=("tables.approve_void",),
        available=_void_waiting,
        preview=_void_approve_preview,
        dangerous=True,
        help="Approve the void requested by another staff member (never your own request): "
        "the stakes and outcomes below are posted to the ledger.",
        references=_round_refs,
    ),
    ObjectAction(
        name="void-reject",
        label="Reject void",
        perform=_void_reject,
        permissions=("tables.reject_void",),
        available=_void_waiting,
        preview=_void_decision_preview,
        dangerous=True,
        help="Reject the void requested by another staff member: the hold ends and the round "
        "carries on where it stopped.",
        references=_round_refs,
    ),
    ObjectAction(
        name="void-cancel",
        label="Cancel void request",
        perform=_void_cancel,
        permissions=("tables.request_void", "tables.cancel_void"),
        available=_void_waiting,
        preview=_void_decision_preview,
        dangerous=True,
        help="Withdraw your own void request (a pit boss may cancel anyone's): the hold ends "
        "and the round carries on where it stopped.",
        references=_round_refs,
    ),
)


# --- admins --------------------------------------------------------------------------------


@admin.register(models.Casino, models.Pit)
class SiteAdmin(ConsoleModelAdmin):
    list_display = ("code", "name")


# --- shifts and roster (configuration, edited here and audited as admin changes) ------------


class ShiftDefinitionInline(admin.TabularInline):
    model = models.ShiftDefinition
    extra = 3


@admin.register(models.ShiftPlan)
class ShiftPlanAdmin(ConsoleModelAdmin):
    list_display = ("casino", "effective_from", "gaming_day_starts", "shift_names")
    list_filter = ("casino",)
    inlines = [ShiftDefinitionInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("casino").prefetch_related("shifts")

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
        return super().get_queryset(request).select_related("casino", "pit", "user")


class TableChangeInline(ReadOnlyInline):
    model = models.TableChange
    fields = ("changed_at", "kind", "before", "after", "changed_by")
    ordering = ("-changed_at", "-id")
    verbose_name_plural = "Changes (limits, rules, dealer, status)"


@admin.register(models.Table)
class TableAdmin(ObjectActionsMixin, ReadOnlyConsoleModelAdmin):
    list_display = (
        "code",
        "name",
        "status_badge",
        "dealer",
        "current_round",
        "limits",
        "rule_set",
        "payout_schedule",
        "card_source",
    )
    list_display_links = ("code", "name")
    list_filter = ("status", "card_source", "casino")
    search_fields = ("code", "name")
    list_select_related = ("dealer", "rule_set", "payout_schedule")
    fieldsets = (
        (None, {"fields": ("code", "name", "casino", "pit", "status", "dealer", "card_source")}),
        ("Rules", {"fields": ("rule_set", "payout_schedule", "currency")}),
        (
            "Limits and timers",
            {
                "fields": (
                    "min_bet",
                    "max_bet",
                    "box_max",
                    "min_unit",
                    "decision_seconds",
                    "betting_seconds",
                )
            },
        ),
        ("Counters", {"fields": ("rounds_played",)}),
    )
    inlines = [TableChangeInline]
    object_actions = TABLE_ACTIONS
    actions = ["pause_selected", "close_selected"]

    def has_operate_permission(self, request) -> bool:
        return request.user.has_perm(OPERATE)

    def _bulk(self, request, queryset, name: str, title: str):
        action = next(a for a in TABLE_ACTIONS if a.name == name)

        def perform(*, obj, actor, reason):
            action.perform(request=request, obj=obj, actor=actor, data={"reason": reason})
            self.record_action(request, obj, action, reason)

        return confirmed_action(
            modeladmin=self,
            request=request,
            queryset=queryset,
            title=title,
            action_name=f"{name}_selected",
            perform=perform,
        )

    @admin.action(description="Pause the selected tables", permissions=["operate"])
    def pause_selected(self, request, queryset):
        return self._bulk(request, queryset, "pause", "Pause tables")

    @admin.action(description="Close the selected tables", permissions=["operate"])
    def close_selected(self, request, queryset):
        return self._bulk(request, queryset, "close", "Close tables")

    console_panel_template = "console/table_panel.html"

    @admin.display(description="status", ordering="status")
    def status_badge(self, obj):
        return _badge(obj.status)

    @admin.display(description="limits")
    def limits(self, obj):
        return f"{money_text(obj.min_bet, obj.currency)} - {money_text(obj.max_bet, obj.currency)}"

    def get_queryset(self, request):
        # The list's round column from one subquery, not a query per row.
        latest = models.Round.objects.filter(table=OuterRef("pk")).order_by("-number")
        return (
            super()
            .get_queryset(request)
            .annotate(
                latest_round_id=Subquery(latest.values("pk")[:1]),
                latest_round_number=Subquery(latest.values("number")[:1]),
                latest_round_phase=Subquery(latest.values("phase")[:1]),
            )
        )

    @admin.display(description="round")
    def current_round(self, obj):
        if obj.latest_round_id is None:
            return "—"
        url = reverse("admin:tables_round_change", args=[obj.latest_round_id])
        return format_html(
            '<a href="{}">#{}</a> {}', url, obj.latest_round_number, _badge(obj.latest_round_phase)
        )

    def console_panel_context(self, request, obj):
        rnd = selectors.round_current(table=obj)
        return {
            "current_round": rnd,
            "shoe": models.Shoe.objects.filter(table=obj, retired_at__isnull=True)
            .defer("order", "seen")
            .first(),
            "assignments": obj.dealer_assignments.select_related("dealer")[:5],
            "limits": self.limits(obj),
            "floor_url": reverse("admin:tables_table_floor"),
            "links": audit_links(table=obj, user=request.user),
        }

    def get_urls(self):
        floor = [
            path("floor/", self.admin_site.admin_view(self.floor_view), name="tables_table_floor"),
            path(
                "floor/fragment/",
                self.admin_site.admin_view(self.floor_fragment_view),
                name="tables_table_floor_fragment",
            ),
            path(
                "floor.json",
                self.admin_site.admin_view(self.floor_json_view),
                name="tables_table_floor_json",
            ),
        ]
        return floor + super().get_urls()

    def _floor_check(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied

    def floor_view(self, request):
        self._floor_check(request)
        context = {
            **self.admin_site.each_context(request),
            "title": "Floor",
            "opts": self.model._meta,
            "floor": console_selectors.floor_overview(),
            "links": audit_links(user=request.user),
        }
        return TemplateResponse(request, "console/floor_page.html", context)

    def floor_fragment_view(self, request):
        self._floor_check(request)
        context = {"floor": console_selectors.floor_overview(), "request": request}
        return TemplateResponse(request, "console/floor.html", context)

    def floor_json_view(self, request):
        self._floor_check(request)
        return JsonResponse(console_selectors.floor_overview().as_json())


@admin.register(models.Round)
class RoundAdmin(ObjectActionsMixin, ReadOnlyConsoleModelAdmin):
    list_display = (
        "__str__",
        "table",
        "number",
        "phase_badge",
        "suspended_reason",
        "dealer",
        "opened_at",
        "finished_at",
    )
    list_filter = ("phase", "table")
    list_select_related = ("table", "dealer")
    search_fields = ("table__code", "=number", "=id")
    date_hierarchy = "opened_at"
    show_full_result_count = False
    exclude = ("state", "settlement")
    readonly_fields = ("settlement_pretty",)
    object_actions = ROUND_ACTIONS
    console_panel_template = "console/round_panel_live.html"

    @admin.display(description="phase", ordering="phase")
    def phase_badge(self, obj):
        return _badge(obj.phase)

    @admin.display(description="settlement")
    def settlement_pretty(self, obj):
        return json_block(obj.settlement or None)

    def get_urls(self):
        panel = path(
            "<path:object_id>/panel/",
            self.admin_site.admin_view(self.panel_view),
            name="tables_round_panel",
        )
        return [panel, *super().get_urls()]

    def round_panel_context(self, rnd, user=None) -> dict:
        try:
            state = selectors.round_public_state(rnd)
        except Exception as exc:  # a broken round must still show its page
            state = {"error": str(exc)}
        bets = list(rnd.bets.select_related("player"))
        outcomes = selectors.bet_outcomes(rnd)
        for bet in bets:
            bet.paid, bet.result = outcomes.get(bet.ref, (None, ""))
        return {
            "round": rnd,
            "state": state,
            "bets": bets,
            "decisions": list(rnd.decisions.order_by("-seq")[:30]),
            "events": list(rnd.events.order_by("-id")[:30]),
            "void": selectors.void_request_latest(rnd),
            "links": audit_links(round=rnd, user=user),
        }

    def console_panel_context(self, request, obj):
        return {
            **self.round_panel_context(obj, request.user),
            "panel_url": reverse("admin:tables_round_panel", args=[obj.pk]),
            "live": obj.phase in models.Round.UNFINISHED,
        }

    def panel_view(self, request, object_id):
        rnd = self.get_object(request, object_id)
        if rnd is None or not self.has_view_permission(request, rnd):
            raise PermissionDenied
        context = {"request": request, **self.round_panel_context(rnd, request.user)}
        return TemplateResponse(request, "console/round_panel.html", context)


# --- rule versions -------------------------------------------------------------------------


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
            self.engine_class.from_json(document).validate()
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
        return (
            models.Round.objects.filter(**{self.used_by_field: obj}).exists()
            or models.Table.objects.filter(**{self.used_by_field: obj}).exists()
        )

    @admin.display(description="theoretical RTP")
    def rtp_figures(self, obj):
        figures = models.RtpFigure.objects.filter(**{self.used_by_field: obj}).select_related(
            "rule_set", "payout_schedule"
        )
        rows = [
            format_html(
                "<li>{} / {}: <strong>{}</strong></li>",
                f.rule_set,
                f.payout_schedule,
                _rtp_text(f),
            )
            for f in figures
        ]
        if not rows:
            return "none computed yet (choose a pair under a table's “Change rules”)"
        return format_html("<ul class='console-rtp'>{}</ul>", format_html("".join(rows)))


@admin.register(models.RuleSetVersion)
class RuleSetVersionAdmin(_VersionAdmin):
    used_by_field = "rule_set"
    object_actions = (
        ObjectAction(
            name="new-version",
            label="New version from this",
            perform=_version_create(services.rule_set_version_create, "rulesetversion"),
            permissions=("tables.add_rulesetversion",),
            form=RuleSetForm,
            initial=lambda v: {"name": v.name, "document": _pretty(v.document)},
            help="Edit the rules; the engine validates them. The new version is activated on a "
            "table with “Change rules”, which shows its theoretical RTP first.",
        ),
    )


@admin.register(models.PayoutScheduleVersion)
class PayoutScheduleVersionAdmin(_VersionAdmin):
    used_by_field = "payout_schedule"
    object_actions = (
        ObjectAction(
            name="new-version",
            label="New version from this",
            perform=_version_create(
                services.payout_schedule_version_create, "payoutscheduleversion"
            ),
            permissions=("tables.add_payoutscheduleversion",),
            form=PayoutScheduleForm,
            initial=lambda v: {"name": v.name, "document": _pretty(v.document)},
            help="Edit the payouts; the engine validates them. Activate the new version on a "
            "table with “Change rules”, which shows its theoretical RTP first.",
        ),
    )


@admin.register(models.RtpFigure)
class RtpFigureAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("rule_set", "payout_schedule", "rtp", "method", "computed_at")


@admin.register(models.VoidRequest)
class VoidRequestAdmin(ReadOnlyConsoleModelAdmin):
    list_display = (
        "round",
        "status",
        "reason",
        "requested_by",
        "requested_at",
        "expires_at",
        "decided_by",
    )
    list_filter = ("status",)


@admin.register(models.TableChange)
class TableChangeAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("table", "kind", "changed_by", "changed_at")
    list_filter = ("kind", "table")


@admin.register(models.DealerAssignment)
class DealerAssignmentAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("table", "dealer", "started_at", "ended_at", "assigned_by")
    list_filter = ("table",)


@admin.register(models.DealerBreak)
class DealerBreakAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("dealer", "table", "started_at", "ended_at", "started_by")
    list_select_related = ("dealer", "table")


@admin.register(models.Shoe)
class ShoeAdmin(ReadOnlyConsoleModelAdmin):
    list_display = (
        "__str__",
        "table",
        "source",
        "cards_dealt",
        "created_at",
        "retired_at",
        "commitments",
        "proof_status",
    )
    list_filter = ("source", "table", "verified")
    exclude = ("order", "seen")
    readonly_fields = ("proof",)

    @admin.display(description="Commitments (sha256)")
    def commitments(self, obj):
        return format_html_join(
            mark_safe("<br>"),
            "<code>{}</code>",
            ((s.commitment or "(none sent)",) for s in obj.shuffles.order_by("number")),
        )

    @admin.display(description="Reveal")
    def proof_status(self, obj):
        if obj.source != models.Shoe.Source.SERVER:
            return "reader-fed (composition checked)"
        if obj.retired_at is None:
            return "in use (revealed at retirement)"
        return "verified" if obj.verified else "MISMATCH"

    @admin.display(description="Proof: commitments, reveal and verification")
    def proof(self, obj):
        return render_to_string("audit/shoe_proof.html", {"proof": selectors.shoe_proof(obj)})


@admin.register(models.Shuffle)
class ShuffleAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("__str__", "method", "commitment", "cards", "created_at", "revealed_at")
    exclude = ("salt", "sealed_order")  # secret until the shoe retires; the audit log reveals


@admin.register(
    models.Seat,
    models.RoundEvent,
    models.Bet,
    models.Hand,
    models.Decision,
)
class TablesRecordAdmin(ReadOnlyConsoleModelAdmin):
    pass
