from enum import StrEnum


class KindEnum(StrEnum):
    ADJUSTMENT = "adjustment"
    CHARGE = "charge"
    GRANT = "grant"
    MONTHLY_RESET = "monthly_reset"
    REFUND = "refund"

    def __str__(self) -> str:
        return str(self.value)
