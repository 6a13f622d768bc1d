"""The audit app's pages in the pit console (mounted under /admin/audit/ before the admin)."""

from django.contrib import admin
from django.urls import path

from forensics import console

urlpatterns = [
    path("reports/", admin.site.admin_view(console.reports_index), name="audit-console-reports"),
    path(
        "reports/<slug:kind>/",
        admin.site.admin_view(console.report_page),
        name="audit-console-report",
    ),
    path("replay/", admin.site.admin_view(console.replay_lookup), name="audit-console-replay-find"),
    path(
        "replay/<int:round_id>/",
        admin.site.admin_view(console.replay_page),
        name="audit-console-replay",
    ),
]
