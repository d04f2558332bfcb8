from enum import StrEnum


class ChannelEnum(StrEnum):
    EMAIL = "email"
    PUSH = "push"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
