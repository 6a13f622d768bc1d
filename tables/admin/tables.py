"""Sites, tables and the floor: the table list and page, the "Add table" page and the floor
dashboard (full page, refreshing fragment and JSON)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from casino.actors import Actor
from casino.console import selectors as floor_selectors
from casino.console.admin import (
    ConsoleModelAdmin,
    ObjectAction,
    ObjectActionsMixin,
    ReadOnlyConsoleModelAdmin,
    ReadOnlyInline,
    confirmed_action,
)
from casino.console.links import audit_links
from casino.errors import DomainError
from tables import console_selectors, models
from tables.admin.common import OPERATE, badge
from tables.admin.table_actions import (
    CREATE_HELP,
    TABLE_ACTIONS,
    TableCreateForm,
    create_preview,
    limits_text,
    table_create,
)


@admin.register(models.Casino, models.Pit)
class SiteAdmin(ConsoleModelAdmin):
    list_display = ("code", "name")


class TableChangeInline(ReadOnlyInline):
    model = models.TableChange
    fields = ("changed_at", "kind", "before", "after", "changed_by")
    ordering = ("-changed_at", "-id")
    verbose_name_plural = "Changes (setup, limits, rules, dealer, status)"


CREATE = ObjectAction(
    name="create",
    label="Create table",
    perform=lambda **kwargs: None,  # the page calls ``table_create`` itself (no object yet)
    permissions=(OPERATE,),
    form=TableCreateForm,
    preview_button="Show theoretical RTP",
    help=CREATE_HELP,
    references=lambda t: {"table_id": t.pk, "casino_id": t.casino_id},
)


@admin.register(models.Table)
class TableAdmin(ObjectActionsMixin, ReadOnlyConsoleModelAdmin):
    list_display = (
        "code",
        "name",
        "pit",
        "status_badge",
        "dealer",
        "current_round",
        "limits",
        "rule_set",
        "payout_schedule",
        "card_source",
    )
    list_display_links = ("code", "name")
    list_filter = ("status", "card_source", "casino", "pit")
    search_fields = ("code", "name")
    list_select_related = ("dealer", "rule_set", "payout_schedule", "pit")
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
        ("Counters", {"fields": ("rounds_played", "retired_at")}),
    )
    inlines = [TableChangeInline]
    object_actions = TABLE_ACTIONS
    actions = ["pause_selected", "close_selected"]
    console_panel_template = "console/table_panel.html"

    def has_operate_permission(self, request) -> bool:
        return request.user.has_perm(OPERATE)

    def has_add_permission(self, request) -> bool:
        # "Add table" is the creation page below (``table_create``), not a model form.
        return self.has_operate_permission(request)

    # --- bulk actions ---

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

    # --- the list and the page ---

    @admin.display(description="status", ordering="status")
    def status_badge(self, obj):
        return badge(obj.status)

    @admin.display(description="limits")
    def limits(self, obj):
        return limits_text({"min_bet": obj.min_bet, "max_bet": obj.max_bet}, obj.currency)

    def get_queryset(self, request):
        return console_selectors.table_list_with_latest_round(super().get_queryset(request))

    @admin.display(description="round")
    def current_round(self, obj):
        if obj.latest_round_id is None:
            return "—"
        url = reverse("admin:tables_round_change", args=[obj.latest_round_id])
        return format_html(
            '<a href="{}">#{}</a> {}', url, obj.latest_round_number, badge(obj.latest_round_phase)
        )

    def console_panel_context(self, request, obj):
        return {
            **console_selectors.table_panel(obj),
            "limits": self.limits(obj),
            "floor_url": reverse("admin:tables_table_floor"),
            "links": audit_links(table=obj, user=request.user),
        }

    # --- creating a table ---

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = TableCreateForm(request.POST or None)
        preview = None
        if request.method == "POST" and form.is_valid():
            if "_preview" in request.POST:
                preview = create_preview(data=form.cleaned_data)
            else:
                table = self._create(request, form.cleaned_data)
                if table is not None:
                    url = reverse("admin:tables_table_change", args=[table.pk])
                    return HttpResponseRedirect(url)
        changelist = reverse("admin:tables_table_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Add table",
            "action": CREATE,
            "object": "New table",
            "form": form,
            "preview": preview,
            "has_preview": True,
            "opts": self.model._meta,
            "change_url": changelist,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "console/object_action.html", context)

    def _create(self, request, data) -> models.Table | None:
        actor = Actor.from_request(request)
        try:
            with transaction.atomic():
                table = table_create(actor=actor, data=data)
                self.record_action(request, table, CREATE, data.get("reason", ""))
        except DomainError as exc:
            self.message_user(request, f"Refused: {exc.detail}", messages.ERROR)
            return None
        self.message_user(
            request,
            f"Table {table.code} created (closed): check it, then open it.",
            messages.SUCCESS,
        )
        return table

    # --- the floor ---

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

    def _floor(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        return floor_selectors.floor_overview()

    def floor_view(self, request):
        context = {
            **self.admin_site.each_context(request),
            "title": "Floor",
            "opts": self.model._meta,
            # Computed once: the page's dashboard tag renders this floor.
            "floor": self._floor(request),
        }
        return TemplateResponse(request, "console/floor_page.html", context)

    def floor_fragment_view(self, request):
        context = {"floor": self._floor(request), "request": request}
        return TemplateResponse(request, "console/floor.html", context)

    def floor_json_view(self, request):
        return JsonResponse(self._floor(request).as_json())
