from enum import StrEnum


class ActionEnum(StrEnum):
    HIT = "hit"
    STAND = "stand"

    def __str__(self) -> str:
        return str(self.value)
