from enum import StrEnum


class ExportSubscriptionStatus(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
