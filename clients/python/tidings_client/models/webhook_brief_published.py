from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_brief_published_type import WebhookBriefPublishedType

if TYPE_CHECKING:
    from ..models.webhook_brief_published_data import WebhookBriefPublishedData


T = TypeVar("T", bound="WebhookBriefPublished")


@_attrs_define
class WebhookBriefPublished:
    """A brief was delivered: its overview and items, as the Inbox shows them.

    Attributes:
        type_ (WebhookBriefPublishedType): What kind of source it is (one of the values listed).
        timestamp (datetime.datetime): When this attempt was sent.
        data (WebhookBriefPublishedData): The event's content.
    """

    type_: WebhookBriefPublishedType
    timestamp: datetime.datetime
    data: WebhookBriefPublishedData

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        timestamp = self.timestamp.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "timestamp": timestamp,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_brief_published_data import WebhookBriefPublishedData  # noqa: PLC0415

        d = dict(src_dict)
        type_ = WebhookBriefPublishedType(d.pop("type"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        data = WebhookBriefPublishedData.from_dict(d.pop("data"))

        webhook_brief_published = cls(
            type_=type_,
            timestamp=timestamp,
            data=data,
        )

        return webhook_brief_published
