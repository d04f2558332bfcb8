from enum import StrEnum


class SelectorKindEnum(StrEnum):
    CSS = "css"
    XPATH = "xpath"

    def __str__(self) -> str:
        return str(self.value)
