from enum import StrEnum


class ActionEnum(StrEnum):
    INTERESTED = "interested"
    NOT_INTERESTED = "not_interested"
    READ = "read"
    SAVE = "save"
    UNREAD = "unread"
    UNSAVE = "unsave"

    def __str__(self) -> str:
        return str(self.value)
