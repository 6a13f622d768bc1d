"""Rounds: the live round page (felt, bets, decisions, event lines) and its buttons, the
void's request, approval with its preview, rejection and cancellation among them."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.timesince import timesince

from casino.console.admin import (
    ObjectAction,
    ObjectActionsMixin,
    ReadOnlyConsoleModelAdmin,
    json_block,
)
from casino.console.links import audit_links
from casino.money import money_text
from tables import console_selectors, models, selectors, services
from tables.admin.common import DEAL, OPERATE, badge, dealing_check
from tables.admin.table_actions import limits_text

Round = models.Round


def _close_betting(*, request, obj, actor, data):
    dealing_check(request, obj.table)
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


def _voidable(rnd) -> bool:
    return rnd.phase in Round.UNFINISHED


def _void_waiting(rnd) -> bool:
    return _voidable(rnd) and console_selectors.void_request_open(rnd) is not None


def _void_request_rows(rnd) -> dict[str, str]:
    """The open request as the deciding staff member must see it."""
    request = console_selectors.void_request_open(rnd)
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


def _refs(obj) -> dict:
    return {"round_id": obj.pk, "table_id": obj.table_id}


def _action(name: str, label: str, perform, **options) -> ObjectAction:
    return ObjectAction(name=name, label=label, perform=perform, references=_refs, **options)


ROUND_ACTIONS = (
    _action(
        "close-betting",
        "Close betting",
        _close_betting,
        permissions=(DEAL, OPERATE),
        available=lambda r: r.phase == Round.Phase.OPEN and r.held_since is None,
        one_click=True,
    ),
    _action(
        "resume",
        "Resume round",
        _resume,
        permissions=(OPERATE,),
        available=lambda r: bool(r.suspended_reason) and r.phase in Round.LIVE,
        dangerous=True,
        help="Resume after the correct card has been placed next in the reader.",
    ),
    _action(
        "void-request",
        "Request void",
        _void_request,
        permissions=("tables.request_void",),
        available=lambda r: _voidable(r) and console_selectors.void_request_open(r) is None,
        dangerous=True,
        help="The round is held (no card, decision or settlement) until a different floor "
        "supervisor approves or rejects, you cancel, or the request expires. If approved, "
        "outcomes already decided stand and every undecided stake is returned.",
    ),
    _action(
        "void-approve",
        "Approve void",
        _void_approve,
        permissions=("tables.approve_void",),
        available=_void_waiting,
        preview=_void_approve_preview,
        dangerous=True,
        help="Approve the void requested by another staff member (never your own request): "
        "the stakes and outcomes below are posted to the ledger.",
    ),
    _action(
        "void-reject",
        "Reject void",
        _void_reject,
        permissions=("tables.reject_void",),
        available=_void_waiting,
        preview=_void_decision_preview,
        dangerous=True,
        help="Reject the void requested by another staff member: the hold ends and the round "
        "carries on where it stopped.",
    ),
    _action(
        "void-cancel",
        "Cancel void request",
        _void_cancel,
        permissions=("tables.request_void", "tables.cancel_void"),
        available=_void_waiting,
        preview=_void_decision_preview,
        dangerous=True,
        help="Withdraw your own void request (a pit boss may cancel anyone's): the hold ends "
        "and the round carries on where it stopped.",
    ),
)


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
    exclude = ("state", "settlement", "limits")
    readonly_fields = ("limits_shown", "settlement_pretty")
    object_actions = ROUND_ACTIONS
    console_panel_template = "console/round_panel_live.html"

    @admin.display(description="phase", ordering="phase")
    def phase_badge(self, obj):
        return badge(obj.phase)

    @admin.display(description="limits")
    def limits_shown(self, obj):
        limits = obj.limits or {}
        text = limits_text(limits, obj.currency) if limits.get("min_bet") else "—"
        unit = limits.get("min_unit")
        return text + (f", unit {money_text(unit, obj.currency)}" if unit else "")

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

    def _panel(self, request, rnd) -> dict:
        return {
            **console_selectors.round_panel(rnd),
            "links": audit_links(round=rnd, user=request.user),
            "finished": rnd.phase not in Round.UNFINISHED,
        }

    def console_panel_context(self, request, obj):
        return {
            **self._panel(request, obj),
            "panel_url": reverse("admin:tables_round_panel", args=[obj.pk]),
            "live": obj.phase in Round.UNFINISHED,
        }

    def panel_view(self, request, object_id):
        rnd = self.get_object(request, object_id)
        if rnd is None or not self.has_view_permission(request, rnd):
            raise PermissionDenied
        # The refreshed panel brings the buttons the round's state allows now: a round that
        # settled or was voided meanwhile loses its "Request void" without a reload.
        context = {
            "request": request,
            **self._panel(request, rnd),
            "panel_actions": self.visible_actions(request, rnd),
        }
        return TemplateResponse(request, "console/round_panel.html", context)
