from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PreviewItem")


@_attrs_define
class PreviewItem:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            item_id (int): The id of the item in the shared content pool.
            title (str): Its title, as its source gives it.
            url (str): Its address (http or https).
            source_name (str): The name of the source it came from.
            published_at (datetime.datetime | None): When its source published it, if it says (ISO 8601, UTC).
            relevance (int): How well it matches the interests, 0 to 100.
            overall (int): Its overall score, 0 to 100 (the brief's picking order).
            reason (str): Why, in plain words.
            redelivery (bool): Whether an item already delivered may come again: `never`, after `cooldown_days`
                (`cooldown`), or when its content changes (`on_content_update`).
    """

    item_id: int
    title: str
    url: str
    source_name: str
    published_at: datetime.datetime | None
    relevance: int
    overall: int
    reason: str
    redelivery: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        item_id = self.item_id

        title = self.title

        url = self.url

        source_name = self.source_name

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        relevance = self.relevance

        overall = self.overall

        reason = self.reason

        redelivery = self.redelivery

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "item_id": item_id,
                "title": title,
                "url": url,
                "source_name": source_name,
                "published_at": published_at,
                "relevance": relevance,
                "overall": overall,
                "reason": reason,
                "redelivery": redelivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        item_id = d.pop("item_id")

        title = d.pop("title")

        url = d.pop("url")

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

        relevance = d.pop("relevance")

        overall = d.pop("overall")

        reason = d.pop("reason")

        redelivery = d.pop("redelivery")

        preview_item = cls(
            item_id=item_id,
            title=title,
            url=url,
            source_name=source_name,
            published_at=published_at,
            relevance=relevance,
            overall=overall,
            reason=reason,
            redelivery=redelivery,
        )

        preview_item.additional_properties = d
        return preview_item

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
