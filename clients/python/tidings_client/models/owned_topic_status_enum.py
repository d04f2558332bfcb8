from enum import StrEnum


class OwnedTopicStatusEnum(StrEnum):
    ACTIVE = "active"
    DELETED = "deleted"
    TAKEN_DOWN = "taken_down"

    def __str__(self) -> str:
        return str(self.value)
