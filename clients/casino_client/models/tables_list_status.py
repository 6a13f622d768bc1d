from enum import StrEnum


class TablesListStatus(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
