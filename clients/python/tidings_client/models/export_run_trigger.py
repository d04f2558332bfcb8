from enum import StrEnum


class ExportRunTrigger(StrEnum):
    IMPORTED = "imported"
    MANUAL = "manual"
    RETRY = "retry"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
