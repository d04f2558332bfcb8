"""What the tools say about briefs and items, in data and in words. Everything a feed, a page or
a mail wrote (titles, summaries, source names, narratives written from them) goes through
`untrusted`/`quoted`; addresses through `redact_url`. A reason why an item was picked counts as
a stranger's too: it may hold words of the items (the feedback words, a model's one-line why)."""

from __future__ import annotations

from inbox.assistants.untrusted import quoted, redact_url, untrusted

TITLE_CHARS = 160
SUMMARY_CHARS = 300


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def run_item_data(run_item, *, state=None) -> dict:
    data = {
        "id": run_item.pk,
        "run_id": run_item.run_id,
        "rank": run_item.rank,
        "url": redact_url(run_item.url),
        "score": run_item.overall,
        "published_at": _iso(run_item.published_at),
        "delivered_at": _iso(run_item.delivered_at),
        **untrusted(
            title=run_item.title,
            summary=run_item.summary,
            source_name=run_item.source_name,
            reason=run_item.reason,
        ),
    }
    if state is not None or hasattr(run_item, "state"):
        state = state if state is not None else run_item.state
        data["read"] = bool(state and state.read_at)
        data["saved"] = bool(state and state.saved_at)
        data["not_interested"] = bool(state and state.not_interested_at)
    return data


def run_item_line(run_item, *, with_summary: bool = False) -> str:
    marks = []
    state = getattr(run_item, "state", None)
    if state is not None:
        marks += ["saved"] if state.saved_at else []
        marks += ["read"] if state.read_at else []
    line = (
        f"- [item {run_item.pk}] {quoted(run_item.title, limit=TITLE_CHARS)} — "
        f"{quoted(run_item.source_name, limit=60)}, score {run_item.overall}"
        f"{' (' + ', '.join(marks) + ')' if marks else ''}; why: {quoted(run_item.reason)}; "
        f"{redact_url(run_item.url)}"
    )
    if with_summary and run_item.summary:
        line += f"\n  summary: {quoted(run_item.summary, limit=SUMMARY_CHARS)}"
    return line


def run_data(run) -> dict:
    return {
        "id": run.pk,
        "subscription_id": run.subscription_id,
        "subscription_name": run.subscription.name,
        "status": run.status,
        "trigger": run.trigger,
        "scheduled_at": _iso(run.scheduled_at),
        "finished_at": _iso(run.finished_at),
        "delivered_count": run.delivered_count,
        "empty_reason": run.empty_reason,
        "credits_charged": getattr(run, "credits_charged", None),
    }


def run_line(run) -> str:
    when = (run.finished_at or run.scheduled_at).strftime("%Y-%m-%d %H:%M UTC")
    line = (
        f"- [run {run.pk}] {run.subscription.name} — {when}, {run.status}, "
        f"{run.delivered_count} items"
    )
    if run.empty_reason:
        line += f" ({run.empty_reason})"
    return line
