from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.owned_topic_status_enum import OwnedTopicStatusEnum
from ..models.visibility_enum import VisibilityEnum

T = TypeVar("T", bound="OwnedTopic")


@_attrs_define
class OwnedTopic:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            slug (str): The topic's URL name: lowercase letters, digits and hyphens.
            title (str): Its title, as its source gives it.
            description (str): Its description, in plain words.
            locale (str): The language it is written in (e.g. `en`).
            cron (str): A five-field cron expression (e.g. `0 8 * * 1-5`), in `timezone`.
            timezone (str): An IANA time zone name (e.g. `Europe/Berlin`).
            follower_count (int): How many follow it.
            trending_score (float): How much it is followed lately (the trending job's figure); the public list sorts by it.
            quality_score (float): A quality figure the trending job computes (topics/trending.py).
            last_edition_at (datetime.datetime | None): When its latest edition was made (ISO 8601, UTC); null if none yet.
            url (str): Its address (http or https).
            feed_url (str): Its public Atom feed.
            visibility (VisibilityEnum): * `public` - Public
                * `private` - Private
            status (OwnedTopicStatusEnum): * `active` - Active
                * `taken_down` - Taken down
                * `deleted` - Deleted
    """

    slug: str
    title: str
    description: str
    locale: str
    cron: str
    timezone: str
    follower_count: int
    trending_score: float
    quality_score: float
    last_edition_at: datetime.datetime | None
    url: str
    feed_url: str
    visibility: VisibilityEnum
    status: OwnedTopicStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        description = self.description

        locale = self.locale

        cron = self.cron

        timezone = self.timezone

        follower_count = self.follower_count

        trending_score = self.trending_score

        quality_score = self.quality_score

        last_edition_at: None | str
        if isinstance(self.last_edition_at, datetime.datetime):
            last_edition_at = self.last_edition_at.isoformat()
        else:
            last_edition_at = self.last_edition_at

        url = self.url

        feed_url = self.feed_url

        visibility = self.visibility.value

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "description": description,
                "locale": locale,
                "cron": cron,
                "timezone": timezone,
                "follower_count": follower_count,
                "trending_score": trending_score,
                "quality_score": quality_score,
                "last_edition_at": last_edition_at,
                "url": url,
                "feed_url": feed_url,
                "visibility": visibility,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        description = d.pop("description")

        locale = d.pop("locale")

        cron = d.pop("cron")

        timezone = d.pop("timezone")

        follower_count = d.pop("follower_count")

        trending_score = d.pop("trending_score")

        quality_score = d.pop("quality_score")

        def _parse_last_edition_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_edition_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_edition_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_edition_at = _parse_last_edition_at(d.pop("last_edition_at"))

        url = d.pop("url")

        feed_url = d.pop("feed_url")

        visibility = VisibilityEnum(d.pop("visibility"))

        status = OwnedTopicStatusEnum(d.pop("status"))

        owned_topic = cls(
            slug=slug,
            title=title,
            description=description,
            locale=locale,
            cron=cron,
            timezone=timezone,
            follower_count=follower_count,
            trending_score=trending_score,
            quality_score=quality_score,
            last_edition_at=last_edition_at,
            url=url,
            feed_url=feed_url,
            visibility=visibility,
            status=status,
        )

        owned_topic.additional_properties = d
        return owned_topic

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
