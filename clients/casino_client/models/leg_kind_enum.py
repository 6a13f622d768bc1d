from enum import StrEnum


class LegKindEnum(StrEnum):
    BONUS = "bonus"
    DEPOSIT = "deposit"
    PAYOUT = "payout"
    SETTLE_STAKE = "settle_stake"
    STAKE = "stake"
    STAKE_REFUND = "stake_refund"
    WITHDRAWAL = "withdrawal"

    def __str__(self) -> str:
        return str(self.value)
