from enum import StrEnum


class InboundMessageStatusEnum(StrEnum):
    ACCEPTED = "accepted"
    CONFIRMATION = "confirmation"
    HELD = "held"
    PENDING = "pending"
    REFUSED = "refused"

    def __str__(self) -> str:
        return str(self.value)
