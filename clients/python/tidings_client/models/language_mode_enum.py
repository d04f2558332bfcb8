from enum import StrEnum


class LanguageModeEnum(StrEnum):
    FIXED = "fixed"
    FOLLOW_UI = "follow_ui"

    def __str__(self) -> str:
        return str(self.value)
