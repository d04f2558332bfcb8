from enum import StrEnum


class PublicTopicsSort(StrEnum):
    FOLLOWED = "followed"
    LATEST = "latest"
    QUALITY = "quality"
    TRENDING = "trending"

    def __str__(self) -> str:
        return str(self.value)
