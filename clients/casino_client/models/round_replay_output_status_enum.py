from enum import StrEnum


class RoundReplayOutputStatusEnum(StrEnum):
    DIFFERENCES = "differences"
    MATCH = "match"
    NOT_SETTLED = "not_settled"

    def __str__(self) -> str:
        return str(self.value)
