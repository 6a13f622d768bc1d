from enum import StrEnum


class PhaseEnum(StrEnum):
    CLOSED = "closed"
    DEALER = "dealer"
    DEALING = "dealing"
    OPEN = "open"
    PLAYING = "playing"
    SETTLED = "settled"
    SETTLING = "settling"
    VOIDED = "voided"

    def __str__(self) -> str:
        return str(self.value)
