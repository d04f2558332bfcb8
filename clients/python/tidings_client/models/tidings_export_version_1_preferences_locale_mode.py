from enum import StrEnum


class TidingsExportVersion1PreferencesLocaleMode(StrEnum):
    AUTO = "auto"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
