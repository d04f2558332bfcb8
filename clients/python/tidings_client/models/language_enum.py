from enum import StrEnum


class LanguageEnum(StrEnum):
    AUTO = "auto"
    EN = "en"
    ZH_HANS = "zh-hans"

    def __str__(self) -> str:
        return str(self.value)
