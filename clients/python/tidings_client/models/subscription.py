from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.language_mode_enum import LanguageModeEnum
from ..models.reading_levels_enum import ReadingLevelsEnum
from ..models.redelivery_enum import RedeliveryEnum
from ..models.sections_enum import SectionsEnum
from ..models.subscription_status_enum import SubscriptionStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_source_weights import SubscriptionSourceWeights
    from ..models.webhook import Webhook


T = TypeVar("T", bound="Subscription")


@_attrs_define
class Subscription:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            name (str): Its name, as you gave it.
            topic (str): What to follow, in plain words; interests are derived from it when empty.
            interests (list[str]): Words or phrases an item should mention.
            negative_keywords (list[str]): Items mentioning any of these are left out.
            source_ids (list[int]): The ids of the library sources it reads (empty: the whole pool).
            source_weights (SubscriptionSourceWeights): How much each source counts in the ranking, by source id: 1 is
                normal, 0.25 to 4.
            min_score (int): Only items scoring at least this (0 to 100) are picked.
            max_items (int): At most this many items per brief.
            content_window_hours (int): Only items published within this many hours are candidates.
            redelivery (RedeliveryEnum): * `never` - Never
                * `cooldown` - After a cooldown
                * `on_content_update` - When the content changes
            cooldown_days (int): With `redelivery: cooldown`, days before an item may come again.
            cron (str): A five-field cron expression (e.g. `0 8 * * 1-5`), in `timezone`.
            timezone (str): An IANA time zone name (e.g. `Europe/Berlin`).
            run_at (datetime.datetime | None): One-off schedule.
            language_mode (LanguageModeEnum): * `follow_ui` - Follow my UI language
                * `fixed` - Fixed
            output_locale (str): The language briefs are written in when fixed (e.g. `en`); empty: follows the page
                language.
            summaries_enabled (bool): Whether each item gets a summary.
            narrative_enabled (bool): Whether the brief starts with an overview of its items.
            tone (str): The tone of the overview (e.g. `neutral`).
            reading_levels (list[ReadingLevelsEnum]): Keep only items rated at these reading levels; empty = any level.
            sections (list[SectionsEnum]): Keep only items of these sections; empty = any section.
            email_enabled (bool): Whether each brief is also e-mailed.
            email_to (str): Where e-mailed briefs go; empty: your account's address.
            email_subject (str): Subject template with {name}, {date}, {count}, {topic}; blank = default.
            email_recipient (str): Where email briefs go: email_to, else the account's address.
            email_error (str): Why the last e-mail failed; empty if none did.
            email_error_at (datetime.datetime | None): When the last e-mail failed (ISO 8601, UTC); null if none did.
            webhook (None | Webhook): The webhook briefs are posted to, or null if none.
            status (SubscriptionStatusEnum): * `active` - Active
                * `paused` - Paused
                * `completed` - Completed
            paused_reason (str): Why the platform paused it (billing.limits: plan_subscriptions, plan_interval); empty when
                its owner paused it.
            next_run_at (datetime.datetime | None): When it runs next (ISO 8601, UTC); null when it will not run again.
            last_run_at (datetime.datetime | None): When it last ran (ISO 8601, UTC); null if never.
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
            webhook_secret (str | Unset): Only in the response that created the webhook: its signing secret, shown this
                once.
    """

    id: int
    name: str
    topic: str
    interests: list[str]
    negative_keywords: list[str]
    source_ids: list[int]
    source_weights: SubscriptionSourceWeights
    min_score: int
    max_items: int
    content_window_hours: int
    redelivery: RedeliveryEnum
    cooldown_days: int
    cron: str
    timezone: str
    run_at: datetime.datetime | None
    language_mode: LanguageModeEnum
    output_locale: str
    summaries_enabled: bool
    narrative_enabled: bool
    tone: str
    reading_levels: list[ReadingLevelsEnum]
    sections: list[SectionsEnum]
    email_enabled: bool
    email_to: str
    email_subject: str
    email_recipient: str
    email_error: str
    email_error_at: datetime.datetime | None
    webhook: None | Webhook
    status: SubscriptionStatusEnum
    paused_reason: str
    next_run_at: datetime.datetime | None
    last_run_at: datetime.datetime | None
    created_at: datetime.datetime
    webhook_secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook import Webhook  # noqa: PLC0415

        id = self.id

        name = self.name

        topic = self.topic

        interests = self.interests

        negative_keywords = self.negative_keywords

        source_ids = self.source_ids

        source_weights = self.source_weights.to_dict()

        min_score = self.min_score

        max_items = self.max_items

        content_window_hours = self.content_window_hours

        redelivery = self.redelivery.value

        cooldown_days = self.cooldown_days

        cron = self.cron

        timezone = self.timezone

        run_at: None | str
        if isinstance(self.run_at, datetime.datetime):
            run_at = self.run_at.isoformat()
        else:
            run_at = self.run_at

        language_mode = self.language_mode.value

        output_locale = self.output_locale

        summaries_enabled = self.summaries_enabled

        narrative_enabled = self.narrative_enabled

        tone = self.tone

        reading_levels = []
        for reading_levels_item_data in self.reading_levels:
            reading_levels_item = reading_levels_item_data.value
            reading_levels.append(reading_levels_item)

        sections = []
        for sections_item_data in self.sections:
            sections_item = sections_item_data.value
            sections.append(sections_item)

        email_enabled = self.email_enabled

        email_to: str
        email_to = self.email_to

        email_subject = self.email_subject

        email_recipient = self.email_recipient

        email_error = self.email_error

        email_error_at: None | str
        if isinstance(self.email_error_at, datetime.datetime):
            email_error_at = self.email_error_at.isoformat()
        else:
            email_error_at = self.email_error_at

        webhook: dict[str, Any] | None
        if isinstance(self.webhook, Webhook):
            webhook = self.webhook.to_dict()
        else:
            webhook = self.webhook

        status = self.status.value

        paused_reason = self.paused_reason

        next_run_at: None | str
        if isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        last_run_at: None | str
        if isinstance(self.last_run_at, datetime.datetime):
            last_run_at = self.last_run_at.isoformat()
        else:
            last_run_at = self.last_run_at

        created_at = self.created_at.isoformat()

        webhook_secret = self.webhook_secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "topic": topic,
                "interests": interests,
                "negative_keywords": negative_keywords,
                "source_ids": source_ids,
                "source_weights": source_weights,
                "min_score": min_score,
                "max_items": max_items,
                "content_window_hours": content_window_hours,
                "redelivery": redelivery,
                "cooldown_days": cooldown_days,
                "cron": cron,
                "timezone": timezone,
                "run_at": run_at,
                "language_mode": language_mode,
                "output_locale": output_locale,
                "summaries_enabled": summaries_enabled,
                "narrative_enabled": narrative_enabled,
                "tone": tone,
                "reading_levels": reading_levels,
                "sections": sections,
                "email_enabled": email_enabled,
                "email_to": email_to,
                "email_subject": email_subject,
                "email_recipient": email_recipient,
                "email_error": email_error,
                "email_error_at": email_error_at,
                "webhook": webhook,
                "status": status,
                "paused_reason": paused_reason,
                "next_run_at": next_run_at,
                "last_run_at": last_run_at,
                "created_at": created_at,
            }
        )
        if webhook_secret is not UNSET:
            field_dict["webhook_secret"] = webhook_secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription_source_weights import SubscriptionSourceWeights  # noqa: PLC0415
        from ..models.webhook import Webhook  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        topic = d.pop("topic")

        interests = cast(list[str], d.pop("interests"))

        negative_keywords = cast(list[str], d.pop("negative_keywords"))

        source_ids = cast(list[int], d.pop("source_ids"))

        source_weights = SubscriptionSourceWeights.from_dict(d.pop("source_weights"))

        min_score = d.pop("min_score")

        max_items = d.pop("max_items")

        content_window_hours = d.pop("content_window_hours")

        redelivery = RedeliveryEnum(d.pop("redelivery"))

        cooldown_days = d.pop("cooldown_days")

        cron = d.pop("cron")

        timezone = d.pop("timezone")

        def _parse_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                run_at_type_0 = datetime.datetime.fromisoformat(data)

                return run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        run_at = _parse_run_at(d.pop("run_at"))

        language_mode = LanguageModeEnum(d.pop("language_mode"))

        output_locale = d.pop("output_locale")

        summaries_enabled = d.pop("summaries_enabled")

        narrative_enabled = d.pop("narrative_enabled")

        tone = d.pop("tone")

        reading_levels = []
        _reading_levels = d.pop("reading_levels")
        for reading_levels_item_data in _reading_levels:
            reading_levels_item = ReadingLevelsEnum(reading_levels_item_data)

            reading_levels.append(reading_levels_item)

        sections = []
        _sections = d.pop("sections")
        for sections_item_data in _sections:
            sections_item = SectionsEnum(sections_item_data)

            sections.append(sections_item)

        email_enabled = d.pop("email_enabled")

        def _parse_email_to(data: object) -> str:
            return cast(str, data)

        email_to = _parse_email_to(d.pop("email_to"))

        email_subject = d.pop("email_subject")

        email_recipient = d.pop("email_recipient")

        email_error = d.pop("email_error")

        def _parse_email_error_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                email_error_at_type_0 = datetime.datetime.fromisoformat(data)

                return email_error_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        email_error_at = _parse_email_error_at(d.pop("email_error_at"))

        def _parse_webhook(data: object) -> None | Webhook:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                webhook_type_0 = Webhook.from_dict(data)

                return webhook_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Webhook, data)

        webhook = _parse_webhook(d.pop("webhook"))

        status = SubscriptionStatusEnum(d.pop("status"))

        paused_reason = d.pop("paused_reason")

        def _parse_next_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_run_at = _parse_next_run_at(d.pop("next_run_at"))

        def _parse_last_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_run_at = _parse_last_run_at(d.pop("last_run_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        webhook_secret = d.pop("webhook_secret", UNSET)

        subscription = cls(
            id=id,
            name=name,
            topic=topic,
            interests=interests,
            negative_keywords=negative_keywords,
            source_ids=source_ids,
            source_weights=source_weights,
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
            email_recipient=email_recipient,
            email_error=email_error,
            email_error_at=email_error_at,
            webhook=webhook,
            status=status,
            paused_reason=paused_reason,
            next_run_at=next_run_at,
            last_run_at=last_run_at,
            created_at=created_at,
            webhook_secret=webhook_secret,
        )

        subscription.additional_properties = d
        return subscription

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
