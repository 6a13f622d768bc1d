from django.urls import path

from audit import views

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
]
