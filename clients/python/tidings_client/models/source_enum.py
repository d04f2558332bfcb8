from enum import StrEnum


class SourceEnum(StrEnum):
    MODEL = "model"
    WORDS = "words"

    def __str__(self) -> str:
        return str(self.value)
