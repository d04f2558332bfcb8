from enum import StrEnum


class NotifyEnum(StrEnum):
    EMAIL = "email"
    INBOX = "inbox"
    PUSH = "push"

    def __str__(self) -> str:
        return str(self.value)
