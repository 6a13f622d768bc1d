from enum import StrEnum


class TablesEventsRetrieveFormat(StrEnum):
    EVENT_STREAM = "event-stream"
    JSON = "json"

    def __str__(self) -> str:
        return str(self.value)
