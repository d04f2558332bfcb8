from enum import StrEnum


class ReadingLevelsEnum(StrEnum):
    L1 = "L1"
    L2 = "L2"
    L3 = "L3"

    def __str__(self) -> str:
        return str(self.value)
