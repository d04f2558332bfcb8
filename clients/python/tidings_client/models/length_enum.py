from enum import StrEnum


class LengthEnum(StrEnum):
    BRIEF = "brief"
    DEEP = "deep"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
