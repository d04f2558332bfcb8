from enum import StrEnum


class DeliveryStatusEnum(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
