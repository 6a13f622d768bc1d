from django.db.models import QuerySet

from casino.api.models import ApiKey, DeviceToken


def api_key_list() -> QuerySet[ApiKey]:
    return ApiKey.objects.select_related("operator")


def device_token_list() -> QuerySet[DeviceToken]:
    return DeviceToken.objects.select_related("table")
