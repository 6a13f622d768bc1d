from enum import StrEnum


class OutcomeEnum(StrEnum):
    REJECTED = "rejected"
    UPHELD = "upheld"

    def __str__(self) -> str:
        return str(self.value)
