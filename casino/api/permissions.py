"""One permission check for every endpoint and every kind of principal.

A view names what each HTTP method needs in ``required_permissions`` (method -> permission
names). A method the view does not list is refused: forgetting a permission closes the door
instead of opening it. Object-level scoping (an operator sees only its own players) is done by
the selectors the views call, which filter by ``request_scope``.

The order of refusals, the same for every endpoint: no or bad credentials 401; a method the
endpoint does not offer 405 (the methods of every path are public in the OpenAPI schema and do
not depend on the object named, so saying so tells a caller nothing it could not read there);
a role or credential scope that does not allow the method 403; an object outside the caller's
scope 404 (in the selectors). An anonymous caller learns nothing beyond the 401.
"""

from rest_framework.exceptions import MethodNotAllowed
from rest_framework.permissions import BasePermission

from casino.api.principals import ApiKeyPrincipal, DevicePrincipal
from casino.errors import PermissionDenied


class RolePermission(BasePermission):
    message = "Your role does not allow this operation."

    def has_permission(self, request, view) -> bool:
        if getattr(view, "public", False):
            return True
        user = request.user
        if user is None or not user.is_authenticated:
            return False
        if not _offers(view, request.method):
            raise MethodNotAllowed(request.method)
        required = getattr(view, "required_permissions", {})
        method = "GET" if request.method in ("HEAD", "OPTIONS") else request.method
        if method not in required:
            return False
        needed = required[method]
        if isinstance(needed, str):
            needed = (needed,)
        if not (getattr(user, "is_superuser", False) or user.has_perms(needed)):
            return False
        if request_scope(request).operator_inactive:
            raise PermissionDenied(
                "The operator you act for is deactivated: every operation is refused."
            )
        return True


def _offers(view, method: str) -> bool:
    """Whether the view answers ``method`` at all (DRF dispatches HEAD to ``get``)."""
    name = method.lower()
    if name not in getattr(view, "http_method_names", ()):
        return False
    return hasattr(view, name) or (name == "head" and hasattr(view, "get"))


class RequestScope:
    """What part of the casino a principal may see: one operator, one table, or everything.

    ``operator_id`` 0 matches no operator (a member of an operator's staff with no link).
    """

    def __init__(
        self,
        *,
        operator_id: int | None = None,
        table_id: int | None = None,
        operator_inactive: bool = False,
    ):
        self.operator_id = operator_id
        self.table_id = table_id
        self.operator_inactive = operator_inactive

    def operator_or(self, requested: int | None) -> int | None:
        """The operator a request is limited to: an operator-scoped caller's own whatever it
        names, else the one a casino staff member names (None: every operator)."""
        return requested if self.operator_id is None else self.operator_id


def request_scope(request) -> RequestScope:
    """The caller's scope: an API key's operator, a device's table, an operator's staff
    member's operator (the same link the console scopes by), or everything for casino staff."""
    scope = getattr(request, "_casino_scope", None)
    if scope is None:
        scope = request._casino_scope = _scope_of(request.user)
    return scope


def _scope_of(user) -> RequestScope:
    if isinstance(user, ApiKeyPrincipal):
        # (A deactivated operator's key is refused by its authentication.)
        return RequestScope(operator_id=user.operator_id)
    if isinstance(user, DevicePrincipal):
        # A dealer's device sees its table, and no operator's players.
        return RequestScope(operator_id=0, table_id=user.table_id)
    if user is None or not user.is_authenticated:
        return RequestScope(operator_id=0)
    from casino.console.models import operator_link

    operator_id, active = operator_link(user)
    return RequestScope(operator_id=operator_id, operator_inactive=not active)
