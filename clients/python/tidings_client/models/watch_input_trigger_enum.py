from enum import StrEnum


class WatchInputTriggerEnum(StrEnum):
    ABOVE = "above"
    ANY = "any"
    APPEARS = "appears"
    BELOW = "below"
    DISAPPEARS = "disappears"

    def __str__(self) -> str:
        return str(self.value)
