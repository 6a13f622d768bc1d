from enum import StrEnum


class AuditReportsRetrieveGrouping(StrEnum):
    GAMING_DAY = "gaming_day"
    SHIFT = "shift"

    def __str__(self) -> str:
        return str(self.value)
