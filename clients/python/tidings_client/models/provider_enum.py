from enum import StrEnum


class ProviderEnum(StrEnum):
    NAVER_NEWS = "naver_news"
    POOL = "pool"
    SEARXNG = "searxng"

    def __str__(self) -> str:
        return str(self.value)
