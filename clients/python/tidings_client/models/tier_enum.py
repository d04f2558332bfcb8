from enum import StrEnum


class TierEnum(StrEnum):
    BASIC = "basic"
    FREE = "free"
    PRO = "pro"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)
