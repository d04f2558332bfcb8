from enum import StrEnum


class ExportSourceType(StrEnum):
    CRAWL = "crawl"
    FEED = "feed"
    LIST = "list"
    PAGE = "page"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
