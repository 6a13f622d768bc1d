"""The base every ModelAdmin of the pit console uses (enforced by tests/console).

- Every change made through the admin writes an audit event in the same transaction as the
  change (Django's admin wraps add, change and delete views in a transaction).
- Dangerous actions go through ``confirmed_action``: a page that names the objects, asks for a
  reason and a confirmation, then calls the same service the API calls, once per object.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.template.response import TemplateResponse

from casino.actors import Actor
from casino.console import events
from casino.errors import DomainError


class ConsoleModelAdmin(admin.ModelAdmin):
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
