from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.timezone_enum import TimezoneEnum
from ..models.visibility_enum import VisibilityEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PublishRequest")


@_attrs_define
class PublishRequest:
    """What an owner may change on a topic (PATCH: any subset). Only types and sizes here; the
    rules and their messages are topics.publishing's, shared with the console.

        Attributes:
            subscription_id (int): The subscription whose configuration is published.
            title (str | Unset): Its title, as its source gives it.
            description (str | Unset): Its description, in plain words.
            slug (str | Unset): Lowercase letters, digits and hyphens; empty: made from the title.
            visibility (VisibilityEnum | Unset): * `public` - Public
                * `private` - Private
            cron (str | Unset): At most daily (editions are at least 24 hours apart); empty: the subscription's.
            timezone (TimezoneEnum | Unset):
    """

    subscription_id: int
    title: str | Unset = UNSET
    description: str | Unset = UNSET
    slug: str | Unset = UNSET
    visibility: VisibilityEnum | Unset = UNSET
    cron: str | Unset = UNSET
    timezone: TimezoneEnum | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        title = self.title

        description: str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        slug: str | Unset
        if isinstance(self.slug, Unset):
            slug = UNSET
        else:
            slug = self.slug

        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility.value

        cron: str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        timezone: str | Unset = UNSET
        if not isinstance(self.timezone, Unset):
            timezone = self.timezone.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription_id": subscription_id,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description
        if slug is not UNSET:
            field_dict["slug"] = slug
        if visibility is not UNSET:
            field_dict["visibility"] = visibility
        if cron is not UNSET:
            field_dict["cron"] = cron
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subscription_id = d.pop("subscription_id")

        title = d.pop("title", UNSET)

        def _parse_description(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_slug(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        slug = _parse_slug(d.pop("slug", UNSET))

        _visibility = d.pop("visibility", UNSET)
        visibility: VisibilityEnum | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = VisibilityEnum(_visibility)

        def _parse_cron(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        cron = _parse_cron(d.pop("cron", UNSET))

        _timezone = d.pop("timezone", UNSET)
        timezone: TimezoneEnum | Unset
        if isinstance(_timezone, Unset):
            timezone = UNSET
        else:
            timezone = TimezoneEnum(_timezone)

        publish_request = cls(
            subscription_id=subscription_id,
            title=title,
            description=description,
            slug=slug,
            visibility=visibility,
            cron=cron,
            timezone=timezone,
        )

        return publish_request
