"""Credits: the balance, and what a schedule would cost before it is chosen."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from billing import estimates
from billing.accounts import ensure_account
from billing.api import BalanceSerializer, EstimateQuerySerializer
from config.api.errors import APIInputError
from digests.schedules.next_run import ScheduleError
from inbox.assistants.arguments import validated
from inbox.assistants.registry import Answer, now, tool


@tool(title="Credits balance")
def credits_balance(caller) -> Answer:
    """The reader's credits: balance this period, monthly allowance, plan and its limits. Runs
    are billed once per run; a run that delivers nothing is refunded."""
    data = BalanceSerializer(ensure_account(caller.user, now=now())).data
    return Answer(
        f"{data['balance']} credits left of {data['monthly_credits']} this period "
        f"(plan: {data['tier']}; the balance resets on {data['period_end']}).",
        dict(data),
    )


@tool(title="Estimate the cost of a schedule")
def estimate_cost(
    caller,
    cron: Annotated[
        str,
        Field(max_length=120, description="A cron expression, e.g. '0 8 * * 1-5'; empty: one run."),
    ] = "",
    timezone: Annotated[
        str, Field(max_length=64, description="IANA time zone, e.g. Europe/Berlin.")
    ] = "UTC",
    source_ids: Annotated[
        list[int] | None,
        Field(max_length=500, description="Sources from the reader's library (source_id)."),
    ] = None,
) -> Answer:
    """What a subscription with this schedule and these sources would cost: at most per run,
    about how many runs in the next 30 days, at most per month; and whether the plan allows the
    schedule. Nothing is created or charged."""
    query = validated(
        EstimateQuerySerializer,
        {"cron": cron, "timezone": timezone, "source_ids": ",".join(map(str, source_ids or []))},
    )
    try:
        estimate = estimates.estimate(
            caller.user,
            cron=query["cron"],
            timezone=query["timezone"],
            source_ids=query["source_ids"],
            now=now(),
        )
    except ScheduleError as exc:
        raise APIInputError({exc.field: exc.message}) from None
    data = dict(estimate.__dict__)
    text = (
        f"At most {estimate.per_run_max} credits a run, about {estimate.runs_per_month} runs in "
        f"30 days: at most {estimate.per_month_max} credits a month, of "
        f"{estimate.monthly_credits} (balance {estimate.balance})."
    )
    if not estimate.fits_plan:
        text += f" The plan does not allow this schedule: {estimate.plan_refusal}"
    return Answer(text, data)
