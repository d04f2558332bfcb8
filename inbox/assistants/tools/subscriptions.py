"""Subscriptions: list, create, change, pause, resume, delete, preview, run now.

Creating, resuming, running now and changing what a subscription costs (its schedule or sources)
spend credits; deleting cannot be undone: those take a confirmation (registry.confirmed). The
schedule is said in words or cron (digests/schedules/phrases.py) with an IANA time zone (the
reader's own when none is given)."""

from __future__ import annotations

from typing import Annotated, Literal

from django.shortcuts import get_object_or_404
from pydantic import Field

from billing import charges, estimates
from config.api.errors import APIInputError
from config.compiled_query import PLACEHOLDER_ID, CompiledQuery
from digests.models import Run, Subscription, SubscriptionSource
from digests.runs import runner
from digests.schedules.next_run import ScheduleError
from digests.schedules.phrases import cron_from_words
from digests.schedules.words import describe_schedule
from digests.subscriptions import service as subscriptions
from digests.subscriptions.api import SubscriptionDraftSerializer, SubscriptionInputSerializer
from digests.tasks import enqueue_run
from inbox.api import _user_zone
from inbox.assistants.arguments import validated
from inbox.assistants.registry import Answer, confirmed, now, throttled, tool
from inbox.assistants.untrusted import quoted, redact_url, untrusted

Name = Annotated[str, Field(min_length=1, max_length=200)]
Topic = Annotated[str, Field(max_length=500, description="What the reader wants, in their words.")]
Keywords = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=100)]],
    Field(max_length=30),
]
Schedule = Annotated[
    str,
    Field(
        max_length=120,
        description="When: in words ('weekdays at 7:30', 'daily at 8am', 'mondays and "
        "thursdays at 18:00', 'every 6 hours') or cron ('0 8 * * 1-5').",
    ),
]
Zone = Annotated[str, Field(max_length=64, description="IANA time zone; default the reader's.")]
Length = Literal["brief", "standard", "deep"]
SourceIds = Annotated[list[Annotated[int, Field(ge=1)]], Field(max_length=500)]
Confirmation = Annotated[
    str, Field(max_length=1000, description="The token a first call answered with.")
]
SubscriptionId = Annotated[int, Field(ge=1)]


def owned_subscription(user, subscription_id: int) -> Subscription:
    """One of the user's subscriptions (not deleted); 404 for anyone else's."""
    return get_object_or_404(Subscription.objects.alive(), pk=subscription_id, owner=user)


def source_ids_of(subscription: Subscription) -> list[int]:
    """The ids of the sources a subscription reads now, in order."""
    return sorted(link.source_id for link in subscription.subscriptionsource_set.all())


def _schedule_fields(user, schedule: str | None, timezone: str | None) -> dict:
    fields = {}
    if schedule is not None:
        try:
            fields["cron"] = cron_from_words(schedule)
        except ScheduleError as exc:
            raise APIInputError({"schedule": exc.message}) from None
    if timezone:
        fields["timezone"] = timezone
    elif schedule is not None:
        fields["timezone"] = _user_zone(user)
    return fields


def _input(user, *, partial: bool, **given) -> dict:
    """The arguments given, as the API's subscription input (same names, same checks)."""
    data = {}
    renames = {"exclusions": "negative_keywords"}
    for name, value in given.items():
        if value is not None and name not in ("schedule", "timezone"):
            data[renames.get(name, name)] = value
    data |= _schedule_fields(user, given.get("schedule"), given.get("timezone"))
    return dict(validated(SubscriptionInputSerializer, data, partial=partial))


_FIELDS = ("id", "name", "topic", "interests", "negative_keywords", "cron", "timezone",
           "max_items", "status", "next_run_at")  # fmt: skip

# The reader's subscriptions and their sources, as plain rows, compiled once
# (config/compiled_query.py): building them through the ORM took longer than running them.
_OWNED = CompiledQuery(
    lambda owner: (
        Subscription.objects.alive().filter(owner=owner).order_by("name", "id").values(*_FIELDS)
    ),
    PLACEHOLDER_ID,
)
_SOURCES_OF_OWNED = CompiledQuery(
    lambda owner: SubscriptionSource.objects.filter(
        subscription__owner=owner, subscription__deleted_at__isnull=True
    ).values("subscription_id", "source_id"),
    PLACEHOLDER_ID,
)


def _data(row: dict, source_ids: list[int]) -> dict:
    """What the tools say of a subscription, from its _FIELDS and its sources' ids."""
    return {
        "id": row["id"],
        "name": row["name"],
        "topic": row["topic"],
        "interests": row["interests"],
        "exclusions": row["negative_keywords"],
        "schedule": describe_schedule(row["cron"], row["timezone"]) if row["cron"] else "once",
        "cron": row["cron"],
        "timezone": row["timezone"],
        "max_items": row["max_items"],
        "status": row["status"],
        "next_run_at": row["next_run_at"].isoformat() if row["next_run_at"] else None,
        "source_ids": sorted(source_ids),
    }


def subscription_data(subscription: Subscription) -> dict:
    row = {name: getattr(subscription, "pk" if name == "id" else name) for name in _FIELDS}
    return _data(row, source_ids_of(subscription))


def _line(data: dict) -> str:
    interests = ", ".join(data["interests"][:8]) or "none"
    return (
        f"- [subscription {data['id']}] {data['name']} — {data['schedule']}, {data['status']}, "
        f"up to {data['max_items']} items; interests: {interests}"
        + (f"; {len(data['source_ids'])} sources" if data["source_ids"] else "; the whole pool")
    )


def subscription_line(subscription: Subscription) -> str:
    return _line(subscription_data(subscription))


@tool(title="List subscriptions")
def list_subscriptions(caller) -> Answer:
    """The reader's subscriptions: topic, interests, exclusions, schedule (in words, cron and
    time zone), length, status, next run, sources."""
    sources: dict[int, list[int]] = {}
    for link in _SOURCES_OF_OWNED.all(caller.user.pk):
        sources.setdefault(link["subscription_id"], []).append(link["source_id"])
    subscriptions = [_data(row, sources.get(row["id"], [])) for row in _OWNED.all(caller.user.pk)]
    return Answer(
        "\n".join(_line(data) for data in subscriptions) or "No subscriptions yet.",
        {"subscriptions": subscriptions},
    )


def _estimate_words(user, data: dict) -> tuple[str, dict]:
    estimate = estimates.estimate(
        user,
        cron=data.get("cron", ""),
        timezone=data.get("timezone", "UTC"),
        source_ids=data.get("source_ids", []),
        now=now(),
    )
    words = (
        f"It would cost at most {estimate.per_run_max} credits a run, about "
        f"{estimate.runs_per_month} runs in 30 days (at most {estimate.per_month_max} a month, "
        f"of {estimate.monthly_credits}; balance {estimate.balance})."
    )
    if not estimate.fits_plan:
        words += f" The plan refuses this schedule: {estimate.plan_refusal}"
    return words, dict(estimate.__dict__)


@tool(title="Create a subscription", write=True, confirm=True)
def create_subscription(
    caller,
    topic: Topic,
    name: Name | None = None,
    interests: Keywords | None = None,
    exclusions: Keywords | None = None,
    schedule: Schedule = "daily at 8am",
    timezone: Zone = "",
    length: Length = "brief",
    source_ids: SourceIds | None = None,
    confirmation: Confirmation = "",
) -> Answer:
    """Create a subscription from a topic in plain words (interests are derived from it when not
    given) on a schedule. Its runs spend credits, so the first call only says what it would
    cost and answers a confirmation token; call again with it to create."""
    data = _input(
        caller.user,
        partial=False,
        name=name or topic[:200],
        topic=topic,
        interests=interests,
        exclusions=exclusions,
        schedule=schedule,
        timezone=timezone,
        length=length,
        source_ids=source_ids,
    )
    moment = now()
    subscriptions.clean_input(data, user=caller.user, now=moment)  # every rule, before asking
    cost, estimate = _estimate_words(caller.user, data)
    when = describe_schedule(data["cron"], data["timezone"])
    ask = confirmed(
        caller,
        "create_subscription",
        data,
        confirmation,
        now=moment,
        consequence=f"This creates the subscription “{data['name']}”, {when}. {cost}",
        data={"estimate": estimate, "schedule": when, "cron": data["cron"]},
    )
    if ask:
        return ask
    subscription = subscriptions.create_subscription(caller.user, data, now=moment)
    return Answer(
        f"Created. {subscription_line(subscription)}",
        {"subscription": subscription_data(subscription)},
    )


@tool(title="Change a subscription", write=True, confirm=True)
def update_subscription(
    caller,
    subscription_id: SubscriptionId,
    name: Name | None = None,
    topic: Topic | None = None,
    interests: Keywords | None = None,
    exclusions: Keywords | None = None,
    schedule: Schedule | None = None,
    timezone: Zone | None = None,
    length: Length | None = None,
    source_ids: SourceIds | None = None,
    confirmation: Confirmation = "",
) -> Answer:
    """Change what a subscription looks for (topic, interests, exclusions), its length or name
    at once. A change of schedule or sources changes what it costs: that takes a confirmation
    (the first call says the new cost)."""
    subscription = owned_subscription(caller.user, subscription_id)
    if timezone and schedule is None:
        schedule = subscription.cron or None
    data = _input(
        caller.user,
        partial=True,
        name=name,
        topic=topic,
        interests=interests,
        exclusions=exclusions,
        schedule=schedule,
        timezone=timezone or (subscription.timezone if schedule is not None else None),
        length=length,
        source_ids=source_ids,
    )
    if not data:
        raise APIInputError({"subscription_id": "Say what to change: at least one field."})
    moment = now()
    subscriptions.clean_input(data, user=caller.user, now=moment, instance=subscription)
    if "cron" in data or "source_ids" in data:
        after = {
            "cron": data.get("cron", subscription.cron),
            "timezone": data.get("timezone", subscription.timezone),
            "source_ids": data.get("source_ids", source_ids_of(subscription)),
        }
        cost, estimate = _estimate_words(caller.user, after)
        ask = confirmed(
            caller,
            "update_subscription",
            {"id": subscription.pk, **data},
            confirmation,
            now=moment,
            consequence=f"This changes the schedule or sources of “{subscription.name}”. {cost}",
            data={"estimate": estimate},
        )
        if ask:
            return ask
    subscriptions.update_subscription(subscription, data, now=moment)
    subscription = owned_subscription(caller.user, subscription.pk)
    return Answer(
        f"Changed. {subscription_line(subscription)}",
        {"subscription": subscription_data(subscription)},
    )


@tool(title="Pause a subscription", write=True)
def pause_subscription(caller, subscription_id: SubscriptionId) -> Answer:
    """Pause a subscription: no runs (and no charges) until it is resumed."""
    subscription = owned_subscription(caller.user, subscription_id)
    subscriptions.pause(subscription)
    return Answer(
        f"Paused. {subscription_line(subscription)}",
        {"subscription": subscription_data(subscription)},
    )


@tool(title="Resume a subscription", write=True, confirm=True)
def resume_subscription(
    caller, subscription_id: SubscriptionId, confirmation: Confirmation = ""
) -> Answer:
    """Resume a paused subscription; its runs spend credits again, so this takes a confirmation."""
    subscription = owned_subscription(caller.user, subscription_id)
    moment = now()
    if subscription.status != Subscription.Status.ACTIVE:
        cost, _estimate = _estimate_words(
            caller.user,
            {
                "cron": subscription.cron,
                "timezone": subscription.timezone,
                "source_ids": source_ids_of(subscription),
            },
        )
        ask = confirmed(
            caller,
            "resume_subscription",
            {"id": subscription.pk},
            confirmation,
            now=moment,
            consequence=f"This resumes “{subscription.name}”. {cost}",
        )
        if ask:
            return ask
    subscriptions.resume(subscription, now=moment)
    return Answer(
        f"Resumed. {subscription_line(subscription)}",
        {"subscription": subscription_data(subscription)},
    )


@tool(title="Delete a subscription", write=True, destructive=True, confirm=True)
def delete_subscription(
    caller, subscription_id: SubscriptionId, confirmation: Confirmation = ""
) -> Answer:
    """Delete a subscription (for a followed public topic: unfollow it). Delivered items stay in
    the Inbox. It cannot be undone, so this takes a confirmation."""
    subscription = owned_subscription(caller.user, subscription_id)
    moment = now()
    ask = confirmed(
        caller,
        "delete_subscription",
        {"id": subscription.pk},
        confirmation,
        now=moment,
        consequence=f"This deletes the subscription “{subscription.name}” for good (its "
        "delivered items stay in the Inbox).",
    )
    if ask:
        return ask
    subscriptions.soft_delete(subscription, now=moment)
    return Answer(f"Deleted “{subscription.name}”.", {"deleted": subscription.pk})


@tool(title="Preview a subscription")
def preview_subscription(
    caller,
    subscription_id: SubscriptionId | None = None,
    topic: Topic | None = None,
    interests: Keywords | None = None,
    exclusions: Keywords | None = None,
    length: Length | None = None,
    source_ids: SourceIds | None = None,
) -> Answer:
    """What a brief would hold if it ran now: of a saved subscription (subscription_id), or of
    one not created yet (topic, interests, exclusions, length, sources) — or a saved one with
    these changes. Nothing is saved or charged."""
    throttled(caller, "subscription_preview")
    data = {
        key: value
        for key, value in {
            "topic": topic,
            "interests": interests,
            "negative_keywords": exclusions,
            "length": length,
            "source_ids": source_ids,
        }.items()
        if value is not None
    }
    if subscription_id is None and not data.get("topic") and not data.get("interests"):
        raise APIInputError({"topic": "Give a topic (or interests), or a subscription_id."})
    data = dict(validated(SubscriptionDraftSerializer, data))
    moment = now()
    instance = (
        owned_subscription(caller.user, subscription_id) if subscription_id is not None else None
    )
    draft = subscriptions.draft(caller.user, data, now=moment, instance=instance)
    selection = runner.preview(draft.subscription, now=moment, source_ids=draft.source_ids)
    items = [
        {
            "pool_item_id": c.item_id,
            "url": redact_url(c.canonical_url),
            "score": c.overall,
            **untrusted(title=c.title, source_name=c.site_name, reason=c.reason()),
        }
        for c in selection.selected
    ]
    lines = [f"Interests: {', '.join(selection.interests) or 'none'}."]
    lines += [
        f"- {quoted(c.title, limit=160)} — {quoted(c.site_name, limit=60)}, score {c.overall}; "
        f"why: {quoted(c.reason())}"
        for c in selection.selected
    ]
    if not selection.selected:
        lines.append(
            selection.advice or selection.empty_reason or "Nothing would be delivered now."
        )
    return Answer(
        "\n".join(lines),
        {
            "interests": list(selection.interests),
            "candidates_count": selection.candidates_count,
            "selected": items,
            "empty_reason": selection.empty_reason,
            "advice": selection.advice,
        },
    )


@tool(title="Run a subscription now", write=True, confirm=True)
def run_now(caller, subscription_id: SubscriptionId, confirmation: Confirmation = "") -> Answer:
    """Run a subscription now, off schedule: a brief arrives in the Inbox in a minute or two. A run
    spends credits, so this takes a confirmation. Read it afterwards with read_brief."""
    subscription = owned_subscription(caller.user, subscription_id)
    moment = now()
    _cost, estimate = _estimate_words(
        caller.user,
        {
            "cron": "",
            "timezone": subscription.timezone,
            "source_ids": source_ids_of(subscription),
        },
    )
    ask = confirmed(
        caller,
        "run_now",
        {"id": subscription.pk},
        confirmation,
        now=moment,
        consequence=f"This runs “{subscription.name}” now: at most {estimate['per_run_max']} "
        "credits (refunded if nothing is delivered).",
        data={"estimate": estimate},
    )
    if ask:
        return ask
    run = subscriptions.request_manual_run(subscription, now=moment)
    enqueue_run(run.pk)
    run = charges.with_credits(Run.objects.select_related("subscription")).get(pk=run.pk)
    return Answer(
        f"Started run {run.pk} of “{subscription.name}” (status {run.status}). Read it with "
        f"read_brief run_id={run.pk} once it has finished.",
        {"run": {"id": run.pk, "status": run.status, "subscription_id": subscription.pk}},
    )
