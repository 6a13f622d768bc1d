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

from functools import cached_property

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
        if request.method == "OPTIONS":
            # What an endpoint offers is told to whoever may call one of its methods (the
            # Allow header lists OPTIONS on every endpoint, a POST-only one too).
            methods = list(required)
        else:
            method = "GET" if request.method == "HEAD" else request.method
            methods = [method] if method in required else []
        if not any(_may(user, request.auth, required[m]) for m in methods):
            return False
        if request_scope(request).operator_inactive:
            raise PermissionDenied(
                "The operator you act for is deactivated: every operation is refused."
            )
        return True


def _may(user, credential, needed: str | tuple[str, ...]) -> bool:
    if isinstance(needed, str):
        needed = (needed,)
    if not (getattr(user, "is_superuser", False) or user.has_perms(needed)):
        return False
    return _token_role_allows(credential, needed)


def caller_has(request, permission: str) -> bool:
    """Whether the caller holds ``permission`` with the credential it uses (a staff token only
    with its one role)."""
    return _may(request.user, request.auth, permission)


def _token_role_allows(credential, needed) -> bool:
    """A staff token acts with its one role, whatever else its owner may do."""
    from casino.api.models import StaffToken

    if not isinstance(credential, StaffToken):
        return True
    from casino.api.roles import role_permissions

    return set(needed) <= role_permissions(credential.role)


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

    @cached_property
    def sandbox(self) -> bool | None:
        """Which casino the caller sees: a sandbox operator's principals only sandbox tables
        and rounds (True), a live operator's only live ones (False); None: both (casino staff,
        and a device, which sees its own table only). See casino/sandbox."""
        if not self.operator_id:
            return None
        from django.core.cache import caches

        from ledger.models import Operator

        # An operator's mode never changes (a sandbox operator is created as one), so each
        # process remembers it: no query per request on the bet hot path.
        key = f"sandbox-operator:{self.operator_id}"
        sandbox = caches["process"].get(key)
        if sandbox is None:
            sandbox = Operator.objects.filter(pk=self.operator_id, sandbox__isnull=False).exists()
            caches["process"].set(key, sandbox, 3600)
        return sandbox

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
