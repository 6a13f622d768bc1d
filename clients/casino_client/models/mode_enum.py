from enum import StrEnum


class ModeEnum(StrEnum):
    JOIN_THEN_STAKE = "join_then_stake"
    STAKE_WITH_BET = "stake_with_bet"

    def __str__(self) -> str:
        return str(self.value)
