"""What every channel sends: a run's brief as the Inbox shows it — overview, items, sources —
read once from the run's snapshots, never from the live pool."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from digests.models import Run, RunItem
from digests.narrative.language import output_locale_for, shown_overview
from digests.narrative.reasons import why_selected


@dataclass(frozen=True)
class BriefItem:
    rank: int
    title: str
    url: str
    summary: str
    summary_generator: str
    source_name: str
    reason: str
    published_at: datetime | None
    redelivered: bool


@dataclass
class Brief:
    run_id: int
    subscription_id: int
    subscription_name: str
    topic: str
    locale: str
    timezone: str
    scheduled_at: datetime
    narrative_md: str
    narrative_generator: str
    # A model's overview in another language than the brief's: that language's name.
    narrative_written_in: str = ""
    items: list[BriefItem] = field(default_factory=list)

    @property
    def inbox_url(self) -> str:
        """The brief's own page in the Inbox."""
        return absolute_url(reverse("inbox:run", args=[self.run_id]))

    @property
    def subscription_url(self) -> str:
        return absolute_url(reverse("digests:detail", args=[self.subscription_id]))

    @property
    def local_date(self) -> date:
        """The day of the brief where its reader lives (the subscription's time zone)."""
        try:
            zone = ZoneInfo(self.timezone)
        except (ValueError, KeyError):
            zone = ZoneInfo("UTC")
        return self.scheduled_at.astimezone(zone).date()

    @property
    def narrative_by_model(self) -> bool:
        return bool(self.narrative_generator) and self.narrative_generator != "template"

    def as_payload(self) -> dict:
        """The brief as JSON-ready data (the webhook's `data`)."""
        return {
            "run_id": self.run_id,
            "subscription": {"id": self.subscription_id, "name": self.subscription_name},
            "scheduled_at": self.scheduled_at.isoformat(),
            "locale": self.locale,
            "url": self.inbox_url,
            "overview": {"markdown": self.narrative_md, "generator": self.narrative_generator},
            "items": [
                {
                    **asdict(item),
                    "published_at": item.published_at.isoformat() if item.published_at else None,
                }
                for item in self.items
            ],
        }


def absolute_url(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def brief_for_run(run: Run) -> Brief:
    """The brief of a run (its subscription selected along, or one query more), and its items
    in one query, in the language its reader reads it in now (digests.narrative.language):
    an email sent after they switched language reads in the new one."""
    subscription = run.subscription
    locale = output_locale_for(subscription)
    items = RunItem.objects.filter(run_id=run.pk).order_by("rank")
    with translation.override(locale):
        overview = shown_overview(run, locale)
        return Brief(
            run_id=run.pk,
            subscription_id=subscription.pk,
            subscription_name=subscription.name,
            topic=subscription.topic,
            locale=locale,
            timezone=subscription.timezone,
            scheduled_at=run.scheduled_at,
            narrative_md=overview.markdown,
            narrative_generator=run.narrative_generator,
            narrative_written_in=overview.written_in,
            items=[
                BriefItem(
                    rank=item.rank,
                    title=item.title,
                    url=item.url,
                    summary=item.summary,
                    summary_generator=item.summary_generator,
                    source_name=item.source_name,
                    reason=why_selected(item),
                    published_at=item.published_at,
                    redelivered=item.redelivered,
                )
                for item in items
            ],
        )
