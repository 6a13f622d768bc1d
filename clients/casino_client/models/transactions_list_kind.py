from enum import StrEnum


class TransactionsListKind(StrEnum):
    DEPOSIT = "deposit"
    REPLACEMENT = "replacement"
    REVERSAL = "reversal"
    SETTLEMENT = "settlement"
    STAKE = "stake"
    STAKE_REFUND = "stake_refund"
    WITHDRAWAL = "withdrawal"

    def __str__(self) -> str:
        return str(self.value)
