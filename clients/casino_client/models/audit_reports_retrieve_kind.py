from enum import StrEnum


class AuditReportsRetrieveKind(StrEnum):
    DEALER = "dealer"
    EXCEPTIONS = "exceptions"
    GAME_PERFORMANCE = "game-performance"
    PLAYER_STATEMENT = "player-statement"
    SHOE_LOG = "shoe-log"
    TABLE_SHIFT = "table-shift"

    def __str__(self) -> str:
        return str(self.value)
