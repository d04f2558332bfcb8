from enum import StrEnum


class ExportSubscriptionRedelivery(StrEnum):
    COOLDOWN = "cooldown"
    NEVER = "never"
    ON_CONTENT_UPDATE = "on_content_update"

    def __str__(self) -> str:
        return str(self.value)
