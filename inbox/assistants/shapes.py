"""What the tools say about briefs and items, in data and in words. Everything a feed, a page or
a mail wrote (titles, summaries, source names, narratives written from them) goes through
`untrusted`/`quoted`; addresses through `redact_url`. A reason why an item was picked counts as
a stranger's too: it may hold words of the items (the feedback words, a model's one-line why)."""

from __future__ import annotations

from digests.narrative.reasons import why_selected
from inbox.assistants.untrusted import quoted, redact_url, untrusted

TITLE_CHARS = 160
SUMMARY_CHARS = 300


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


ITEM_FIELDS = ("id", "run_id", "rank", "url", "overall", "published_at", "delivered_at",
               "title", "summary", "source_name", "reason")  # fmt: skip


def item_row(run_item) -> dict:
    """A RunItem (with `.state` from inbox.listing.with_states) as the plain row the Inbox's
    row listing gives (inbox.listing.inbox_page_rows): one shape for both."""
    row = {name: getattr(run_item, name) for name in ITEM_FIELDS if name not in ("id", "reason")}
    row["id"] = run_item.pk
    row["reason"] = why_selected(run_item)
    state = getattr(run_item, "state", None)
    row["read"] = bool(state and state.read_at)
    row["saved"] = bool(state and state.saved_at)
    row["not_interested"] = bool(state and state.not_interested_at)
    return row


def item_data(row: dict) -> dict:
    return {
        "id": row["id"],
        "run_id": row["run_id"],
        "rank": row["rank"],
        "url": redact_url(row["url"]),
        "score": row["overall"],
        "published_at": _iso(row["published_at"]),
        "delivered_at": _iso(row["delivered_at"]),
        "read": row["read"],
        "saved": row["saved"],
        "not_interested": row["not_interested"],
        **untrusted(
            title=row["title"],
            summary=row["summary"],
            source_name=row["source_name"],
            reason=row["reason"],
        ),
    }


def item_line(row: dict, *, with_summary: bool = False) -> str:
    marks = [mark for mark in ("saved", "read") if row[mark]]
    line = (
        f"- [item {row['id']}] {quoted(row['title'], limit=TITLE_CHARS)} — "
        f"{quoted(row['source_name'], limit=60)}, score {row['overall']}"
        f"{' (' + ', '.join(marks) + ')' if marks else ''}; why: {quoted(row['reason'])}; "
        f"{redact_url(row['url'])}"
    )
    if with_summary and row["summary"]:
        line += f"\n  summary: {quoted(row['summary'], limit=SUMMARY_CHARS)}"
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
