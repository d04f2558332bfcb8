from enum import StrEnum


class FormatEnum(StrEnum):
    TIDINGS_EXPORT1 = "tidings-export@1"

    def __str__(self) -> str:
        return str(self.value)
