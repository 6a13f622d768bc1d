"""The audit log in the admin: read-only for everyone, and every look at it is recorded."""

from django.contrib import admin
from django.db import transaction

from audit import events
from audit.models import AuditEvent
from casino.actors import Actor
from casino.console.admin import ReadOnlyConsoleModelAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyConsoleModelAdmin):
    list_display = [
        "id",
        "occurred_at",
        "name",
        "actor_kind",
        "actor_label",
        "table_id",
        "round_id",
    ]
    list_filter = ["actor_kind", "name"]
    search_fields = ["name", "actor_label", "request_id"]
    date_hierarchy = "occurred_at"
    show_full_result_count = False  # counting millions of rows on every page is slow

    def changelist_view(self, request, extra_context=None):
        response = super().changelist_view(request, extra_context)
        changelist = (getattr(response, "context_data", None) or {}).get("cl")
        ids = [event.pk for event in changelist.result_list] if changelist else []
        self._viewed(request, "admin.events", filters=dict(request.GET.items()), event_ids=ids)
        return response

    def change_view(self, request, object_id, form_url="", extra_context=None):
        response = super().change_view(request, object_id, form_url, extra_context)
        if response.status_code == 200:
            self._viewed(request, "admin.event", event_id=int(object_id))
        return response

    @staticmethod
    def _viewed(request, what: str, **detail) -> None:
        with transaction.atomic():
            events.viewed(actor=Actor.from_request(request), what=what, detail=detail)
