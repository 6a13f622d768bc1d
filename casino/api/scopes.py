"""Credential scopes, checked for every endpoint in one place.

An API key or device token carries scopes (``casino.api.models.Scope``) that narrow what its
role allows. A read (GET, HEAD, OPTIONS) needs ``read``; any other method needs the
``write_scope`` its view declares (``money`` or ``pit``). A view that declares none refuses
every credential's writes, and tests/api/test_scopes.py fails for it. Staff sessions have no
scopes: their role alone decides.
"""

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from casino.api.models import Credential, Scope


def required_scope(view, method: str) -> str | None:
    """The scope a credential needs for ``method`` on ``view`` (None: the view declares none)."""
    if method in SAFE_METHODS:
        return Scope.READ
    return getattr(view, "write_scope", None)


class ScopePermission(BasePermission):
    def has_permission(self, request, view) -> bool:
        credential = request.auth
        if not isinstance(credential, Credential) or getattr(view, "public", False):
            return True
        needed = required_scope(view, request.method)
        if needed is None:
            raise PermissionDenied(f"{request.method} {request.path} declares no scope.")
        if needed not in credential.scopes:
            raise PermissionDenied(
                f"This credential lacks the '{needed}' scope that {request.method} "
                f"{request.path} needs (it has: {', '.join(credential.scopes)})."
            )
        return True
