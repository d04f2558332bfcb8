from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_brief_published_data_items_item import (
        WebhookBriefPublishedDataItemsItem,
    )
    from ..models.webhook_brief_published_data_overview import (
        WebhookBriefPublishedDataOverview,
    )
    from ..models.webhook_brief_published_data_subscription import (
        WebhookBriefPublishedDataSubscription,
    )


T = TypeVar("T", bound="WebhookBriefPublishedData")


@_attrs_define
class WebhookBriefPublishedData:
    """The event's content.

    Attributes:
        run_id (int): The run (GET /api/v1/runs/{id}).
        subscription (WebhookBriefPublishedDataSubscription):
        scheduled_at (datetime.datetime):
        locale (str): The brief's language, e.g. en.
        url (str): The brief's page in the Inbox.
        overview (WebhookBriefPublishedDataOverview):
        items (list[WebhookBriefPublishedDataItemsItem]):
    """

    run_id: int
    subscription: WebhookBriefPublishedDataSubscription
    scheduled_at: datetime.datetime
    locale: str
    url: str
    overview: WebhookBriefPublishedDataOverview
    items: list[WebhookBriefPublishedDataItemsItem]

    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        subscription = self.subscription.to_dict()

        scheduled_at = self.scheduled_at.isoformat()

        locale = self.locale

        url = self.url

        overview = self.overview.to_dict()

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "run_id": run_id,
                "subscription": subscription,
                "scheduled_at": scheduled_at,
                "locale": locale,
                "url": url,
                "overview": overview,
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_brief_published_data_items_item import (
            WebhookBriefPublishedDataItemsItem,  # noqa: PLC0415
        )
        from ..models.webhook_brief_published_data_overview import (
            WebhookBriefPublishedDataOverview,  # noqa: PLC0415
        )
        from ..models.webhook_brief_published_data_subscription import (
            WebhookBriefPublishedDataSubscription,  # noqa: PLC0415
        )

        d = dict(src_dict)
        run_id = d.pop("run_id")

        subscription = WebhookBriefPublishedDataSubscription.from_dict(
            d.pop("subscription")
        )

        scheduled_at = datetime.datetime.fromisoformat(d.pop("scheduled_at"))

        locale = d.pop("locale")

        url = d.pop("url")

        overview = WebhookBriefPublishedDataOverview.from_dict(d.pop("overview"))

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = WebhookBriefPublishedDataItemsItem.from_dict(items_item_data)

            items.append(items_item)

        webhook_brief_published_data = cls(
            run_id=run_id,
            subscription=subscription,
            scheduled_at=scheduled_at,
            locale=locale,
            url=url,
            overview=overview,
            items=items,
        )

        return webhook_brief_published_data
