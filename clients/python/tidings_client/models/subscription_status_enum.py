from enum import StrEnum


class SubscriptionStatusEnum(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
