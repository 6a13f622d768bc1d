from django.urls import path

from audit import dispute_views, report_views, views

urlpatterns = [
    path("audit/events/", views.AuditEventListView.as_view(), name="audit-event-list"),
    path("audit/events/<int:pk>/", views.AuditEventDetailView.as_view(), name="audit-event-detail"),
    path(
        "audit/verification/",
        views.VerificationStatusView.as_view(),
        name="audit-verification",
    ),
    path("audit/head/", views.HeadExportView.as_view(), name="audit-head"),
    path("audit/keys/", views.PublicKeysView.as_view(), name="audit-keys"),
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
