from enum import StrEnum


class TokenScopeEnum(StrEnum):
    READ = "read"
    READER = "reader"
    WRITE = "write"

    def __str__(self) -> str:
        return str(self.value)
