from datetime import datetime

from django.db.models import QuerySet

from audit.models import AuditEvent
from casino.api.events import CREDENTIAL_REFUSED
from casino.api.models import ApiKey, DeviceToken


def api_key_list() -> QuerySet[ApiKey]:
    return ApiKey.objects.select_related("operator")


def device_token_list() -> QuerySet[DeviceToken]:
    return DeviceToken.objects.select_related("table")


def credential_refusals_first(*, since: datetime, until: datetime) -> QuerySet[AuditEvent]:
    """The audited first refusals of the windows that began in [since, until)."""
    return AuditEvent.objects.filter(
        name=CREDENTIAL_REFUSED, occurred_at__gte=since, occurred_at__lt=until
    ).order_by("id")
