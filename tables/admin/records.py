"""Records only services write, shown read-only: shoes and their proofs, shuffles, void
requests, table change logs, dealer assignments and breaks, and the round's rows."""

from __future__ import annotations

from django.contrib import admin
from django.template.loader import render_to_string
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from casino.console.admin import ReadOnlyConsoleModelAdmin
from tables import console_selectors, models, selectors


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
    list_select_related = ("round", "requested_by", "decided_by")


@admin.register(models.TableChange)
class TableChangeAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("table", "kind", "changed_by", "changed_at")
    list_filter = ("kind", "table")
    list_select_related = ("table",)


@admin.register(models.DealerAssignment)
class DealerAssignmentAdmin(ReadOnlyConsoleModelAdmin):
    list_display = ("table", "dealer", "started_at", "ended_at", "assigned_by")
    list_filter = ("table",)
    list_select_related = ("table", "dealer")


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
            ((c or "(none sent)",) for c in console_selectors.shoe_commitments(obj)),
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
