from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="InboxItem")


@_attrs_define
class InboxItem:
    """A delivered item with what the user did with it (`.state`, set by the listing).

    Attributes:
        id (int): The Inbox item (a delivery); used by the actions.
        run_id (int): The id of the run it belongs to.
        subscription_id (int): The id of the subscription it belongs to.
        subscription_name (str): The name of the subscription that delivered it.
        title (str): Its title, as its source gives it.
        url (str): Its address (http or https).
        summary (str): A short summary of the item.
        source_name (str): The name of the source it came from.
        reason (str): Why it was selected, in your language.
        overall (int): Score, 0-100.
        published_at (datetime.datetime | None): When its source published it, if it says (ISO 8601, UTC).
        delivered_at (datetime.datetime): When it was delivered to your Inbox (ISO 8601, UTC).
        read (bool): Whether you read it.
        saved (bool): Saved (for an item: whether you saved it; for counts: how many).
        not_interested (bool): Marked not interested (for an item: whether; for counts: how many).
    """

    id: int
    run_id: int
    subscription_id: int
    subscription_name: str
    title: str
    url: str
    summary: str
    source_name: str
    reason: str
    overall: int
    published_at: datetime.datetime | None
    delivered_at: datetime.datetime
    read: bool
    saved: bool
    not_interested: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        run_id = self.run_id

        subscription_id = self.subscription_id

        subscription_name = self.subscription_name

        title = self.title

        url = self.url

        summary = self.summary

        source_name = self.source_name

        reason = self.reason

        overall = self.overall

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        delivered_at = self.delivered_at.isoformat()

        read = self.read

        saved = self.saved

        not_interested = self.not_interested

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "run_id": run_id,
                "subscription_id": subscription_id,
                "subscription_name": subscription_name,
                "title": title,
                "url": url,
                "summary": summary,
                "source_name": source_name,
                "reason": reason,
                "overall": overall,
                "published_at": published_at,
                "delivered_at": delivered_at,
                "read": read,
                "saved": saved,
                "not_interested": not_interested,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        run_id = d.pop("run_id")

        subscription_id = d.pop("subscription_id")

        subscription_name = d.pop("subscription_name")

        title = d.pop("title")

        url = d.pop("url")

        summary = d.pop("summary")

        source_name = d.pop("source_name")

        reason = d.pop("reason")

        overall = d.pop("overall")

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

        delivered_at = datetime.datetime.fromisoformat(d.pop("delivered_at"))

        read = d.pop("read")

        saved = d.pop("saved")

        not_interested = d.pop("not_interested")

        inbox_item = cls(
            id=id,
            run_id=run_id,
            subscription_id=subscription_id,
            subscription_name=subscription_name,
            title=title,
            url=url,
            summary=summary,
            source_name=source_name,
            reason=reason,
            overall=overall,
            published_at=published_at,
            delivered_at=delivered_at,
            read=read,
            saved=saved,
            not_interested=not_interested,
        )

        inbox_item.additional_properties = d
        return inbox_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
