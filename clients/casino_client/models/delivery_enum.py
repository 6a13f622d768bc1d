from enum import StrEnum


class DeliveryEnum(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    FEED_ONLY = "feed_only"
    NOT_CONFIGURED = "not_configured"
    NOT_SUBSCRIBED = "not_subscribed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
