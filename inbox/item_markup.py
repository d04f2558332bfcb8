"""One Inbox item's markup (the Inbox, a run's page, the item htmx swaps back after an action).

Written in Python rather than as a template fragment: through the template engine each item
cost about 80 variable and tag nodes — a millisecond or more per item, most of an uncached
Inbox page of 30 — where this costs tens of microseconds. The markup is byte for byte what
the fragment `inbox/_item.html` rendered (tests/inbox/test_item_markup.py pins it); change it
here and in the browser tests and keyboard script that read it (static/js/inbox-keys.js).

What every item of a page shares (URL prefixes, the translated labels, the form's return
address, the CSRF token) is escaped once per page (`ItemPage`), not once per item.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from config.moments import moment_filter
from digests.narrative.reasons import why_selected
from inbox.page_cache import ago_marker

# What an item shows, besides its marks.
ITEM_FIELDS = (
    "id",
    "run_id",
    "subscription_name",
    "title",
    "url",
    "summary",
    "summary_generator",
    "source_name",
    "reason",
    "published_at",
    "redelivered",
)


def labels() -> dict[str, str]:
    """The items' button and badge texts, translated once per page (the reader's page shows
    some of them too)."""
    return {
        "again": _("again"),
        "extractive": _("Summary written without AI"),
        "extractive_title": _("The first sentences of the source’s own description."),
        "why": _("Why selected:"),
        "read_here": _("Read here"),
        "read": _("Mark read"),
        "unread": _("Mark unread"),
        "save": _("Save"),
        "unsave": _("Unsave"),
        "not_interested": _("Not interested"),
        "interested": _("Undo not interested"),
    }


def url_prefixes() -> dict[str, str]:
    """The prefixes of the item action and run URLs: reversed once per page, not per item."""
    return {
        "items": reverse("inbox:item_act", args=[0]).removesuffix("0/"),
        "runs": reverse("inbox:run", args=[0]).removesuffix("0/"),
    }


@dataclass(frozen=True)
class ItemPage:
    """What the items of one page share, escaped for HTML."""

    items_url: str
    runs_url: str
    text: dict[str, str]
    return_to: str
    csrf_input: str

    @classmethod
    def build(cls, *, urls: dict, texts: dict, return_to: str, csrf_token: str | None) -> ItemPage:
        # As `{% csrf_token %}` renders it.
        csrf_input = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(csrf_token)}">'
            if csrf_token and csrf_token != "NOTPROVIDED"  # noqa: S105 - Django's word, not a secret
            else ""
        )
        return cls(
            items_url=escape(urls["items"]),
            runs_url=escape(urls["runs"]),
            text={key: escape(str(value)) for key, value in texts.items()},
            return_to=escape(return_to),
            csrf_input=csrf_input,
        )


def _button(
    page: ItemPage, on: bool, id_: str, kind: str, names: tuple[str, str], texts: tuple[str, str]
) -> str:
    """A toggle: both labels in one cell, the inactive one hidden (so it keeps its width)."""
    undo, do = names
    undo_text, do_text = page.text[texts[0]], page.text[texts[1]]
    if on:
        return (
            f'<button class="act" type="submit" name="action" value="{undo}" '
            f'id="item-{id_}-{kind}" data-action="{kind}" data-on="1"><span>{undo_text}</span>'
            f'<span class="hidden-label">{do_text}</span></button>'
        )
    return (
        f'<button class="act" type="submit" name="action" value="{do}" '
        f'id="item-{id_}-{kind}" data-action="{kind}" data-on="0">'
        f'<span class="hidden-label">{undo_text}</span><span>{do_text}</span></button>'
    )


def item_row(run_item) -> dict:
    """A RunItem with `.state` and `.subscription_name` (a run's page, an action's answer) as
    the row `item_html` takes, which the Inbox reads as such (inbox.listing.inbox_page_rows)."""
    state = run_item.state
    return {
        **{name: getattr(run_item, name) for name in ITEM_FIELDS},
        "reason": why_selected(run_item),  # in the active language, as the Inbox's rows have it
        "read": bool(state and state.read_at),
        "saved": bool(state and state.saved_at),
        "not_interested": bool(state and state.not_interested_at),
    }


def item_html(item: dict, page: ItemPage, *, show_run: bool = False) -> SafeString:
    """One delivered item: a row of ITEM_FIELDS plus `read`, `saved` and `not_interested`.
    Times are shown in the active time zone, as the templates around it show theirs."""
    read, saved, dismissed = item["read"], item["saved"], item["not_interested"]
    text = page.text
    id_ = f"{item['id']:d}"
    action = f"{page.items_url}{id_}/"

    source = f"<span>{escape(item['source_name'])}</span>" if item["source_name"] else ""
    published_at = item["published_at"]
    published = (
        f'{moment_filter(published_at)} <span class="ago">{ago_marker(published_at)}</span>'
        if published_at
        else ""
    )
    run_link = (
        f'<a href="{page.runs_url}{item["run_id"]}/">{escape(item["subscription_name"])}</a>'
        if show_run
        else ""
    )
    again = f'<span class="badge">{text["again"]}</span>' if item["redelivered"] else ""
    summary = ""
    if item["summary"]:
        written_without_ai = (
            f' <small class="muted" title="{text["extractive_title"]}">{text["extractive"]}</small>'
            if item["summary_generator"] == "extractive"
            else ""
        )
        summary = f'<p class="item-summary">{escape(item["summary"])}{written_without_ai}</p>'
    classes = ("item" + (" is-read" if read else "")) + (" is-dismissed" if dismissed else "")
    show_run_input = '<input type="hidden" name="show_run" value="1">' if show_run else ""
    buttons = (
        _button(page, read, id_, "read", ("unread", "read"), ("unread", "read")),
        _button(page, saved, id_, "save", ("unsave", "save"), ("unsave", "save")),
        _button(
            page,
            dismissed,
            id_,
            "dismiss",
            ("interested", "not_interested"),
            ("interested", "not_interested"),
        ),
    )
    # Every value above is escaped, or is our own markup.
    return mark_safe(
        "\n"
        f'<article class="{classes}" id="item-{id_}" tabindex="-1" data-item '
        f'aria-labelledby="item-{id_}-title">\n'
        f'  <h2 class="item-title" id="item-{id_}-title"><a href="{escape(item["url"])}" '
        f'rel="noopener noreferrer" target="_blank" data-open>{escape(item["title"])}</a></h2>\n'
        '  <p class="item-meta">\n'
        f"    {source}\n"
        f"    {published}\n"
        f"    {run_link}\n"
        f'    <a href="{action}reader/" data-read>{text["read_here"]}</a>\n'
        f"    {again}\n"
        "  </p>\n"
        f"  {summary}\n"
        f'  <p class="item-why"><span class="why-label">{text["why"]}</span> '
        f"{escape(item['reason'])}</p>\n"
        "  \n"
        f'  <form class="item-actions" method="post" action="{action}" hx-post="{action}" '
        f'hx-target="#item-{id_}" hx-swap="outerHTML">{page.csrf_input}'
        f'<input type="hidden" name="next" value="{page.return_to}#item-{id_}">'
        f"{show_run_input}\n"
        f"    {buttons[0]}\n"
        f"    {buttons[1]}\n"
        f"    {buttons[2]}\n"
        "  </form>\n"
        "</article>\n"
    )
