from enum import StrEnum


class DisputeNoteKindEnum(StrEnum):
    EVIDENCE = "evidence"
    NOTE = "note"

    def __str__(self) -> str:
        return str(self.value)
