"""The base every ModelAdmin of the pit console uses (enforced by tests/console).

- Every change made through the admin writes an audit event in the same transaction as the
  change (Django's admin wraps add, change and delete views in a transaction).
- Dangerous actions go through ``confirmed_action``: a page that names the objects, asks for a
  reason and a confirmation, then calls the same service the API calls, once per object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django_fsm import TransitionNotAllowed

from casino.actors import Actor
from casino.console import events
from casino.errors import DomainError


class ConsoleModelAdmin(admin.ModelAdmin):
    def get_changelist_instance(self, request):
        """A date the list cannot filter by is the admin's "incorrect lookup" page, not a 500:
        Django checks a date hierarchy's start (``?opened_at__year=10000``) but builds its end
        (the next year, month or day) outside that check, so ``__year=9999`` raised."""
        try:
            return super().get_changelist_instance(request)
        except (ValueError, OverflowError) as exc:
            raise IncorrectLookupParameters(exc) from None

    def log_addition(self, request, obj, message):
        events.admin_change_recorded(
            actor=Actor.from_request(request),
            obj=obj,
            action_flag=admin.models.ADDITION,
            message=message,
        )
        return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        events.admin_change_recorded(
            actor=Actor.from_request(request),
            obj=obj,
            action_flag=admin.models.CHANGE,
            message=message,
        )
        return super().log_change(request, obj, message)

    def log_deletions(self, request, queryset):
        actor = Actor.from_request(request)
        for obj in queryset:
            events.admin_change_recorded(
                actor=actor, obj=obj, action_flag=admin.models.DELETION, message="deleted"
            )
        return super().log_deletions(request, queryset)


class ReadOnlyConsoleModelAdmin(ConsoleModelAdmin):
    """Rows that only services may write: the console shows them and changes nothing."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """Rows shown under their parent that only services may write."""

    extra = 0

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def json_block(document, *, empty: str = "—", sort_keys: bool = False) -> str:
    """A JSON document shown whole in the console (settlement records, rule documents)."""
    if document is None:
        return empty
    return format_html(
        "<pre class='console-json'>{}</pre>", json.dumps(document, indent=2, sort_keys=sort_keys)
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=500)
    confirm = forms.BooleanField(label="I confirm this action")


def confirmed_action(
    *,
    modeladmin: admin.ModelAdmin,
    request,
    queryset,
    title: str,
    action_name: str,
    perform: Callable[..., object],
):
    """Ask for a reason and confirmation, then ``perform(obj=, actor=, reason=)`` per object.

    Each object is handled in its own transaction: a refusal (a DomainError from the service)
    is reported for that object and does not undo the others.
    """
    form = ReasonForm(request.POST if "_reason_page" in request.POST else None)
    if form.is_valid():
        actor = Actor.from_request(request)
        done = 0
        for obj in queryset:
            try:
                with transaction.atomic():
                    perform(obj=obj, actor=actor, reason=form.cleaned_data["reason"])
            except DomainError as exc:
                modeladmin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(request, f"{title}: {done} done.", messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "objects": list(queryset),
        "form": form,
        "action_name": action_name,
        "opts": modeladmin.model._meta,
        "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
    }
    return TemplateResponse(request, "console/confirm_action.html", context)


# --- buttons on an object's page -----------------------------------------------------------


class ConfirmForm(forms.Form):
    """A one-step action that needs no reason: just the button (kept for its CSRF check)."""


@dataclass(frozen=True)
class ObjectAction:
    """A button on an object's page that calls one service.

    ``perform(request=, obj=, actor=, data=)`` calls the service (the same one the API calls)
    and may return a message or a URL to go to (``str`` starting with ``/``). ``permissions``:
    the user needs any one of them (the button is hidden otherwise and the URL answers 403).
    ``available(obj)`` hides the button when the object's state does not allow it (the service
    still has the last word: a refusal is shown as an error message). ``form`` defaults to a
    reason-and-confirm form when ``dangerous`` and to a bare confirmation otherwise;
    ``one_click`` actions are posted straight from the button.
    """

    name: str
    label: str
    perform: Callable[..., object]
    permissions: tuple[str, ...]
    available: Callable[[object], bool] = lambda obj: True
    form: type[forms.Form] | None = None
    initial: Callable[[object], dict] | None = None
    dangerous: bool = False
    one_click: bool = False
    help: str = ""
    preview: Callable[..., dict] | None = None  # (obj=, data=) -> context shown above the form
    preview_button: str = ""  # a button recomputing the preview from the form's values
    references: Callable[[object], dict] | None = None  # audit references (table_id, ...)

    def form_class(self) -> type[forms.Form]:
        if self.form is not None:
            return self.form
        return ReasonForm if self.dangerous else ConfirmForm

    def allowed(self, user) -> bool:
        return any(user.has_perm(p) for p in self.permissions)


class ObjectActionsMixin:
    """Adds ``object_actions`` (``ObjectAction``) as buttons on the change/view page."""

    object_actions: tuple[ObjectAction, ...] = ()
    change_form_template = "console/change_form.html"
    console_panel_template: str | None = None

    def get_urls(self):
        opts = self.model._meta
        urls = [
            path(
                "<path:object_id>/do/<slug:action>/",
                self.admin_site.admin_view(self.object_action_view),
                name=f"{opts.app_label}_{opts.model_name}_action",
            )
        ]
        return urls + super().get_urls()

    def console_panel_context(self, request, obj) -> dict:
        return {}

    def visible_actions(self, request, obj) -> list[dict]:
        opts = self.model._meta
        out = []
        for action in self.object_actions:
            if not action.allowed(request.user) or not action.available(obj):
                continue
            out.append(
                {
                    "action": action,
                    "url": reverse(
                        f"admin:{opts.app_label}_{opts.model_name}_action",
                        args=[obj.pk, action.name],
                        current_app=self.admin_site.name,
                    ),
                }
            )
        return out

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["console_actions"] = self.visible_actions(request, obj)
            context["console_panel_template"] = self.console_panel_template
            context.update(self.console_panel_context(request, obj))
        return super().render_change_form(request, context, add, change, form_url, obj)

    def record_action(self, request, obj, action: ObjectAction, reason: str) -> None:
        """The console's own record of the button (the service audits the change itself)."""
        references = action.references(obj) if action.references else {}
        events.admin_action_performed(
            actor=Actor.from_request(request),
            action=action.name,
            obj=obj,
            reason=reason,
            **references,
        )
        # Django's history of the object (without a second audit event: see ConsoleModelAdmin).
        admin.ModelAdmin.log_change(
            self, request, obj, f"{action.label}" + (f": {reason}" if reason else "")
        )

    def object_action_view(self, request, object_id, action):
        chosen = next((a for a in self.object_actions if a.name == action), None)
        obj = self.get_object(request, unquote(object_id))
        if chosen is None or obj is None:
            raise Http404("No such object or action.")
        if not self.has_view_permission(request, obj) or not chosen.allowed(request.user):
            raise PermissionDenied
        change_url = reverse(
            f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change",
            args=[obj.pk],
            current_app=self.admin_site.name,
        )
        form_class = chosen.form_class()
        initial = chosen.initial(obj) if chosen.initial else {}
        initial.update({k: v for k, v in request.GET.items() if k in form_class.base_fields})
        preview = None
        if request.method == "POST" and "_preview" in request.POST and chosen.preview:
            form = form_class(request.POST)
            form.is_valid()
            preview = chosen.preview(obj=obj, data=form.cleaned_data)
            data = request.POST.copy()
            data.pop("confirm", None)
            form = form_class(initial={k: v for k, v in data.items()})
        elif request.method == "POST" and ("_action_page" in request.POST or chosen.one_click):
            form = form_class(request.POST)
            if form.is_valid():
                outcome = self._perform(request, obj, chosen, form.cleaned_data)
                if outcome is not _FAILED:
                    target = change_url
                    if isinstance(outcome, str) and outcome.startswith("/"):
                        target, outcome = outcome, None
                    self.message_user(
                        request, outcome or f"{chosen.label}: done.", messages.SUCCESS
                    )
                    return HttpResponseRedirect(target)
                if chosen.one_click:
                    return HttpResponseRedirect(change_url)
        else:
            form = form_class(initial=initial)
        if chosen.preview and preview is None:
            preview = chosen.preview(obj=obj, data=initial)
        context = {
            **self.admin_site.each_context(request),
            "title": f"{chosen.label}: {obj}",
            "action": chosen,
            "object": obj,
            "form": form,
            "preview": preview,
            "has_preview": chosen.preview is not None,
            "opts": self.model._meta,
            "change_url": change_url,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "console/object_action.html", context)

    def _perform(self, request, obj, action: ObjectAction, data: dict):
        actor = Actor.from_request(request)
        try:
            with transaction.atomic():
                outcome = action.perform(request=request, obj=obj, actor=actor, data=data)
                self.record_action(request, obj, action, data.get("reason", ""))
        except DomainError as exc:
            self.message_user(request, f"Refused: {exc.detail}", messages.ERROR)
            return _FAILED
        except TransitionNotAllowed as exc:
            self.message_user(request, f"Refused: {exc}", messages.ERROR)
            return _FAILED
        return outcome


_FAILED = object()


def _register_console_models() -> None:
    from casino.console.models import OperatorStaff

    @admin.register(OperatorStaff)
    class OperatorStaffAdmin(ConsoleModelAdmin):
        list_display = ("user", "operator")
        list_select_related = ("user", "operator")
        autocomplete_fields = ()


_register_console_models()
