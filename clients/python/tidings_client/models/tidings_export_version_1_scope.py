from enum import StrEnum


class TidingsExportVersion1Scope(StrEnum):
    EVERYTHING = "everything"
    SAVED = "saved"
    SAVED_RECENT = "saved_recent"

    def __str__(self) -> str:
        return str(self.value)
