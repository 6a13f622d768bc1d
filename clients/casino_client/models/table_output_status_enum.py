from enum import StrEnum


class TableOutputStatusEnum(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
