"""One permission check for every endpoint and every kind of principal.

A view names what each HTTP method needs in ``required_permissions`` (method -> permission
names). A method the view does not list is refused: forgetting a permission closes the door
instead of opening it. Object-level scoping (an operator sees only its own players) is done by
the selectors the views call, which filter by ``request_scope``.
"""

from rest_framework.permissions import BasePermission

from casino.api.principals import ApiKeyPrincipal, DevicePrincipal


class RolePermission(BasePermission):
    message = "Your role does not allow this operation."

    def has_permission(self, request, view) -> bool:
        if getattr(view, "public", False):
            return True
        user = request.user
        if user is None or not user.is_authenticated:
            return False
        required = getattr(view, "required_permissions", {})
        method = "GET" if request.method in ("HEAD", "OPTIONS") else request.method
        if method not in required:
            return False
        needed = required[method]
        if isinstance(needed, str):
            needed = (needed,)
        if getattr(user, "is_superuser", False):
            return True
        return user.has_perms(needed)


class RequestScope:
    """What part of the casino a principal may see: one operator, one table, or everything."""

    def __init__(self, *, operator_id: int | None = None, table_id: int | None = None):
        self.operator_id = operator_id
        self.table_id = table_id


def request_scope(request) -> RequestScope:
    user = request.user
    if isinstance(user, ApiKeyPrincipal):
        return RequestScope(operator_id=user.operator_id)
    if isinstance(user, DevicePrincipal):
        return RequestScope(table_id=user.table_id)
    return RequestScope()
