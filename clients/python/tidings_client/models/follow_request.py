from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.language_mode_enum import LanguageModeEnum
from ..models.timezone_enum import TimezoneEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="FollowRequest")


@_attrs_define
class FollowRequest:
    """
    Attributes:
        cron (str | Unset): A cron expression or macro (`0 8 * * 1-5`, `@daily`); empty with run_at.
        interests (list[str] | Unset): Words or phrases an item should mention (at most 30).
        language_mode (LanguageModeEnum | Unset): * `follow_ui` - Follow my UI language
            * `fixed` - Fixed
        max_items (int | Unset): At most this many items per brief.
        min_score (int | Unset): Only items scoring at least this (0 to 100) are picked.
        negative_keywords (list[str] | Unset): Items mentioning any of these are left out.
        output_locale (str | Unset): One of en, zh-hans, ja, ko (any case); needed when language_mode is fixed.
        timezone (TimezoneEnum | Unset):
    """

    cron: str | Unset = UNSET
    interests: list[str] | Unset = UNSET
    language_mode: LanguageModeEnum | Unset = UNSET
    max_items: int | Unset = UNSET
    min_score: int | Unset = UNSET
    negative_keywords: list[str] | Unset = UNSET
    output_locale: str | Unset = UNSET
    timezone: TimezoneEnum | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        cron: str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        interests: list[str] | Unset = UNSET
        if not isinstance(self.interests, Unset):
            interests = self.interests

        language_mode: str | Unset = UNSET
        if not isinstance(self.language_mode, Unset):
            language_mode = self.language_mode.value

        max_items = self.max_items

        min_score = self.min_score

        negative_keywords: list[str] | Unset = UNSET
        if not isinstance(self.negative_keywords, Unset):
            negative_keywords = self.negative_keywords

        output_locale: str | Unset
        if isinstance(self.output_locale, Unset):
            output_locale = UNSET
        else:
            output_locale = self.output_locale

        timezone: str | Unset = UNSET
        if not isinstance(self.timezone, Unset):
            timezone = self.timezone.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if cron is not UNSET:
            field_dict["cron"] = cron
        if interests is not UNSET:
            field_dict["interests"] = interests
        if language_mode is not UNSET:
            field_dict["language_mode"] = language_mode
        if max_items is not UNSET:
            field_dict["max_items"] = max_items
        if min_score is not UNSET:
            field_dict["min_score"] = min_score
        if negative_keywords is not UNSET:
            field_dict["negative_keywords"] = negative_keywords
        if output_locale is not UNSET:
            field_dict["output_locale"] = output_locale
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_cron(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        cron = _parse_cron(d.pop("cron", UNSET))

        interests = cast(list[str], d.pop("interests", UNSET))

        _language_mode = d.pop("language_mode", UNSET)
        language_mode: LanguageModeEnum | Unset
        if isinstance(_language_mode, Unset):
            language_mode = UNSET
        else:
            language_mode = LanguageModeEnum(_language_mode)

        max_items = d.pop("max_items", UNSET)

        min_score = d.pop("min_score", UNSET)

        negative_keywords = cast(list[str], d.pop("negative_keywords", UNSET))

        def _parse_output_locale(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        output_locale = _parse_output_locale(d.pop("output_locale", UNSET))

        _timezone = d.pop("timezone", UNSET)
        timezone: TimezoneEnum | Unset
        if isinstance(_timezone, Unset):
            timezone = UNSET
        else:
            timezone = TimezoneEnum(_timezone)

        follow_request = cls(
            cron=cron,
            interests=interests,
            language_mode=language_mode,
            max_items=max_items,
            min_score=min_score,
            negative_keywords=negative_keywords,
            output_locale=output_locale,
            timezone=timezone,
        )

        return follow_request
