from enum import StrEnum


class EventEnum(StrEnum):
    BRIEF = "brief"
    TEST = "test"

    def __str__(self) -> str:
        return str(self.value)
