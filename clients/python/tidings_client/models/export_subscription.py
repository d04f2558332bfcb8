from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.export_subscription_language_mode import ExportSubscriptionLanguageMode
from ..models.export_subscription_redelivery import ExportSubscriptionRedelivery
from ..models.export_subscription_status import ExportSubscriptionStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_subscription_sources_item import ExportSubscriptionSourcesItem


T = TypeVar("T", bound="ExportSubscription")


@_attrs_define
class ExportSubscription:
    """
    Attributes:
        id (int): Its id: a positive whole number, stable, unique among its kind.
        name (str): Its name, as you gave it.
        topic (str): What to follow, in plain words; interests are derived from it when empty.
        interests (list[str]): Words and phrases an item should be about.
        negative_keywords (list[str]): Words that make an item unwanted.
        min_score (int): Only items scoring at least this (0 to 100) are picked.
        max_items (int): At most this many items per brief.
        content_window_hours (int): Only items published within this many hours are candidates.
        redelivery (ExportSubscriptionRedelivery): Whether an item already delivered may come again: `never`, after
            `cooldown_days` (`cooldown`), or when its content changes (`on_content_update`).
        cooldown_days (int): With `redelivery: cooldown`, days before an item may come again.
        cron (str): A five-field cron expression (e.g. `0 8 * * 1-5`), in `timezone`.
        timezone (str): An IANA time zone name (e.g. `Europe/Berlin`).
        run_at (datetime.datetime | None): A one-off subscription's moment; null for a scheduled one.
        language_mode (ExportSubscriptionLanguageMode): `follow_ui`: briefs in your page language; `fixed`: in
            `output_locale`.
        output_locale (str): The language briefs are written in when fixed (e.g. `en`); empty: follows the page
            language.
        summaries_enabled (bool): Whether each item gets a summary.
        narrative_enabled (bool): Whether the brief starts with an overview of its items.
        tone (str): The tone of the overview (e.g. `neutral`).
        reading_levels (list[str]): The reading levels summaries are written for (L1 simplest).
        status (ExportSubscriptionStatus): Its state now (one of the values listed).
        paused_reason (str): Why it is paused, when the system paused it; else empty.
        email_enabled (bool): Whether each brief is also e-mailed.
        email_to (str): Where e-mailed briefs go; empty: your account's address.
        email_subject (str): The e-mail's subject; empty: the brief's default subject.
        created_at (datetime.datetime): When it was made (ISO 8601, UTC).
        deleted_at (datetime.datetime | None): When it was deleted (its runs are kept); null while it lives.
        webhook_url (str): Where its briefs are posted; empty if none (the secret is not exported).
        sources (list[ExportSubscriptionSourcesItem]): Sources.
        sections (list[str] | Unset): Naver News sections to follow (Korean news sources only).
    """

    id: int
    name: str
    topic: str
    interests: list[str]
    negative_keywords: list[str]
    min_score: int
    max_items: int
    content_window_hours: int
    redelivery: ExportSubscriptionRedelivery
    cooldown_days: int
    cron: str
    timezone: str
    run_at: datetime.datetime | None
    language_mode: ExportSubscriptionLanguageMode
    output_locale: str
    summaries_enabled: bool
    narrative_enabled: bool
    tone: str
    reading_levels: list[str]
    status: ExportSubscriptionStatus
    paused_reason: str
    email_enabled: bool
    email_to: str
    email_subject: str
    created_at: datetime.datetime
    deleted_at: datetime.datetime | None
    webhook_url: str
    sources: list[ExportSubscriptionSourcesItem]
    sections: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        topic = self.topic

        interests = self.interests

        negative_keywords = self.negative_keywords

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

        reading_levels = self.reading_levels

        status = self.status.value

        paused_reason = self.paused_reason

        email_enabled = self.email_enabled

        email_to = self.email_to

        email_subject = self.email_subject

        created_at = self.created_at.isoformat()

        deleted_at: None | str
        if isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        webhook_url = self.webhook_url

        sources = []
        for sources_item_data in self.sources:
            sources_item = sources_item_data.to_dict()
            sources.append(sources_item)

        sections: list[str] | Unset = UNSET
        if not isinstance(self.sections, Unset):
            sections = self.sections

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "topic": topic,
                "interests": interests,
                "negative_keywords": negative_keywords,
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
                "status": status,
                "paused_reason": paused_reason,
                "email_enabled": email_enabled,
                "email_to": email_to,
                "email_subject": email_subject,
                "created_at": created_at,
                "deleted_at": deleted_at,
                "webhook_url": webhook_url,
                "sources": sources,
            }
        )
        if sections is not UNSET:
            field_dict["sections"] = sections

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_subscription_sources_item import (
            ExportSubscriptionSourcesItem,  # noqa: PLC0415
        )

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        topic = d.pop("topic")

        interests = cast(list[str], d.pop("interests"))

        negative_keywords = cast(list[str], d.pop("negative_keywords"))

        min_score = d.pop("min_score")

        max_items = d.pop("max_items")

        content_window_hours = d.pop("content_window_hours")

        redelivery = ExportSubscriptionRedelivery(d.pop("redelivery"))

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

        language_mode = ExportSubscriptionLanguageMode(d.pop("language_mode"))

        output_locale = d.pop("output_locale")

        summaries_enabled = d.pop("summaries_enabled")

        narrative_enabled = d.pop("narrative_enabled")

        tone = d.pop("tone")

        reading_levels = cast(list[str], d.pop("reading_levels"))

        status = ExportSubscriptionStatus(d.pop("status"))

        paused_reason = d.pop("paused_reason")

        email_enabled = d.pop("email_enabled")

        email_to = d.pop("email_to")

        email_subject = d.pop("email_subject")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_deleted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deleted_at = _parse_deleted_at(d.pop("deleted_at"))

        webhook_url = d.pop("webhook_url")

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in _sources:
            sources_item = ExportSubscriptionSourcesItem.from_dict(sources_item_data)

            sources.append(sources_item)

        sections = cast(list[str], d.pop("sections", UNSET))

        export_subscription = cls(
            id=id,
            name=name,
            topic=topic,
            interests=interests,
            negative_keywords=negative_keywords,
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
            status=status,
            paused_reason=paused_reason,
            email_enabled=email_enabled,
            email_to=email_to,
            email_subject=email_subject,
            created_at=created_at,
            deleted_at=deleted_at,
            webhook_url=webhook_url,
            sources=sources,
            sections=sections,
        )

        return export_subscription
