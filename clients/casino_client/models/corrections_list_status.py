from enum import StrEnum


class CorrectionsListStatus(StrEnum):
    APPROVED = "approved"
    REJECTED = "rejected"
    REQUESTED = "requested"

    def __str__(self) -> str:
        return str(self.value)
