from __future__ import annotations

from django import template

from digests.narrative.markdown import plain, render

register = template.Library()


@register.filter
def narrative_html(markdown: str):
    """A narrative's Markdown as safe HTML (digests/narrative/markdown.py: escape first, then a
    small subset; links only to http(s))."""
    return render(markdown)


@register.filter
def narrative_text(markdown: str) -> str:
    """A narrative's Markdown as plain text, for an email's text part (no `**` or `#`)."""
    return plain(markdown)
