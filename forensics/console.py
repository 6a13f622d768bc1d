"""Pit console pages of the audit app: the reports (HTML, CSV, PDF) and round replays.

Plain views inside the admin (``admin.site.admin_view``: staff login, the admin's look), mounted
at ``/admin/audit/reports/`` and ``/admin/audit/replay/`` (``forensics/console_urls.py``). They call
the same services as the API, and every read is recorded (``audit.viewed``).
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import mark_safe
from rest_framework.exceptions import ValidationError

from audit import events
from casino import replica
from casino.actors import Actor
from casino.errors import DomainError
from forensics.exports import flagged, report_csv, report_pdf, row_cells, rtp_chart_svg, total_cells
from forensics.replay import round_replay
from forensics.report_views import report_query
from forensics.reports import REPORTS, report_generate
from tables.models import Table

EXPORTS = {"csv": ("text/csv; charset=utf-8", report_csv), "pdf": ("application/pdf", report_pdf)}


def _require(request, perm: str) -> None:
    if not request.user.has_perm(perm):
        raise PermissionDenied


def _context(request, title: str, **extra):
    return {**admin.site.each_context(request), "title": title, **extra}


def reports_index(request):
    _require(request, "audit.view_report")
    tables = Table.objects.order_by("code").values_list("pk", "code")
    return TemplateResponse(
        request,
        "audit/reports_index.html",
        _context(request, "Reports", reports=REPORTS.items(), tables=tables),
    )


def report_page(request, kind: str):
    _require(request, "audit.view_report")
    if kind not in REPORTS:
        return redirect("audit-console-reports")
    export = request.GET.get("export", "")
    rendering = export if export in EXPORTS else "html"
    try:
        report = report_generate(
            actor=Actor.from_request(request),
            kind=kind,
            rendering=rendering,
            **report_query(request.GET),
        )
    except DomainError as exc:
        return TemplateResponse(
            request,
            "audit/reports_index.html",
            _context(
                request,
                "Reports",
                reports=REPORTS.items(),
                tables=Table.objects.order_by("code").values_list("pk", "code"),
                error=exc.detail,
            ),
            status=exc.status,
        )
    except ValidationError as exc:  # the query's dates or ids
        return HttpResponse(f"Invalid report parameters: {exc.detail}", status=400)
    if rendering in EXPORTS:
        content_type, render = EXPORTS[rendering]
        response = HttpResponse(render(report), content_type=content_type)
        name = f"{kind}_{report.period.date_from}_{report.period.date_to}.{rendering}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    totals_keys, totals = total_cells(report)
    links = [[_link(key, row.get(key)) for key, _ in report.columns] for row in report.rows]
    query = request.GET.copy()
    query.pop("export", None)
    return TemplateResponse(
        request,
        "audit/report.html",
        _context(
            request,
            report.title,
            report=report,
            rows=[
                (list(zip(cells, urls, strict=True)), flagged(row))
                for cells, urls, row in zip(row_cells(report), links, report.rows, strict=True)
            ],
            totals_keys=totals_keys,
            totals=totals,
            chart_svg=mark_safe(rtp_chart_svg(report.chart)),  # noqa: S308 - built escaped
            query=query.urlencode(),
        ),
    )


# Report columns holding ids, and the page each opens.
_LINKS = {
    "event_id": ("admin:audit_auditevent_change", True),
    "round_id": ("audit-console-replay", False),
    "table_id": ("admin:tables_table_change", True),
    "transaction_id": ("admin:ledger_transaction_change", True),
}


def _link(key: str, value) -> str:
    if key not in _LINKS or not isinstance(value, int):
        return ""
    name, positional = _LINKS[key]
    try:
        return (
            reverse(name, args=[value]) if positional else reverse(name, kwargs={"round_id": value})
        )
    except NoReverseMatch:
        return ""


def replay_lookup(request):
    _require(request, "audit.view_auditevent")
    round_id = request.GET.get("round", "").strip()
    # ASCII digits only: str.isdigit() also takes "²" and other digits int() refuses.
    if round_id.isascii() and round_id.isdigit():
        return redirect("audit-console-replay", round_id=int(round_id))
    return TemplateResponse(request, "audit/replay_lookup.html", _context(request, "Round replay"))


def replay_page(request, round_id: int):
    _require(request, "audit.view_auditevent")
    try:
        with replica.reads():
            replay = round_replay(round_id=round_id)
    except DomainError as exc:
        return TemplateResponse(
            request,
            "audit/replay_lookup.html",
            _context(request, "Round replay", error=exc.detail),
            status=exc.status,
        )
    events.viewed_by(request, "admin.replay", round_id=round_id, status=replay["status"])
    return TemplateResponse(
        request,
        "audit/replay.html",
        _context(
            request,
            f"Replay of round {replay['round']['table']} #{replay['round']['number']}",
            replay=replay,
        ),
    )
