"""The API platform's own endpoints; each app adds its urls under /api/v1/ in casino/urls.py."""

from django.urls import path

from casino.api import staff_token_views, views

urlpatterns = [
    path("health/", views.HealthView.as_view(), name="health"),
    path("me/", views.MeView.as_view(), name="me"),
    path("api-keys/", views.ApiKeyListCreateView.as_view(), name="api-key-list"),
    path("api-keys/<int:pk>/rotate/", views.ApiKeyRotateView.as_view(), name="api-key-rotate"),
    path("api-keys/<int:pk>/revoke/", views.ApiKeyRevokeView.as_view(), name="api-key-revoke"),
    path("device-tokens/", views.DeviceTokenListCreateView.as_view(), name="device-token-list"),
    path(
        "device-tokens/<int:pk>/rotate/",
        views.DeviceTokenRotateView.as_view(),
        name="device-token-rotate",
    ),
    path(
        "device-tokens/<int:pk>/revoke/",
        views.DeviceTokenRevokeView.as_view(),
        name="device-token-revoke",
    ),
    path(
        "staff-tokens/",
        staff_token_views.StaffTokenListCreateView.as_view(),
        name="staff-token-list",
    ),
    path(
        "staff-tokens/<int:pk>/revoke/",
        staff_token_views.StaffTokenRevokeView.as_view(),
        name="staff-token-revoke",
    ),
]
