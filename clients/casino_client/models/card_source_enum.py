from enum import StrEnum


class CardSourceEnum(StrEnum):
    CARD_READER = "card_reader"
    SERVER_SHOE = "server_shoe"

    def __str__(self) -> str:
        return str(self.value)
