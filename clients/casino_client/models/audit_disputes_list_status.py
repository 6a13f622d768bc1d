from enum import StrEnum


class AuditDisputesListStatus(StrEnum):
    INVESTIGATING = "investigating"
    OPEN = "open"
    RESOLVED_REJECTED = "resolved_rejected"
    RESOLVED_UPHELD = "resolved_upheld"

    def __str__(self) -> str:
        return str(self.value)
