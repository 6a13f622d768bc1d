from enum import StrEnum


class ScopesEnum(StrEnum):
    MONEY = "money"
    PIT = "pit"
    READ = "read"

    def __str__(self) -> str:
        return str(self.value)
