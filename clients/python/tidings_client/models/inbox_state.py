from enum import StrEnum


class InboxState(StrEnum):
    ALL = "all"
    NOT_INTERESTED = "not_interested"
    SAVED = "saved"
    UNREAD = "unread"

    def __str__(self) -> str:
        return str(self.value)
