from enum import StrEnum


class OutlineResultStatusEnum(StrEnum):
    ADDED = "added"
    ALREADY_IN_LIBRARY = "already_in_library"
    DUPLICATE = "duplicate"
    REFUSED = "refused"

    def __str__(self) -> str:
        return str(self.value)
