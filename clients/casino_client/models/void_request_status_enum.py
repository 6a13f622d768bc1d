from enum import StrEnum


class VoidRequestStatusEnum(StrEnum):
    APPROVED = "approved"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    REJECTED = "rejected"
    REQUESTED = "requested"

    def __str__(self) -> str:
        return str(self.value)
