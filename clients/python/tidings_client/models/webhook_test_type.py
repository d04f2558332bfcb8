from enum import StrEnum


class WebhookTestType(StrEnum):
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)
