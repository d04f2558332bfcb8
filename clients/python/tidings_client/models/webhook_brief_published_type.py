from enum import StrEnum


class WebhookBriefPublishedType(StrEnum):
    BRIEF_PUBLISHED = "brief.published"

    def __str__(self) -> str:
        return str(self.value)
