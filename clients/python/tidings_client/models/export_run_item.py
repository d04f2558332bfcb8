from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ExportRunItem")


@_attrs_define
class ExportRunItem:
    """
    Attributes:
        canonical_url (str): The item's address, normalized (the key across runs).
        title (str): Its title, as its source gives it.
        url (str): Its address (http or https).
        summary (str): A short summary of the item.
        summary_generator (str): Who wrote the summary: the model's name, or empty for extracts.
        reason (str): Why it was selected.
        relevance (int): How well it matches the interests, 0 to 100.
        overall (int): Its overall score, 0 to 100 (the brief's picking order).
        rank (int): Its place in the brief (1 first).
        source_name (str): The name of the source it came from.
        published_at (datetime.datetime | None): When its source published it, if it says (ISO 8601, UTC).
        redelivered (bool): Delivered before, and changed since.
        delivered_at (datetime.datetime): When it was delivered to your Inbox (ISO 8601, UTC).
    """

    canonical_url: str
    title: str
    url: str
    summary: str
    summary_generator: str
    reason: str
    relevance: int
    overall: int
    rank: int
    source_name: str
    published_at: datetime.datetime | None
    redelivered: bool
    delivered_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        canonical_url = self.canonical_url

        title = self.title

        url = self.url

        summary = self.summary

        summary_generator = self.summary_generator

        reason = self.reason

        relevance = self.relevance

        overall = self.overall

        rank = self.rank

        source_name = self.source_name

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        redelivered = self.redelivered

        delivered_at = self.delivered_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "canonical_url": canonical_url,
                "title": title,
                "url": url,
                "summary": summary,
                "summary_generator": summary_generator,
                "reason": reason,
                "relevance": relevance,
                "overall": overall,
                "rank": rank,
                "source_name": source_name,
                "published_at": published_at,
                "redelivered": redelivered,
                "delivered_at": delivered_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        canonical_url = d.pop("canonical_url")

        title = d.pop("title")

        url = d.pop("url")

        summary = d.pop("summary")

        summary_generator = d.pop("summary_generator")

        reason = d.pop("reason")

        relevance = d.pop("relevance")

        overall = d.pop("overall")

        rank = d.pop("rank")

        source_name = d.pop("source_name")

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

        delivered_at = datetime.datetime.fromisoformat(d.pop("delivered_at"))

        export_run_item = cls(
            canonical_url=canonical_url,
            title=title,
            url=url,
            summary=summary,
            summary_generator=summary_generator,
            reason=reason,
            relevance=relevance,
            overall=overall,
            rank=rank,
            source_name=source_name,
            published_at=published_at,
            redelivered=redelivered,
            delivered_at=delivered_at,
        )

        return export_run_item
