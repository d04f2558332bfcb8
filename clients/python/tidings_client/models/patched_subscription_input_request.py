from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.language_mode_enum import LanguageModeEnum
from ..models.length_enum import LengthEnum
from ..models.reading_levels_enum import ReadingLevelsEnum
from ..models.redelivery_enum import RedeliveryEnum
from ..models.sections_enum import SectionsEnum
from ..models.timezone_enum import TimezoneEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patched_subscription_input_request_source_weights import (
        PatchedSubscriptionInputRequestSourceWeights,
    )


T = TypeVar("T", bound="PatchedSubscriptionInputRequest")


@_attrs_define
class PatchedSubscriptionInputRequest:
    """What a client sends to create (POST) or change (PATCH, any subset) a subscription. Only
    types and sizes are checked here; the rules and their messages are the service's
    (digests.subscriptions.service.clean_input), shared with the console.

        Attributes:
            name (str | Unset): Its name, as you gave it.
            topic (str | Unset): What to follow, in plain words; interests are derived from it when empty.
            interests (list[str] | Unset): Words or phrases an item should mention (at most 30).
            negative_keywords (list[str] | Unset): Items mentioning any of these are left out.
            source_ids (list[int] | Unset): Sources from your library (`source_id` of /api/v1/sources).
            source_weights (PatchedSubscriptionInputRequestSourceWeights | Unset): How much a source counts in the ranking,
                by source id (a key of this subscription's source_ids): a number from 0.25 to 4, 1 is normal; sources not named
                keep theirs.
            length (LengthEnum | Unset): * `brief` - brief
                * `standard` - standard
                * `deep` - deep
            min_score (int | Unset): Only items scoring at least this (0 to 100) are picked.
            max_items (int | Unset): At most this many items per brief.
            content_window_hours (int | Unset): Only items published within this many hours are candidates.
            redelivery (RedeliveryEnum | Unset): * `never` - Never
                * `cooldown` - After a cooldown
                * `on_content_update` - When the content changes
            cooldown_days (int | Unset): With `redelivery: cooldown`, days before an item may come again.
            cron (str | Unset): A cron expression or macro (`0 8 * * 1-5`, `@daily`); empty with run_at.
            timezone (TimezoneEnum | Unset):
            run_at (datetime.datetime | None | Unset): A one-off run instead of a cron schedule.
            language_mode (LanguageModeEnum | Unset): * `follow_ui` - Follow my UI language
                * `fixed` - Fixed
            output_locale (str | Unset): One of en, zh-hans, ja, ko (any case); needed when language_mode is fixed.
            summaries_enabled (bool | Unset): Whether each item gets a summary.
            narrative_enabled (bool | Unset): Whether the brief starts with an overview of its items.
            tone (str | Unset): The tone of the overview (e.g. `neutral`).
            reading_levels (list[ReadingLevelsEnum] | Unset): The reading levels summaries are written for (L1 simplest).
            sections (list[SectionsEnum] | Unset): Article sections to keep, of 정치, 경제, 사회, 국제, 문화, 생활, 연예, 스포츠, IT, 과학,
                오피니언; empty = any. An item whose section is not known is left out while any is chosen.
            email_enabled (bool | Unset): Email each brief too.
            email_to (str | Unset): Empty: your account's.
            email_subject (str | Unset): The e-mail's subject, one line, with {name}, {date}, {count} or {topic}; empty: the
                brief's default subject.
            webhook_url (str | Unset): Set: each brief is POSTed there as signed JSON. Empty string: no webhook.
    """

    name: str | Unset = UNSET
    topic: str | Unset = UNSET
    interests: list[str] | Unset = UNSET
    negative_keywords: list[str] | Unset = UNSET
    source_ids: list[int] | Unset = UNSET
    source_weights: PatchedSubscriptionInputRequestSourceWeights | Unset = UNSET
    length: LengthEnum | Unset = UNSET
    min_score: int | Unset = UNSET
    max_items: int | Unset = UNSET
    content_window_hours: int | Unset = UNSET
    redelivery: RedeliveryEnum | Unset = UNSET
    cooldown_days: int | Unset = UNSET
    cron: str | Unset = UNSET
    timezone: TimezoneEnum | Unset = UNSET
    run_at: datetime.datetime | None | Unset = UNSET
    language_mode: LanguageModeEnum | Unset = UNSET
    output_locale: str | Unset = UNSET
    summaries_enabled: bool | Unset = UNSET
    narrative_enabled: bool | Unset = UNSET
    tone: str | Unset = UNSET
    reading_levels: list[ReadingLevelsEnum] | Unset = UNSET
    sections: list[SectionsEnum] | Unset = UNSET
    email_enabled: bool | Unset = UNSET
    email_to: str | Unset = UNSET
    email_subject: str | Unset = UNSET
    webhook_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        topic: str | Unset
        if isinstance(self.topic, Unset):
            topic = UNSET
        else:
            topic = self.topic

        interests: list[str] | Unset = UNSET
        if not isinstance(self.interests, Unset):
            interests = self.interests

        negative_keywords: list[str] | Unset = UNSET
        if not isinstance(self.negative_keywords, Unset):
            negative_keywords = self.negative_keywords

        source_ids: list[int] | Unset = UNSET
        if not isinstance(self.source_ids, Unset):
            source_ids = self.source_ids

        source_weights: dict[str, Any] | Unset = UNSET
        if not isinstance(self.source_weights, Unset):
            source_weights = self.source_weights.to_dict()

        length: str | Unset = UNSET
        if not isinstance(self.length, Unset):
            length = self.length.value

        min_score = self.min_score

        max_items = self.max_items

        content_window_hours = self.content_window_hours

        redelivery: str | Unset = UNSET
        if not isinstance(self.redelivery, Unset):
            redelivery = self.redelivery.value

        cooldown_days = self.cooldown_days

        cron: str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        timezone: str | Unset = UNSET
        if not isinstance(self.timezone, Unset):
            timezone = self.timezone.value

        run_at: None | str | Unset
        if isinstance(self.run_at, Unset):
            run_at = UNSET
        elif isinstance(self.run_at, datetime.datetime):
            run_at = self.run_at.isoformat()
        else:
            run_at = self.run_at

        language_mode: str | Unset = UNSET
        if not isinstance(self.language_mode, Unset):
            language_mode = self.language_mode.value

        output_locale: str | Unset
        if isinstance(self.output_locale, Unset):
            output_locale = UNSET
        else:
            output_locale = self.output_locale

        summaries_enabled = self.summaries_enabled

        narrative_enabled = self.narrative_enabled

        tone = self.tone

        reading_levels: list[str] | Unset = UNSET
        if not isinstance(self.reading_levels, Unset):
            reading_levels = []
            for reading_levels_item_data in self.reading_levels:
                reading_levels_item = reading_levels_item_data.value
                reading_levels.append(reading_levels_item)

        sections: list[str] | Unset = UNSET
        if not isinstance(self.sections, Unset):
            sections = []
            for sections_item_data in self.sections:
                sections_item = sections_item_data.value
                sections.append(sections_item)

        email_enabled = self.email_enabled

        email_to: str | Unset
        if isinstance(self.email_to, Unset):
            email_to = UNSET
        else:
            email_to = self.email_to

        email_subject: str | Unset
        if isinstance(self.email_subject, Unset):
            email_subject = UNSET
        else:
            email_subject = self.email_subject

        webhook_url: str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if topic is not UNSET:
            field_dict["topic"] = topic
        if interests is not UNSET:
            field_dict["interests"] = interests
        if negative_keywords is not UNSET:
            field_dict["negative_keywords"] = negative_keywords
        if source_ids is not UNSET:
            field_dict["source_ids"] = source_ids
        if source_weights is not UNSET:
            field_dict["source_weights"] = source_weights
        if length is not UNSET:
            field_dict["length"] = length
        if min_score is not UNSET:
            field_dict["min_score"] = min_score
        if max_items is not UNSET:
            field_dict["max_items"] = max_items
        if content_window_hours is not UNSET:
            field_dict["content_window_hours"] = content_window_hours
        if redelivery is not UNSET:
            field_dict["redelivery"] = redelivery
        if cooldown_days is not UNSET:
            field_dict["cooldown_days"] = cooldown_days
        if cron is not UNSET:
            field_dict["cron"] = cron
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if run_at is not UNSET:
            field_dict["run_at"] = run_at
        if language_mode is not UNSET:
            field_dict["language_mode"] = language_mode
        if output_locale is not UNSET:
            field_dict["output_locale"] = output_locale
        if summaries_enabled is not UNSET:
            field_dict["summaries_enabled"] = summaries_enabled
        if narrative_enabled is not UNSET:
            field_dict["narrative_enabled"] = narrative_enabled
        if tone is not UNSET:
            field_dict["tone"] = tone
        if reading_levels is not UNSET:
            field_dict["reading_levels"] = reading_levels
        if sections is not UNSET:
            field_dict["sections"] = sections
        if email_enabled is not UNSET:
            field_dict["email_enabled"] = email_enabled
        if email_to is not UNSET:
            field_dict["email_to"] = email_to
        if email_subject is not UNSET:
            field_dict["email_subject"] = email_subject
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patched_subscription_input_request_source_weights import (
            PatchedSubscriptionInputRequestSourceWeights,  # noqa: PLC0415
        )

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_topic(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        topic = _parse_topic(d.pop("topic", UNSET))

        interests = cast(list[str], d.pop("interests", UNSET))

        negative_keywords = cast(list[str], d.pop("negative_keywords", UNSET))

        source_ids = cast(list[int], d.pop("source_ids", UNSET))

        _source_weights = d.pop("source_weights", UNSET)
        source_weights: PatchedSubscriptionInputRequestSourceWeights | Unset
        if isinstance(_source_weights, Unset):
            source_weights = UNSET
        else:
            source_weights = PatchedSubscriptionInputRequestSourceWeights.from_dict(
                _source_weights
            )

        _length = d.pop("length", UNSET)
        length: LengthEnum | Unset
        if isinstance(_length, Unset):
            length = UNSET
        else:
            length = LengthEnum(_length)

        min_score = d.pop("min_score", UNSET)

        max_items = d.pop("max_items", UNSET)

        content_window_hours = d.pop("content_window_hours", UNSET)

        _redelivery = d.pop("redelivery", UNSET)
        redelivery: RedeliveryEnum | Unset
        if isinstance(_redelivery, Unset):
            redelivery = UNSET
        else:
            redelivery = RedeliveryEnum(_redelivery)

        cooldown_days = d.pop("cooldown_days", UNSET)

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

        def _parse_run_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                run_at_type_0 = datetime.datetime.fromisoformat(data)

                return run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        run_at = _parse_run_at(d.pop("run_at", UNSET))

        _language_mode = d.pop("language_mode", UNSET)
        language_mode: LanguageModeEnum | Unset
        if isinstance(_language_mode, Unset):
            language_mode = UNSET
        else:
            language_mode = LanguageModeEnum(_language_mode)

        def _parse_output_locale(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        output_locale = _parse_output_locale(d.pop("output_locale", UNSET))

        summaries_enabled = d.pop("summaries_enabled", UNSET)

        narrative_enabled = d.pop("narrative_enabled", UNSET)

        tone = d.pop("tone", UNSET)

        _reading_levels = d.pop("reading_levels", UNSET)
        reading_levels: list[ReadingLevelsEnum] | Unset = UNSET
        if _reading_levels is not UNSET:
            reading_levels = []
            for reading_levels_item_data in _reading_levels:
                reading_levels_item = ReadingLevelsEnum(reading_levels_item_data)

                reading_levels.append(reading_levels_item)

        _sections = d.pop("sections", UNSET)
        sections: list[SectionsEnum] | Unset = UNSET
        if _sections is not UNSET:
            sections = []
            for sections_item_data in _sections:
                sections_item = SectionsEnum(sections_item_data)

                sections.append(sections_item)

        email_enabled = d.pop("email_enabled", UNSET)

        def _parse_email_to(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        email_to = _parse_email_to(d.pop("email_to", UNSET))

        def _parse_email_subject(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        email_subject = _parse_email_subject(d.pop("email_subject", UNSET))

        def _parse_webhook_url(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))

        patched_subscription_input_request = cls(
            name=name,
            topic=topic,
            interests=interests,
            negative_keywords=negative_keywords,
            source_ids=source_ids,
            source_weights=source_weights,
            length=length,
            min_score=min_score,
            max_items=max_items,
            content_window_hours=content_window_hours,
            redelivery=redelivery,
            cooldown_days=cooldown_days,
            cron=cron,
            timezone=timezone,
            run_at=run_at,
            language_mode=language_mode,
            output_locale=output_locale,
            summaries_enabled=summaries_enabled,
            narrative_enabled=narrative_enabled,
            tone=tone,
            reading_levels=reading_levels,
            sections=sections,
            email_enabled=email_enabled,
            email_to=email_to,
            email_subject=email_subject,
            webhook_url=webhook_url,
        )

        return patched_subscription_input_request
