"""Every endpoint declares the credential scope its methods need (casino/api/scopes.py)."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from casino.api.models import Scope
from casino.api.scopes import ScopePermission

WRITE_METHODS = ("post", "put", "patch", "delete")


def _api_views(resolver: URLResolver | None = None, prefix: str = ""):
    """(route, view class) of every DRF view in the URL configuration."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _api_views(entry, route)
        elif isinstance(entry, URLPattern):
            cls = getattr(entry.callback, "cls", None)
            if cls is not None and issubclass(cls, APIView):
                yield route, cls


def test_every_write_of_every_endpoint_declares_its_scope():
    views = [(route, cls) for route, cls in _api_views() if route.startswith("api/v1/")]
    assert len(views) > 40  # the whole API, not an empty walk
    offenders = []
    for route, cls in views:
        if cls.__module__.startswith("drf_spectacular"):
            continue  # the schema and its docs: public, read-only
        if ScopePermission not in cls.permission_classes:
            offenders.append(f"{route} {cls.__name__}: ScopePermission not applied")
        writes = [m.upper() for m in WRITE_METHODS if hasattr(cls, m)]
        declared = [m for m in getattr(cls, "required_permissions", {}) if m not in SAFE_METHODS]
        if (writes or declared) and getattr(cls, "write_scope", None) not in (
            Scope.MONEY,
            Scope.PIT,
        ):
            offenders.append(f"{route} {cls.__name__}: {writes or declared} without write_scope")
    assert offenders == []


class _Undeclared(APIView):
    required_permissions = {"POST": "ledger.add_player"}  # the integration role has it

    def post(self, request):
        return Response({"ok": True})


class _Declared(_Undeclared):
    write_scope = Scope.MONEY


@pytest.mark.django_db
def test_a_view_that_declares_no_scope_refuses_every_credentials_writes(api_key):
    _, raw = api_key
    factory = APIRequestFactory()

    def post(view):
        request = factory.post("/x/", {}, format="json", HTTP_AUTHORIZATION=f"Bearer {raw}")
        response = view.as_view()(request)
        response.render()
        return response

    refused = post(_Undeclared)
    assert refused.status_code == 403 and "declares no scope" in refused.data["detail"]
    assert post(_Declared).status_code == 200
