from django.contrib import admin
from django.urls import include, path, re_path
from django.views import defaults
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from casino import ops_views
from casino.api.guide import OperatorGuideView
from casino.api.problem_pages import ProblemIndexView, ProblemPageView
from casino.api.problems import bad_request_problem, problem_response

api_v1 = [
    # Operations (casino/ops_views.py): liveness, readiness, detailed health, metrics.
    path("health/live/", ops_views.live, name="health-live"),
    path("health/ready/", ops_views.ready, name="health-ready"),
    path("health/detail/", ops_views.detail, name="health-detail"),
    path("metrics/", ops_views.metrics, name="metrics"),
    path("", include("casino.api.urls")),
    path("", include("tables.urls")),
    path("", include("audit.urls")),
    path("", include("forensics.urls")),
    path("", include("ledger.urls")),
    # Public descriptions of the API that touch no data, not even the throttle's counters.
    path("schema/", SpectacularAPIView.as_view(throttle_classes=[]), name="schema"),
    path(
        "docs/",
        SpectacularSwaggerView.as_view(url_name="schema", throttle_classes=[]),
        name="docs",
    ),
    path("docs/guide/", OperatorGuideView.as_view(), name="docs-guide"),
    # The pages problems' ``type`` URLs resolve to (casino/api/problem_pages.py).
    path("problems/", ProblemIndexView.as_view(), name="problem-index"),
    re_path(r"^problems/(?P<code>[-a-z0-9]+)/?$", ProblemPageView.as_view(), name="problem-type"),
]

urlpatterns = [
    path("admin/audit/", include("forensics.console_urls")),  # report and replay pages
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
]


def handler404(request, exception=None):
    if request.path.startswith("/api/"):
        return problem_response(
            status=404,
            code="not-found",
            title="Not found",
            detail=f"No endpoint at {request.path}.",
            request=request,
        )
    return defaults.page_not_found(request, exception)


def handler400(request, exception=None):
    if request.path.startswith("/api/"):
        return bad_request_problem(exception, request)
    return defaults.bad_request(request, exception)


def handler403(request, exception=None):
    if request.path.startswith("/api/"):
        return problem_response(
            status=403,
            code="permission-denied",
            title="Permission denied",
            detail="You may not do this.",
            request=request,
        )
    return defaults.permission_denied(request, exception)
