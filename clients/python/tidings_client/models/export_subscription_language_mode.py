from enum import StrEnum


class ExportSubscriptionLanguageMode(StrEnum):
    FIXED = "fixed"
    FOLLOW_UI = "follow_ui"

    def __str__(self) -> str:
        return str(self.value)
