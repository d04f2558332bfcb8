"""Briefs: the runs that delivered, with their items, narrative and reasons."""

from __future__ import annotations

from typing import Annotated

from django.shortcuts import get_object_or_404
from pydantic import Field

from billing import charges
from digests.models import Run
from inbox.assistants.registry import Answer, tool
from inbox.assistants.shapes import item_data, item_line, item_row, run_data, run_line
from inbox.assistants.tools.subscriptions import owned_subscription
from inbox.assistants.untrusted import quoted, untrusted
from inbox.listing import with_states

BRIEFS_PAGE_MAX = 50
NARRATIVE_CHARS = 4000


def _runs(user):
    return charges.with_credits(
        Run.objects.filter(user=user)
        .select_related("subscription")
        .order_by("-scheduled_at", "-id")
    )


@tool(title="List briefs")
def list_briefs(
    caller,
    subscription_id: Annotated[
        int | None, Field(ge=1, description="Only this subscription's briefs.")
    ] = None,
    limit: Annotated[int, Field(ge=1, le=BRIEFS_PAGE_MAX)] = 10,
    before_run_id: Annotated[
        int | None, Field(ge=1, description="Older than this run (the next page).")
    ] = None,
) -> Answer:
    """The reader's briefs (runs), newest first: when, which subscription, status, how many items,
    why a run delivered nothing. Read one with read_brief."""
    runs = _runs(caller.user)
    if subscription_id is not None:
        owned_subscription(caller.user, subscription_id)
        runs = runs.filter(subscription_id=subscription_id)
    if before_run_id is not None:
        anchor = get_object_or_404(Run, pk=before_run_id, user=caller.user)
        runs = runs.filter(scheduled_at__lte=anchor.scheduled_at).exclude(
            scheduled_at=anchor.scheduled_at, id__gte=anchor.pk
        )
    page = list(runs[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    lines = [run_line(run) for run in page] or ["No briefs yet."]
    if more:
        lines.append(f"More: call list_briefs with before_run_id={page[-1].pk}.")
    return Answer(
        "\n".join(lines),
        {
            "briefs": [run_data(run) for run in page],
            "next_before_run_id": page[-1].pk if more else None,
        },
    )


@tool(title="Read a brief")
def read_brief(
    caller,
    run_id: Annotated[int | None, Field(ge=1, description="The brief (run) to read.")] = None,
    subscription_id: Annotated[
        int | None, Field(ge=1, description="Or: this subscription's latest brief.")
    ] = None,
) -> Answer:
    """One brief with its narrative and items in order, each with its score and why it was
    picked. Give run_id, or subscription_id for that subscription's latest delivered brief, or
    neither for the newest brief of all."""
    runs = _runs(caller.user).prefetch_related("items")
    if run_id is not None:
        run = get_object_or_404(runs, pk=run_id)
    else:
        delivered = runs.filter(delivered_count__gt=0)
        if subscription_id is not None:
            owned_subscription(caller.user, subscription_id)
            delivered = delivered.filter(subscription_id=subscription_id)
        run = delivered.first()
        if run is None:
            return Answer("No brief has been delivered yet.", {"brief": None})
    return brief_answer(caller.user, run)


def brief_answer(user, run) -> Answer:
    items = [
        item_row(ri) for ri in with_states(user, sorted(run.items.all(), key=lambda ri: ri.rank))
    ]
    narrative = run.narrative_md[:NARRATIVE_CHARS]
    lines = [run_line(run).removeprefix("- ")]
    if narrative:
        lines.append(f"Narrative: {quoted(narrative)}")
    lines += [item_line(row, with_summary=True) for row in items]
    data = run_data(run) | untrusted(narrative=narrative)
    data["items"] = [item_data(row) for row in items]
    return Answer("\n".join(lines), {"brief": data})


def latest_brief_markdown(user, subscription_id: int) -> str:
    """The latest delivered brief of one subscription as markdown (the resource's text)."""
    subscription = owned_subscription(user, subscription_id)
    run = (
        Run.objects.filter(subscription=subscription, delivered_count__gt=0)
        .order_by("-scheduled_at", "-id")
        .prefetch_related("items")
        .first()
    )
    if run is None:
        return f"# {subscription.name}\n\nNo brief has been delivered yet.\n"
    lines = [f"# {subscription.name} — {run.scheduled_at:%Y-%m-%d %H:%M} UTC", ""]
    if run.narrative_md:
        lines += [quoted(run.narrative_md[:NARRATIVE_CHARS]), ""]
    for run_item in with_states(user, sorted(run.items.all(), key=lambda ri: ri.rank)):
        lines.append(item_line(item_row(run_item), with_summary=True))
    return "\n".join(lines) + "\n"
