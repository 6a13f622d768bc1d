from django import template

from casino.console.links import audit_links, verification_status
from casino.console.selectors import floor_overview

register = template.Library()


@register.inclusion_tag("console/floor_block.html", takes_context=True)
def floor_dashboard(context, full=False):
    """The floor dashboard (for staff who may view tables), refreshing itself."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.has_perm("tables.view_table"):
        return {"hidden": True}
    return {
        "floor": floor_overview(),
        "links": audit_links() if user.has_perm("audit.view_auditevent") else [],
        "verification": verification_status() if user.has_perm("audit.view_auditevent") else None,
        "full": full,
        "request": request,
    }


@register.filter
def console_json(value) -> str:
    """Compact JSON for event payloads (not Python's repr)."""
    import json

    return json.dumps(value, separators=(", ", ": "), default=str)
