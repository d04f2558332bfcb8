from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_test_type import WebhookTestType

if TYPE_CHECKING:
    from ..models.webhook_test_data import WebhookTestData


T = TypeVar("T", bound="WebhookTest")


@_attrs_define
class WebhookTest:
    """Sent by POST /api/v1/subscriptions/{id}/webhook/test (or the console's button).

    Attributes:
        type_ (WebhookTestType): What kind of source it is (one of the values listed).
        timestamp (datetime.datetime): When this attempt was sent.
        data (WebhookTestData): The event's content.
    """

    type_: WebhookTestType
    timestamp: datetime.datetime
    data: WebhookTestData

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
        from ..models.webhook_test_data import WebhookTestData  # noqa: PLC0415

        d = dict(src_dict)
        type_ = WebhookTestType(d.pop("type"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        data = WebhookTestData.from_dict(d.pop("data"))

        webhook_test = cls(
            type_=type_,
            timestamp=timestamp,
            data=data,
        )

        return webhook_test
