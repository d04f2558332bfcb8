from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookBriefPublishedDataItemsItem")


@_attrs_define
class WebhookBriefPublishedDataItemsItem:
    """
    Attributes:
        rank (int): Its place in the brief, best first.
        title (str):
        url (str):
        summary (str):
        summary_generator (str): Who wrote the summary: the model's name, or empty for extracts.
        source_name (str):
        reason (str): Why it was selected.
        published_at (datetime.datetime | None):
        redelivered (bool): Delivered before, changed since.
    """

    rank: int
    title: str
    url: str
    summary: str
    summary_generator: str
    source_name: str
    reason: str
    published_at: datetime.datetime | None
    redelivered: bool

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        title = self.title

        url = self.url

        summary = self.summary

        summary_generator = self.summary_generator

        source_name = self.source_name

        reason = self.reason

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        redelivered = self.redelivered

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rank": rank,
                "title": title,
                "url": url,
                "summary": summary,
                "summary_generator": summary_generator,
                "source_name": source_name,
                "reason": reason,
                "published_at": published_at,
                "redelivered": redelivered,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        title = d.pop("title")

        url = d.pop("url")

        summary = d.pop("summary")

        summary_generator = d.pop("summary_generator")

        source_name = d.pop("source_name")

        reason = d.pop("reason")

        def _parse_published_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                published_at_type_0 = datetime.datetime.fromisoformat(data)

                return published_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        published_at = _parse_published_at(d.pop("published_at"))

        redelivered = d.pop("redelivered")

        webhook_brief_published_data_items_item = cls(
            rank=rank,
            title=title,
            url=url,
            summary=summary,
            summary_generator=summary_generator,
            source_name=source_name,
            reason=reason,
            published_at=published_at,
            redelivered=redelivered,
        )

        return webhook_brief_published_data_items_item
