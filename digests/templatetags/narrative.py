from __future__ import annotations

from django import template

from digests.narrative.markdown import render

register = template.Library()


@register.filter
def narrative_html(markdown: str):
    """A narrative's Markdown as safe HTML (digests/narrative/markdown.py: escape first, then a
    small subset; links only to http(s))."""
    return render(markdown)
