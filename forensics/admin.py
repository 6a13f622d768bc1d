"""The audit log in the admin: read-only for everyone, and every look at it is recorded; dispute
cases, opened and worked through their services."""

from datetime import UTC

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from audit import events
from audit.models import AuditEvent, DisputeCase, DisputeNote
from casino import replica
from casino.actors import Actor
from casino.console.admin import ConsoleModelAdmin, ReadOnlyConsoleModelAdmin, confirmed_action
from forensics import disputes


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyConsoleModelAdmin):
    list_display = [
        "id",
        "when",
        "name",
        "who",
        "table_link",
        "round_link",
        "transaction_link",
    ]
    list_filter = ["actor_kind", "name"]
    search_fields = ["name", "actor_label", "request_id"]
    date_hierarchy = "occurred_at"
    ordering = ["-id"]  # newest first: an auditor looks at what just happened
    show_full_result_count = False  # counting millions of rows on every page is slow

    @admin.display(description="When (UTC)", ordering="id")
    def when(self, obj):
        return obj.occurred_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]

    @admin.display(description="Who (kind), for whom", ordering="actor_label")
    def who(self, obj):
        ref = (obj.payload.get("attribution") or {}).get("on_behalf_of")
        if ref is None:
            return f"{obj.actor_label} ({obj.actor_kind})"
        return f"{obj.actor_label} ({obj.actor_kind}) for {ref['kind']} {ref['label']}"

    @admin.display(description="Table", ordering="table_id")
    def table_link(self, obj):
        return _linked("admin:tables_table_change", obj.table_id)

    @admin.display(description="Round", ordering="round_id")
    def round_link(self, obj):
        if obj.round_id is None:
            return ""
        url = reverse("audit-console-replay", kwargs={"round_id": obj.round_id})
        return format_html('<a href="{}" title="replay">{}</a>', url, obj.round_id)

    @admin.display(description="Txn")
    def transaction_link(self, obj):
        payload = obj.payload
        txn = payload.get("ledger_transaction_id") or payload.get("transaction_id")
        return _linked("admin:ledger_transaction_change", txn if isinstance(txn, int) else None)

    def get_queryset(self, request):
        # The read-only browser may lag the primary by the replica's bound (casino/replica.py).
        return super().get_queryset(request).using(replica.read_db())

    def changelist_view(self, request, extra_context=None):
        response = super().changelist_view(request, extra_context)
        changelist = (getattr(response, "context_data", None) or {}).get("cl")
        ids = [event.pk for event in changelist.result_list] if changelist else []
        events.viewed_by(request, "admin.events", filters=dict(request.GET.items()), event_ids=ids)
        return response

    def change_view(self, request, object_id, form_url="", extra_context=None):
        response = super().change_view(request, object_id, form_url, extra_context)
        if response.status_code == 200:
            events.viewed_by(request, "admin.event", event_id=int(object_id))
        return response


def _linked(name: str, pk: int | None):
    if pk is None:
        return ""
    return format_html('<a href="{}">{}</a>', reverse(name, args=[pk]), pk)


class DisputeNoteInline(admin.TabularInline):
    model = DisputeNote
    extra = 0
    can_delete = False
    fields = ["created_at", "kind", "text", "evidence_ref", "author"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class DisputeOpenForm(forms.ModelForm):
    bet_ref = forms.CharField(max_length=40, required=False, help_text="leave empty: whole round")

    class Meta:
        model = DisputeCase
        fields = ["round", "claim", "claimant"]


@admin.register(DisputeCase)
class DisputeCaseAdmin(ConsoleModelAdmin):
    """Cases are opened here (through ``dispute_open``) and worked with the actions below,
    which call the same services as the API; nothing is edited in place."""

    list_display = ["id", "round", "bet", "status", "opened_by", "opened_at", "correction"]
    list_filter = ["status"]
    raw_id_fields = ["round"]
    inlines = [DisputeNoteInline]
    actions = ["investigate", "add_note", "add_evidence", "reject", "uphold", "approve_correction"]
    readonly_fields = [
        "round",
        "bet",
        "claim",
        "claimant",
        "status",
        "opened_by",
        "opened_at",
        "replay_link",
        "replay_status",
        "resolution",
        "resolved_by",
        "resolved_at",
        "correction",
    ]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = DisputeOpenForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["round", "bet_ref", "claim", "claimant"]
        return self.readonly_fields

    def has_change_permission(self, request, obj=None):
        # The change page is read-only; the actions check their own permissions.
        return obj is None and request.user.has_perm("audit.view_disputecase")

    def has_delete_permission(self, request, obj=None):
        return False

    def has_work_permission(self, request):
        return request.user.has_perm("audit.work_dispute")

    def has_resolve_permission(self, request):
        return request.user.has_perm("audit.resolve_dispute")

    def save_model(self, request, obj, form, change):
        case = disputes.dispute_open(
            actor=Actor.from_request(request),
            user=request.user,
            round_id=form.cleaned_data["round"].pk,
            bet_ref=form.cleaned_data.get("bet_ref", ""),
            claim=form.cleaned_data["claim"],
            claimant=form.cleaned_data.get("claimant", ""),
        )
        obj.pk = case.pk
        obj._state.adding = False

    @admin.display(description="Replay")
    def replay_link(self, obj):
        url = reverse("audit-console-replay", kwargs={"round_id": obj.round_id})
        return format_html('<a href="{}">open the replay of round {}</a>', url, obj.round_id)

    @admin.display(description="Replay attached")
    def replay_status(self, obj):
        replay = obj.replay or {}
        return f"{replay.get('status', '-')} ({len(replay.get('differences', []))} differences)"

    def _act(self, request, queryset, *, title, name, perform, perm: str | None = None):
        """``permissions=[...]`` on each action already hides it from roles without them;
        ``perm`` is a further permission an action needs (another app's)."""
        if perm is not None and not request.user.has_perm(perm):
            self.message_user(request, "Your role does not allow this.", messages.ERROR)
            return None
        return confirmed_action(
            modeladmin=self,
            request=request,
            queryset=queryset,
            title=title,
            action_name=name,
            perform=perform,
        )

    @admin.action(description="Start the investigation", permissions=["work"])
    def investigate(self, request, queryset):
        def perform(*, obj, actor, reason):
            disputes.dispute_investigate(
                actor=actor, user=request.user, case_id=obj.pk, note=reason
            )

        return self._act(
            request,
            queryset,
            title="Investigate",
            name="investigate",
            perform=perform,
        )

    @admin.action(description="Add a staff note", permissions=["work"])
    def add_note(self, request, queryset):
        def perform(*, obj, actor, reason):
            disputes.dispute_note_add(actor=actor, user=request.user, case_id=obj.pk, text=reason)

        return self._act(
            request,
            queryset,
            title="Add note",
            name="add_note",
            perform=perform,
        )

    @admin.action(
        description="Add an evidence reference (e.g. video timecode)", permissions=["work"]
    )
    def add_evidence(self, request, queryset):
        def perform(*, obj, actor, reason):
            disputes.dispute_note_add(
                actor=actor,
                user=request.user,
                case_id=obj.pk,
                kind="evidence",
                text="evidence",
                evidence_ref=reason,
            )

        return self._act(
            request,
            queryset,
            title="Add evidence",
            name="add_evidence",
            perform=perform,
        )

    @admin.action(description="Resolve: reject the claim", permissions=["resolve"])
    def reject(self, request, queryset):
        def perform(*, obj, actor, reason):
            disputes.dispute_reject(
                actor=actor, user=request.user, case_id=obj.pk, resolution=reason
            )

        return self._act(
            request,
            queryset,
            title="Reject",
            name="reject",
            perform=perform,
        )

    @admin.action(
        description="Resolve: uphold the claim (correction to the replay's payouts)",
        permissions=["resolve"],
    )
    def uphold(self, request, queryset):
        def perform(*, obj, actor, reason):
            disputes.dispute_uphold(
                actor=actor, user=request.user, case_id=obj.pk, resolution=reason
            )

        return self._act(
            request,
            queryset,
            title="Uphold",
            name="uphold",
            perform=perform,
        )

    @admin.action(
        description="Approve the upheld case's correction (another staff member)",
        permissions=["resolve"],
    )
    def approve_correction(self, request, queryset):
        def perform(*, obj, actor, reason):
            disputes.dispute_correction_approve(
                actor=actor, user=request.user, case_id=obj.pk, note=reason
            )

        return self._act(
            request,
            queryset,
            perm="ledger.approve_correction",
            title="Approve correction",
            name="approve_correction",
            perform=perform,
        )
