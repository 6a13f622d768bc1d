"""The investigation API: round replay, disputes, reports (under /api/v1/audit/ like the log's)."""

from django.urls import path

from forensics import dispute_views, report_views, views

urlpatterns = [
    path(
        "audit/rounds/<int:pk>/replay/", views.RoundReplayView.as_view(), name="audit-round-replay"
    ),
    path("audit/disputes/", dispute_views.DisputeListCreateView.as_view(), name="dispute-list"),
    path(
        "audit/disputes/<int:pk>/", dispute_views.DisputeDetailView.as_view(), name="dispute-detail"
    ),
    path(
        "audit/disputes/<int:pk>/notes/",
        dispute_views.DisputeNoteView.as_view(),
        name="dispute-notes",
    ),
    path(
        "audit/disputes/<int:pk>/investigate/",
        dispute_views.DisputeInvestigateView.as_view(),
        name="dispute-investigate",
    ),
    path(
        "audit/disputes/<int:pk>/resolve/",
        dispute_views.DisputeResolveView.as_view(),
        name="dispute-resolve",
    ),
    path("audit/reports/<slug:kind>/", report_views.ReportView.as_view(), name="audit-report"),
]
