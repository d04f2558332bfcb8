from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.edition_item import EditionItem


T = TypeVar("T", bound="Edition")


@_attrs_define
class Edition:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            edition_date (datetime.date): The date in the topic's timezone.
            published_at (datetime.datetime | None): When its source published it, if it says (ISO 8601, UTC).
            item_count (int): How many items it holds.
            url (str): Its address (http or https).
            output_locale (str): The language briefs are written in when fixed (e.g. `en`); empty: follows the page
                language.
            narrative_md (str): The brief's overview, in safe Markdown.
            items (list[EditionItem]): Its items, in the brief's order.
    """

    id: int
    edition_date: datetime.date
    published_at: datetime.datetime | None
    item_count: int
    url: str
    output_locale: str
    narrative_md: str
    items: list[EditionItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        edition_date = self.edition_date.isoformat()

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        item_count = self.item_count

        url = self.url

        output_locale = self.output_locale

        narrative_md = self.narrative_md

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "edition_date": edition_date,
                "published_at": published_at,
                "item_count": item_count,
                "url": url,
                "output_locale": output_locale,
                "narrative_md": narrative_md,
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.edition_item import EditionItem  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        edition_date = datetime.date.fromisoformat(d.pop("edition_date"))

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

        item_count = d.pop("item_count")

        url = d.pop("url")

        output_locale = d.pop("output_locale")

        narrative_md = d.pop("narrative_md")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = EditionItem.from_dict(items_item_data)

            items.append(items_item)

        edition = cls(
            id=id,
            edition_date=edition_date,
            published_at=published_at,
            item_count=item_count,
            url=url,
            output_locale=output_locale,
            narrative_md=narrative_md,
            items=items,
        )

        edition.additional_properties = d
        return edition

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
