"""Inbox items in templates: `{% inbox_item item %}` (inbox/item_markup.py), and
`item|why_selected` in the active language."""

from __future__ import annotations

from django import template

from digests.narrative import reasons
from inbox.item_markup import ItemPage, item_html

register = template.Library()


@register.simple_tag(takes_context=True)
def inbox_item(context, item, show_run=False):
    """One item, from the page's `inbox_urls`, `labels` and `return_to` (views.item_context())
    and its CSRF token, escaped once per page."""
    page = context.render_context.get(ItemPage)
    if page is None:
        page = ItemPage.build(
            urls=context["inbox_urls"],
            texts=context["labels"],
            return_to=context.get("return_to", ""),
            csrf_token=context.get("csrf_token"),
        )
        context.render_context[ItemPage] = page
    return item_html(item, page, show_run=show_run)


@register.filter
def why_selected(run_item) -> str:
    """Why a delivered item was selected, in the active language (digests.narrative.reasons)."""
    return reasons.why_selected(run_item)
