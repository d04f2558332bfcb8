from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_test_data_subscription import WebhookTestDataSubscription


T = TypeVar("T", bound="WebhookTestData")


@_attrs_define
class WebhookTestData:
    """The event's content.

    Attributes:
        subscription (WebhookTestDataSubscription):
        message (str):
    """

    subscription: WebhookTestDataSubscription
    message: str

    def to_dict(self) -> dict[str, Any]:
        subscription = self.subscription.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription": subscription,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_test_data_subscription import WebhookTestDataSubscription  # noqa: PLC0415

        d = dict(src_dict)
        subscription = WebhookTestDataSubscription.from_dict(d.pop("subscription"))

        message = d.pop("message")

        webhook_test_data = cls(
            subscription=subscription,
            message=message,
        )

        return webhook_test_data
