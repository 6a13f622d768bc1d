from enum import StrEnum


class RoundNextKindEnum(StrEnum):
    BETS = "bets"
    CARD = "card"
    DEALER_DECISION = "dealer_decision"
    DECISION = "decision"
    NOTHING = "nothing"
    PIT = "pit"
    SETTLEMENT = "settlement"
    VOID_DECISION = "void_decision"

    def __str__(self) -> str:
        return str(self.value)
