from django import template

from casino.console.links import audit_links, verification_status
from casino.console.selectors import floor_overview

register = template.Library()


@register.inclusion_tag("console/floor_block.html", takes_context=True)
def floor_dashboard(context, full=False):
    """The floor dashboard (for staff who may view tables), refreshing itself. The floor and
    its audit-chain status are computed once per render: the page's own ``floor`` when its
    view built one (the floor page), else here (the console's front page)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.has_perm("tables.view_table"):
        return {"hidden": True}
    floor = context.get("floor") or floor_overview()
    can_audit = user.has_perm("audit.view_auditevent")
    return {
        "floor": floor,
        "links": audit_links(user=user),
        "verification": verification_status(floor.verification) if can_audit else None,
        "full": full,
        "request": request,
    }
